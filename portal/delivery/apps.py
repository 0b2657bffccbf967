from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DeliveryConfig(AppConfig):
    name = "portal.delivery"
    label = "delivery"
    verbose_name = _("Deliveries")

    def ready(self) -> None:
        from portal.delivery import events

        events.connect()  # the lifecycle's events to their consumers, from the one table
