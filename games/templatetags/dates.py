"""``{{ value|date_kept:"j M Y" }}`` and ``{{ value|floatformat_kept:"-3" }}``: Django's
``date`` and ``floatformat``, each result remembered per time zone and language
(``portal.dates``), for values shown on every request (deadlines, resolution times); and
``{{ span|duration }}``: a timedelta in words ("1 day, 2 hours")."""

from __future__ import annotations

from django import template

from games import dates

register = template.Library()
register.filter("date_kept", dates.date, expects_localtime=False)
register.filter("floatformat_kept", dates.floatformat)
register.filter("duration", dates.duration)
