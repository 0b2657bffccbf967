"""Pure game rules. ``engine.get(slug)`` returns a registered game.

Nothing in this package imports Django, touches I/O or the clock, or uses the global random.
"""

from __future__ import annotations

import importlib
import pkgutil

from engine.base import (
    Game,
    Option,
    OptionKind,
    OptionsError,
    Outcome,
    PhaseKind,
    Phrasebook,
    Problem,
    Prompt,
    Result,
    RuleError,
    Text,
    TextError,
    Translator,
    gettext_noop,
    ngettext,
    option_applies,
    option_value,
    options_with,
    pgettext,
    rng_for,
)

__all__ = [
    "Game",
    "Option",
    "OptionKind",
    "OptionsError",
    "Outcome",
    "PhaseKind",
    "Phrasebook",
    "Problem",
    "Prompt",
    "Result",
    "RuleError",
    "Text",
    "TextError",
    "Translator",
    "games",
    "get",
    "gettext_noop",
    "ngettext",
    "pgettext",
    "options_with",
    "option_applies",
    "option_value",
    "register",
    "rng_for",
]

_registry: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game to the registry (called at the bottom of each game package)."""
    _registry[game.slug] = game
    return game


def _load_builtins() -> None:
    """Import every game package of the engine (each registers its game at its bottom)."""
    global _loaded
    if not _loaded:
        _loaded = True
        for found in pkgutil.iter_modules(__path__):
            if found.ispkg:
                importlib.import_module(f"{__name__}.{found.name}")


def get(slug: str) -> Game:
    """The game registered under ``slug``; KeyError names the known ones otherwise."""
    _load_builtins()
    try:
        return _registry[slug]
    except KeyError:
        raise KeyError(f"unknown game {slug!r}; known: {', '.join(sorted(_registry))}") from None


def games() -> dict[str, Game]:
    """Every registered game by slug."""
    _load_builtins()
    return dict(_registry)
