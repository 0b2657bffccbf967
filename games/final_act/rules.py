"""The Final Act rules page: the game explained in the project's words, with board diagrams.

Every diagram is a small position built with the engine (the ``scenario`` option) and drawn by
``render_board``; what is marked on it (legal moves, a fire cone) comes from the engine's own
``legal_actions``, so a diagram cannot drift from the rules the matches are played by. The
diagrams never change, so they are built once per process and language, on the first request
in that language (their captions and round reports are in the reader's language).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext as _

import engine
from engine.final_act import board
from engine.final_act.board_text import ORDERS_HELP, SETUP_HELP
from engine.final_act.options import default_options
from games import plugins
from games.final_act.board import render_board
from games.words import say

SLUG = "final-act"
State = dict[str, Any]


@dataclass(frozen=True)
class Diagram:
    """One figure of the page: the position drawn, its marks and its caption."""

    key: str  # the figure's anchor and the svg id's stem
    caption: str
    state: State  # the position drawn (after the round, for a resolved round)
    svg: SafeString
    marks: dict[str, list[str]] = field(default_factory=dict)
    story: tuple[Any, ...] = ()  # the round report, for a resolved round (engine Texts)


def _unit(seat: int, name: str, at: str, facing: str | None = None, hits: int = 0) -> dict:
    return {"seat": seat, "name": name, "at": at, "facing": facing or board.forward(seat),
            "hits": hits}


def _start(units: list[dict], terrain: list[dict] | None = None, **options: Any) -> State:
    game = engine.get(SLUG)
    scenario = {"round": 1, "units": units, "terrain": terrain or []}
    return game.start(2, game.validate_options({**options, "scenario": scenario}), 1)


def _resolve(state: State, alpha: dict, delta: dict) -> tuple[State, list[dict]]:
    game = engine.get(SLUG)
    sheets = {1: game.validate(state, 1, alpha), 2: game.validate(state, 2, delta)}
    outcome = game.resolve(state, sheets, random.Random(0))
    return outcome.state, outcome.events


def _legal_unit(state: State, seat: int, name: str) -> dict[str, Any]:
    units: dict[str, Any] = engine.get(SLUG).legal_actions(state, seat)["units"]
    return dict(units[name])


def _destinations(state: State, seat: int, name: str) -> list[str]:
    moves = _legal_unit(state, seat, name)["moves"]
    return sorted({m["to"] for m in moves if m["move"] != "stay"})


def _draw(key: str, caption: str, state: State, marks: dict[str, list[str]] | None = None,
          events: list[dict] | None = None) -> Diagram:
    view = engine.get(SLUG).view(state, None)
    svg = render_board(view, seat=None, last_round=events is not None,
                       board_id=f"fa-rules-{key}", caption=caption, marks=marks)
    # told as the match pages tell a round, for a spectator
    story = (tuple(plugins.plugin_for(SLUG).round_report(events, None)) if events is not None
             else ())
    return Diagram(key, caption, state, svg, dict(marks or {}), story)


def _layout() -> Diagram:
    game = engine.get(SLUG)
    state = game.start(2, game.validate_options({}), 1)
    area = engine.get(SLUG).legal_actions(state, 1)["unit_squares"]
    subs = {seat: game.default_submission(state, seat) for seat in board.SEATS}
    after = game.resolve(state, subs, random.Random(0)).state
    return _draw(
        "layout",
        _("The default layout, which a side gets if it misses the setup deadline. Each side's "
         "terrain lies in its own half; the marked squares are Alpha's rows 1 to 3, where its "
         "tanks and berms may go."),
        after,
        {"is-area": area},
    )


def _tank_moves() -> Diagram:
    swamp = {"kind": "swamp", "owner": 1, "squares": ["g5", "h5", "g6", "h6"]}
    state = _start([_unit(1, "C", "f4", "N")], [swamp])
    return _draw(
        "moves",
        _("Tank C faces north. It may step forward, diagonally forward, straight back or "
         "diagonally back (the marked squares), never sideways. Forward-right would enter the "
         "swamp on g5, so that move is not offered."),
        state,
        {"is-legal": _destinations(state, 1, "C")},
    )


def _minefield() -> Diagram:
    mines = {"kind": "minefield", "owner": 2, "squares": ["c8", "d8", "e8"], "passage": "d8",
             "arrow": "S"}
    state = _start([_unit(2, "1", "d9", "S"), _unit(1, "C", "l1")], [mines])
    return _draw(
        "minefield",
        _("Delta's minefield c8-e8 has its passage on d8, arrow pointing south. Delta 1 on d9 "
         "may drive onto d8 because that step goes south; the other minefield squares, c8 and "
         "e8, are closed to it (its moves are marked)."),
        state,
        {"is-legal": _destinations(state, 2, "1")},
    )


def _collision() -> Diagram:
    state = _start([
        _unit(1, "2A", "i5", "N"),
        _unit(1, "1", "i4", "N"),
        _unit(1, "C", "c4", "N"),
        _unit(2, "2A", "k7", "S"),
        _unit(2, "C", "c9", "S"),
    ])
    after, events = _resolve(
        state,
        {"units": {"2A": {"move": "FR"}, "1": {"move": "F"}, "C": {"move": "F"}}},
        {"units": {"2A": {"move": "FR"}, "C": {"move": "F"}}},
    )
    return _draw(
        "collision",
        _("Both 2A tanks were ordered onto j6, so neither moved. Alpha 1 wanted i5, which Alpha "
         "2A kept, so it stayed too. The two C tanks had free squares and moved."),
        after,
        events=events,
    )


def _cone() -> Diagram:
    berm = {"kind": "berm", "owner": 2, "squares": ["g7"]}
    state = _start([_unit(1, "C", "e4", "N"), _unit(2, "2A", "e6", "S"), _unit(2, "C", "l12")],
                   [berm])
    legal = _legal_unit(state, 1, "C")
    return _draw(
        "cone",
        _("The fire cone of Alpha C, facing north from e4. Hatched squares can be shelled; crossed "
         "squares are in the cone but out of sight, behind Delta 2A on e6 and the berm on g7. "
         "2A's own square and the berm square can still be shelled."),
        state,
        {"is-cone": legal["fire"], "is-blocked": legal["blocked"]},
    )


def _berm() -> Diagram:
    berm = {"kind": "berm", "owner": 1, "squares": ["f3", "g3"]}
    state = _start([_unit(1, "1", "f3", "N"), _unit(1, "2", "f5", "N"), _unit(2, "C", "l12")],
                   [berm])
    legal = _legal_unit(state, 1, "1")
    return _draw(
        "berm",
        _("Alpha 1 stands on a berm at f3: its cone reaches one square further straight ahead "
         "(f10), and it fires over the tank on f5, so every square of its cone can be shelled."),
        state,
        {"is-cone": legal["fire"], "is-blocked": legal["blocked"]},
    )


def _hits() -> Diagram:
    state = _start([
        _unit(1, "C", "f4", "N"),
        _unit(1, "1", "c4", "N"),
        _unit(2, "2A", "f9", "S"),
        _unit(2, "1B", "c8", "S", hits=1),
        _unit(2, "C", "l12"),
    ])
    after, events = _resolve(
        state,
        {"units": {"C": {"fire": ["f8"]}, "1": {"fire": ["c8"]}}},
        {"units": {"2A": {"move": "F"}}},
    )
    return _draw(
        "hits",
        _("Shells land after everyone has moved. Delta 2A drove onto f8, the square Alpha C "
         "shelled, and is damaged; Delta 1B on c8 was already damaged, so Alpha 1's shell put "
         "it out."),
        after,
        events=events,
    )


def _at_cone() -> Diagram:
    state = _start([_unit(1, "AT1", "e4", "N"), _unit(1, "C", "h2", "N"),
                    _unit(2, "C", "l12")], extra_forces=True)
    legal = _legal_unit(state, 1, "AT1")
    return _draw(
        "at-cone",
        _("An AT unit's cone is smaller: up to four squares ahead and at most two to each side. "
         "Here AT1 on e4 faces north; the hatched squares are its cone."),
        state,
        {"is-cone": legal["fire"], "is-blocked": legal["blocked"]},
    )


def rule_diagrams() -> dict[str, Diagram]:
    """Every diagram of the page by key, in the active language, built once."""
    return _diagrams(translation.get_language() or settings.LANGUAGE_CODE)


@cache
def _diagrams(language: str) -> dict[str, Diagram]:
    with translation.override(language):
        built = [_layout(), _tank_moves(), _collision(), _minefield(), _cone(), _berm(), _hits(),
                 _at_cone()]
    return {d.key.replace("-", "_"): d for d in built}


def rules_context() -> dict[str, Any]:
    """The rules page's context: the diagrams, the round limit and both phases' order help."""
    return {
        "diagrams": {key: replace(d, story=tuple(say(line) for line in d.story))
                     for key, d in rule_diagrams().items()},
        "round_limit": default_options()["round_limit"],
        # the engine's grammar texts, in the reader's language
        "setup_help": gettext(SETUP_HELP),
        "orders_help": gettext(ORDERS_HELP),
    }
