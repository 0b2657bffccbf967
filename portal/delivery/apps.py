from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class DeliveryConfig(AppConfig):
    name = "portal.delivery"
    label = "delivery"
    verbose_name = _("Deliveries")

    def ready(self) -> None:
        from durable.sweep import sweep_register
        from portal.delivery import events, tasks

        events.connect()  # the lifecycle's events to their consumers, from the one table
        # (rows due: lost tasks, retries, lost leases; stale rows expired)
        sweep_register("deliveries", tasks.sweep_deliveries,
                       every=lambda: settings.DELIVERY_SWEEP_SECONDS)
