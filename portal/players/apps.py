from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "portal.players"
    label = "players"
    verbose_name = _("Player pages")
    default_auto_field = "django.db.models.BigAutoField"
