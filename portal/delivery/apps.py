from django.apps import AppConfig


class DeliveryConfig(AppConfig):
    name = "portal.delivery"
    label = "delivery"
    verbose_name = "Deliveries"

    def ready(self) -> None:
        from portal.delivery import events

        events.connect()  # the lifecycle's events to their consumers, from the one table
