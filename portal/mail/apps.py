from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MailConfig(AppConfig):
    name = "portal.mail"
    label = "mail"
    verbose_name = _("Play by email")

    def ready(self) -> None:
        from portal.mail import bounces, checks, receivers  # noqa: F401  (signal receivers, checks)
