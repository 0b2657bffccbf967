"""Showing reliability records: ``{{ user|reliability }}`` (a short badge text, e.g. "92 %"
or "new") and ``{{ user|reliability_title }}`` (the sentence behind it), and the profile's
``{% reliability_record user %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from games.models import Reliability
from games.services.reliability import reliability_badge, reliability_describe

register = template.Library()


def _record(user: Any) -> Reliability | None:
    try:
        return user.reliability  # select_related by the page, or one query
    except (ObjectDoesNotExist, AttributeError):
        return None


@register.filter
def reliability(user: Any) -> str:
    return reliability_badge(_record(user))


@register.filter
def reliability_title(user: Any) -> str:
    return _("Reliability: %(record)s") % {"record": reliability_describe(_record(user))}


@register.inclusion_tag("games/partials/reliability_record.html")
def reliability_record(user: Any) -> dict[str, Any]:
    record = _record(user)
    return {"record": record, "described": reliability_describe(record)}
