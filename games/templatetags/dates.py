"""``{{ value|date_kept:"j M Y" }}`` and ``{{ value|floatformat_kept:"-3" }}``: Django's
``date`` and ``floatformat``, each result remembered per time zone and language
(``portal.dates``), for values shown on every request (deadlines, resolution times); and
``{{ span|duration }}``: a timedelta in words ("1 day, 2 hours"); ``{{ moment|time_left }}``: the
time from now until ``moment`` in words, "" once it has passed (a deadline's "(in 3 hours)")."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone

from games import dates

register = template.Library()
register.filter("date_kept", dates.date, expects_localtime=False)
register.filter("floatformat_kept", dates.floatformat)
register.filter("duration", dates.duration)


@register.filter
def time_left(moment: datetime | None) -> str:
    if moment is None:
        return ""
    left = moment - timezone.now()
    return dates.duration(left) if left.total_seconds() > 0 else ""
