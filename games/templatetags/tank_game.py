"""The tank game's match page renders its play area server-side (no extra request needed)."""

from __future__ import annotations

from typing import Any

from django import template

from games.views.tank_game import play_context

register = template.Library()


@register.inclusion_tag("games/tank-game/partials/play.html", takes_context=True)
def tank_play(context: template.Context) -> dict[str, Any]:
    result = play_context(context["request"], context["match"])
    result["csrf_token"] = context.get("csrf_token")
    return result
