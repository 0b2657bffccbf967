"""``{{ slug|game_name }}``: a game's name for people, never its key (the slug)."""

from __future__ import annotations

from django import template

import engine

register = template.Library()


@register.filter
def game_name(slug: str) -> str:
    try:
        return engine.get(slug).name
    except KeyError:  # a game no longer installed
        return slug
