"""A game's own words in templates, in the reader's language:
``{{ phase.name|phase_label:match.game }}`` ("tour") and ``{{ seat.bot|bot_name:match.game }}``
("robot glouton")."""

from django import template

from games import plugins

register = template.Library()


@register.filter(name="phase_label")
def phase_label(name: str, game: str) -> str:
    return plugins.plugin_for(game).phase_label(name) if name else ""


@register.filter(name="bot_name")
def bot_name(bot: str, game: str) -> str:
    return plugins.bot_name(game, bot) if bot else ""
