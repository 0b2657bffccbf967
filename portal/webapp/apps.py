from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebAppConfig(AppConfig):
    name = "portal.webapp"
    label = "webapp"
    verbose_name = _("Installable app")
