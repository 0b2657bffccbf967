from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "portal.webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from portal.webhooks import channel  # noqa: F401  (registers the delivery channel)
