"""Django's ``date`` and ``floatformat`` filters, remembered: the same deadlines, resolution
times and hours are shown on every request, and formatting one reads the translated names of
days and months (or the number format) each time. Each is made once per time zone and
language; the results are exactly the filters'."""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta, tzinfo
from decimal import Decimal

from django.template import defaultfilters
from django.utils import timezone, translation
from django.utils.timesince import timesince
from django.utils.translation import gettext


def locale() -> tuple[tzinfo, str | None]:
    """The active time zone and language (what ``date`` and ``floatformat`` depend on), for
    a caller formatting many values to look up once."""
    return timezone.get_current_timezone(), translation.get_language()


def date(value: datetime | None, format_string: str,
         shown_in: tuple[tzinfo, str | None] | None = None) -> str:
    """``value|date:format_string`` in the active time zone and language (or ``shown_in``,
    what ``locale()`` gave)."""
    if value is None or value == "":
        return ""
    zone, language = shown_in or locale()
    return _date(value, format_string, zone, language)


@functools.lru_cache(maxsize=4096)
def _date(value: datetime, format_string: str, zone: tzinfo, language: str | None) -> str:
    if timezone.is_aware(value):
        value = timezone.localtime(value, zone)
    return defaultfilters.date(value, format_string)


def floatformat(value: float | Decimal | int | None, arg: str = "-1",
                shown_in: tuple[tzinfo, str | None] | None = None) -> str:
    """``value|floatformat:arg`` in the active language (or ``shown_in``'s)."""
    if value is None:
        return ""
    return _floatformat(value, arg, shown_in[1] if shown_in else translation.get_language())


@functools.lru_cache(maxsize=1024)
def _floatformat(value: float | Decimal | int, arg: str, language: str | None) -> str:
    return defaultfilters.floatformat(value, arg)


_BASE = datetime(2001, 1, 1, tzinfo=UTC)  # any fixed moment: a span is measured from it


def duration(span: timedelta | None, depth: int = 2) -> str:
    """A span of time as people say it, in the active language with its plural forms: "3 days",
    "1 day, 2 hours", "40 minutes", "less than a minute" (its ``depth`` largest units; never
    "1 day, 0:01:12.658552"). Empty for None."""
    if span is None:
        return ""
    if span < timedelta(minutes=1):
        return gettext("less than a minute")
    # Django keeps number and unit together with a no-break space; mails and logs read the
    # plain one better.
    return timesince(_BASE, _BASE + span, depth=depth).replace("\xa0", " ")
