from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Messages between the commanders of a match (docs/messages.md). Its label is ``chat``:
    ``messages`` is Django's own messages framework."""

    name = "portal.chat"
    label = "chat"
    verbose_name = _("Messages between players")
    default_auto_field = "django.db.models.BigAutoField"
