"""Pure game rules. ``engine.get(slug)`` returns a registered game.

Nothing in this package imports Django, touches I/O or the clock, or uses the global random.
"""

from __future__ import annotations

import importlib

from engine.base import (
    Game,
    OptionsError,
    Outcome,
    PhaseKind,
    Problem,
    Prompt,
    Result,
    RuleError,
    TextError,
    rng_for,
)

__all__ = [
    "Game",
    "OptionsError",
    "Outcome",
    "PhaseKind",
    "Problem",
    "Prompt",
    "Result",
    "RuleError",
    "TextError",
    "games",
    "get",
    "register",
    "rng_for",
]

# Packages that register a built-in game when imported.
BUILTIN_GAMES = ("engine.final_act", "engine.tank_game")

_registry: dict[str, Game] = {}
_loaded = False


def register(game: Game) -> Game:
    """Add a game to the registry (called at the bottom of each game package)."""
    _registry[game.slug] = game
    return game


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN_GAMES:
            importlib.import_module(module)


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
