"""The engine's words in the reader's language.

The engine has no locale: it writes English as ``engine.Text`` (a ``gettext_noop`` template with
``%(name)s`` placeholders and its values) — its problems (``Problem.text``), round reports,
board diagrams and order help — and stores plain English in its state and events (a result's
reason, a logbook line), which its ``Game.phrasebook`` reads back as ``Text``. Everything a
person reads goes through here, in the active language (the request's, or the mail reader's);
``str()`` of any of them stays English for logs, the command line and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import translation
from django.utils.text import capfirst

from engine import Game, Problem, Text
from engine.record import PHRASEBOOK as RECORD_PHRASEBOOK


def say(words: Any) -> str:
    """``words`` (a ``Text``, or a plain string kept as it is) in the active language."""
    if isinstance(words, Text):
        return words.render(translation)
    return "" if words is None else str(words)


def sentence(words: Any) -> str:
    """``say``, starting with a capital where the English does (a translation may begin with a
    placeholder the English has later: "La grande berme chevauche...")."""
    said = say(words)
    return str(capfirst(said)) if str(words)[:1].isupper() else said


def problem_message(problem: Problem) -> str:
    """What is wrong, in the active language (its path left out)."""
    return sentence(problem.text)


def problem_line(problem: Problem) -> str:
    """A problem as one line, "path: what is wrong" (the English is ``str(problem)``)."""
    message = problem_message(problem)
    return f"{problem.path}: {message}" if problem.path else message


def problem_dict(problem: Problem) -> dict[str, str]:
    """A problem as the API and the pages' JSON give it: its path, and its message in the
    requester's language."""
    return {"path": problem.path, "message": problem_message(problem)}


def problem_dicts(problems: Iterable[Problem]) -> list[dict[str, str]]:
    return [problem_dict(problem) for problem in problems]


def stored(game: Game | None, english: Any) -> str:
    """A sentence a game stored in English (a result's reason, a logbook line) in the active
    language: read back through the game's phrasebook (or the lifecycle's own, for a forfeit),
    left as it is when neither knows it."""
    if not isinstance(english, str) or not english:
        return say(english)
    found = game.phrasebook.read(english) if game is not None else english
    if not isinstance(found, Text):
        found = RECORD_PHRASEBOOK.read(english)
    return say(found)


def translated_result(game: Game | None, result: Any) -> Any:
    """A match's stored result (``Match.result``) with its reason in the active language."""
    if not isinstance(result, dict) or not isinstance(result.get("reason"), str):
        return result
    return {**result, "reason": stored(game, result["reason"])}
