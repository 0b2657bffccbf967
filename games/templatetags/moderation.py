"""``{{ span|span }}``: a timedelta as people say it ("1 day, 2 hours"), or nothing for none."""

from datetime import timedelta

from django import template

from games.services.moderation import duration_text

register = template.Library()


@register.filter(name="span")
def span(value: timedelta | None) -> str:
    return duration_text(value) if value else ""


@register.filter(name="phase_label")
def phase_label(name: str, game: str) -> str:
    """``{{ phase.name|phase_label:match.game }}``: the phase's name as game ``game`` words it."""
    from games import plugins

    return plugins.plugin_for(game).phase_label(name) if name else ""
