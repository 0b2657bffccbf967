from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "portal.push"
    label = "push"
    verbose_name = "Web push"

    def ready(self) -> None:
        from portal import outbound  # noqa: F401  (registers its system check)
        from portal.push import receivers  # noqa: F401  (connects the signal receivers)
