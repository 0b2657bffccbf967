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

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation
from django.utils.text import capfirst

from engine import Game, Problem, Text


def say(words: Any) -> str:
    """``words`` (a ``Text``, or a plain string kept as it is) in the active language."""
    if isinstance(words, Text):
        return words.render(_translator(translation.get_language()))
    return "" if words is None else str(words)


class _Remembered:
    """Django's translation functions for one language, each message looked up once: a
    board or an order help is a tree of hundreds of ``Text``, mostly the same few templates,
    and each lookup through Django walks the active language's catalogs and their fallbacks.
    Only used while that language is active (``say`` picks it by the active language)."""

    LIMIT = 20_000  # messages kept per language (templates, and plurals' counts: a few hundred)

    def __init__(self) -> None:
        self.found: dict[tuple[Any, ...], str] = {}

    def _kept(self, key: tuple[Any, ...], look_up: Any) -> str:
        found = self.found.get(key)
        if found is None:
            if len(self.found) >= self.LIMIT:
                self.found.clear()
            found = self.found[key] = look_up()
        return found

    def gettext(self, message: str) -> str:
        return self._kept(("gettext", message), lambda: translation.gettext(message))

    def ngettext(self, singular: str, plural: str, number: int) -> str:
        return self._kept(("ngettext", singular, plural, number),
                          lambda: translation.ngettext(singular, plural, number))

    def pgettext(self, context: str, message: str) -> str:
        return self._kept(("pgettext", context, message),
                          lambda: translation.pgettext(context, message))


_TRANSLATORS: dict[str | None, _Remembered] = {}


def _translator(language: str | None) -> _Remembered:
    found = _TRANSLATORS.get(language)
    if found is None:
        found = _TRANSLATORS[language] = _Remembered()
    return found


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    """Catalogs read anew (Django does so when these settings change, in tests): forget."""
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        _TRANSLATORS.clear()


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
    """A sentence a game stored in English in its state or events (a logbook line) in the
    active language: read back through the game's phrasebook, left as it is when it does not
    know it. (How a match ended is not read back from words: ``games.endings``.)"""
    if not isinstance(english, str) or not english:
        return say(english)
    return say(game.phrasebook.read(english) if game is not None else english)
