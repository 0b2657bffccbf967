from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import plugins
        from games.services import queue

        plugins.load(settings.INSTALLED_GAMES, settings.ENGINE_EXTRA_GAMES)
        queue.carriers_register()  # how the outbox carries out the lifecycle's rows
