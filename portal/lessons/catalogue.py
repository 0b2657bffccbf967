"""Lessons as data: each game's plug-in declares its own (``GamePlugin.lessons``), this module
reads them into ``Lesson`` values and finds them by game and name. Nothing here names a game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from games import plugins


@dataclass(frozen=True)
class Lesson:
    """One lesson or puzzle (see docs/lessons.md for every field)."""

    game: str
    slug: str
    title: Any  # a lazy translated text
    intro: Any
    options: Mapping[str, Any]  # the engine's options: where the ``scenario`` lives
    seat: int  # the seat the learner plays
    goal: Mapping[str, Any]  # {"orders": [...]} or {"outcome": [...]}
    hints: tuple[Any, ...]
    solution: str  # orders in the game's text grammar that solve it (tests use them)
    wrong: str  # valid orders that miss the goal (tests check they get the first hint)
    success: Any = ""
    seats: int = 2
    # Simultaneous phases: what each other seat submits, in the text grammar ("" = the
    # engine's default sheet), or {"bot": name} for the game's bot. Sequential and continuous
    # ones: actions applied after the learner's, in order: [{"seat": n, "text": "..."}].
    opponents: Mapping[int, Any] = field(default_factory=dict)
    then: tuple[Mapping[str, Any], ...] = ()
    seed: int = 1


def _lesson(game: str, data: Mapping[str, Any]) -> Lesson:
    return Lesson(
        game=game, slug=data["slug"], title=data["title"], intro=data["intro"],
        options=data.get("options", {}), seat=data.get("seat", 1), goal=data["goal"],
        hints=tuple(data["hints"]), solution=data["solution"], wrong=data["wrong"],
        success=data.get("success", ""), seats=data.get("seats", 2),
        opponents={int(k): v for k, v in data.get("opponents", {}).items()},
        then=tuple(data.get("then", ())), seed=data.get("seed", 1),
    )


def game_lessons(game: str) -> list[Lesson]:
    """The lessons of game ``game``, in the order its plug-in lists them."""
    return [_lesson(game, data) for data in plugins.plugin_for(game).lessons()]


def all_lessons() -> dict[str, list[Lesson]]:
    """Every installed game's lessons by game slug (games without lessons left out)."""
    out = {}
    for slug in plugins.installed():
        found = game_lessons(slug)
        if found:
            out[slug] = found
    return out


def lesson_get(game: str, slug: str) -> Lesson:
    """Lesson ``slug`` of game ``game``; a 404 when either is unknown."""
    if game not in plugins.installed():
        raise Http404(_("There is no such game."))
    for lesson in game_lessons(game):
        if lesson.slug == slug:
            return lesson
    raise Http404(_("There is no such lesson."))
