from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "portal.reports"
    label = "reports"
    verbose_name = "Reports and moderators"
