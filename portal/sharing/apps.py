from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SharingConfig(AppConfig):
    name = "portal.sharing"
    label = "sharing"
    verbose_name = _("Sharing")
