from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TimelineConfig(AppConfig):
    name = "portal.timeline"
    label = "timeline"
    verbose_name = _("Notes and commentaries")
    default_auto_field = "django.db.models.BigAutoField"
