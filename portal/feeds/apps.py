from django.apps import AppConfig


class FeedsConfig(AppConfig):
    name = "portal.feeds"
    label = "feeds"
    verbose_name = "Calendar feeds"
