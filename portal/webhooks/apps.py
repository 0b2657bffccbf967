from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    name = "portal.webhooks"
    label = "webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from portal.webhooks import channel  # noqa: F401  (registers the delivery channel)
