"""What the setup and order panels share about a draft: the engine's judgement of it, and the
same draft written in the e-mail grammar."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Game, Problem, RuleError


def check_draft(game: Game, state: Any, seat: int, draft: Any
                ) -> tuple[dict[str, Any] | None, list[Problem], list[Problem]]:
    """(normal form or None, problems, warnings) of a draft; never raises for bad input."""
    try:
        normal = game.validate(state, seat, draft)
    except RuleError as error:
        return None, list(error.problems), []
    return normal, [], list(game.warnings(state, seat, normal))


def draft_text(game: Game, state: Any, seat: int, normal: Mapping[str, Any] | None) -> str:
    """A valid draft as the player would write it in an e-mail reply ("" if not valid)."""
    if normal is None:
        return ""
    try:
        return game.format_text(state, seat, normal)
    except Exception:  # the text form is a courtesy; the draft itself is fine
        return ""
