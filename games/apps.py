from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from durable.sweep import sweep_register
        from games import plugins, tasks

        plugins.load(settings.INSTALLED_GAMES, settings.ENGINE_EXTRA_GAMES)
        # (what a crash left undone: the outbox rows written but not dispatched)
        sweep_register("lifecycle outbox", tasks.lifecycle_outbox_sweep,
                       every=lambda: settings.LIFECYCLE_OUTBOX_SWEEP_SECONDS)
