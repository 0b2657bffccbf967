from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignalsConfig(AppConfig):
    """Traces of logins and submissions (network, device) and the moderators' signals queue
    built from them and from the matches (docs/moderation.md, "Signals")."""

    name = "portal.signals"
    label = "signals"
    verbose_name = _("Signals for moderators")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from portal.signals import receivers  # noqa: F401  (records logins and submissions)
