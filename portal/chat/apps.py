from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Messages between the commanders of a match (docs/messages.md). Its label is ``chat``:
    ``messages`` is Django's own messages framework."""

    name = "portal.chat"
    label = "chat"
    verbose_name = _("Messages between players")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from durable.sweep import sweep_register
        from portal.chat import tasks

        # (notices due and not sent: a task the broker lost, one that came early)
        sweep_register("message notices", tasks.notices_sweep,
                       every=lambda: settings.CHAT_NOTIFY_SWEEP_SECONDS)
