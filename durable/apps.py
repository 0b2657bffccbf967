from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DurableConfig(AppConfig):
    name = "durable"
    verbose_name = _("Work queue")
