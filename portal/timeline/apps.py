from django.apps import AppConfig


class TimelineConfig(AppConfig):
    name = "portal.timeline"
    label = "timeline"
    default_auto_field = "django.db.models.BigAutoField"
