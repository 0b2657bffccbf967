from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MailConfig(AppConfig):
    name = "portal.mail"
    label = "mail"
    verbose_name = _("Play by email")

    def ready(self) -> None:
        from portal.accounts.notifications import failing_lookup_register
        from portal.mail import bounces, checks, receivers, tasks  # noqa: F401  (signal receivers, checks)

        failing_lookup_register(bounces.failing_among)  # (nothing more to a failing address)
