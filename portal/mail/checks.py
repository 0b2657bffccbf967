"""System checks of the mail app: the site does not start open to forged ESP webhooks."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register


def webhook_secret() -> str:
    """anymail's basic-auth secret (``ANYMAIL["WEBHOOK_SECRET"]`` or ``ANYMAIL_WEBHOOK_SECRET``)."""
    anymail = getattr(settings, "ANYMAIL", None) or {}
    return anymail.get("WEBHOOK_SECRET") or getattr(settings, "ANYMAIL_WEBHOOK_SECRET", "") or ""


@register(Tags.security)
def check_webhooks_authenticated(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """With DEBUG off, the ESP webhooks (received mail, bounces, complaints) need a secret.

    Without one, anymail takes any POST: anybody could post orders "from" a player or mark
    every player's address as failing."""
    if settings.DEBUG or not settings.INBOUND_WEBHOOKS or webhook_secret():
        return []
    return [Error(
        "The ESP webhooks under /mail/anymail/ are on without authentication: anybody could "
        "post mail or bounces to them.",
        hint="Set ANYMAIL_WEBHOOK_SECRET (user:password, the basic auth your ESP sends), or "
             "INBOUND_WEBHOOKS=false if mail arrives by the MTA pipe or a maildir only.",
        id="mail.E001",
    )]
