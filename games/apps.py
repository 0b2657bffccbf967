import importlib

from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        for module in settings.ENGINE_EXTRA_GAMES:
            importlib.import_module(module)
