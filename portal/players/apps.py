from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "portal.players"
    label = "players"
    verbose_name = _("Player pages")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from portal.players import competitions

        competitions.register()  # the ratings, seasons, team matches and clubs on a player's page
