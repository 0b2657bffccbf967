from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import plugins

        plugins.load(settings.INSTALLED_GAMES, settings.ENGINE_EXTRA_GAMES)
