"""Profile-page parts of the API and calendar apps (kept here so accounts need not import
them): ``{% api_tokens user as tokens %}`` and ``{% calendar_address user as url %}``."""

from __future__ import annotations

from typing import Any

from django import template

from portal.api.models import ApiToken
from portal.feeds.services import calendar_url

register = template.Library()


@register.simple_tag
def api_tokens(user: Any) -> list[ApiToken]:
    if not getattr(user, "is_authenticated", False):
        return []
    return list(ApiToken.objects.filter(user=user, revoked_at__isnull=True))


@register.simple_tag
def calendar_address(user: Any) -> str:
    return calendar_url(user=user) if getattr(user, "is_authenticated", False) else ""
