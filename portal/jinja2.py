"""The Jinja2 environment for the few hot lists rendered with Jinja2 (``templates_jinja/``):
the lobby's lists and "my matches" rows, each rendered many times per page, where Django's
template engine cost most of the page (``scripts/profile_pages.py`` measures it). The filters
are Django's own, so that a date or a number reads the same as on the Django-rendered pages
around them."""

from __future__ import annotations

import functools
from datetime import datetime, tzinfo
from typing import Any

from django.template import defaultfilters
from django.urls import reverse
from django.utils import timezone, translation
from jinja2 import ChainableUndefined, Environment


def date(value: datetime | None, format_string: str) -> str:
    """Django's ``date`` filter, in the active time zone (as Django's templates show it)."""
    if value is None:
        return ""
    return _date(value, format_string, timezone.get_current_timezone(),
                 translation.get_language())


@functools.lru_cache(maxsize=4096)
def _date(value: datetime, format_string: str, zone: tzinfo, language: str | None) -> str:
    # Formatting a date reads the translated names of days and months each time: the same
    # deadlines are shown on every request, so each is formatted once per zone and language.
    if timezone.is_aware(value):
        value = timezone.localtime(value, zone)
    return defaultfilters.date(value, format_string)


def environment(**options: Any) -> Environment:
    # A missing name (or an attribute of one) renders as nothing, as in Django's templates.
    options["undefined"] = ChainableUndefined
    env = Environment(**options)
    env.filters.update({"date": date, "floatformat": defaultfilters.floatformat})
    env.globals.update({"url": reverse})
    return env
