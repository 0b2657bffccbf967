from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "portal.push"
    label = "push"
    verbose_name = "Web push"

    def ready(self) -> None:
        from portal.push import receivers  # noqa: F401  (connects the signal receivers)
