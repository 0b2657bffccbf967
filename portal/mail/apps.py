from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "portal.mail"
    label = "mail"
    verbose_name = "Play by email"

    def ready(self) -> None:
        from portal.mail import bounces, receivers  # noqa: F401  (connects the signal receivers)
