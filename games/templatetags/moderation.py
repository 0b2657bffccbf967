"""``{{ span|span }}``: a timedelta as people say it ("1 day, 2 hours"), or nothing for none."""

from datetime import timedelta

from django import template

from games.services.moderation import duration_text

register = template.Library()


@register.filter(name="span")
def span(value: timedelta | None) -> str:
    return duration_text(value) if value else ""
