from django.apps import AppConfig


class MailConfig(AppConfig):
    name = "portal.mail"
    label = "mail"
    verbose_name = "Play by email"

    def ready(self) -> None:
        from portal.mail import bounces, checks, receivers  # noqa: F401  (signal receivers, checks)
