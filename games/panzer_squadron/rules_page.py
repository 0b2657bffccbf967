"""The rules page's context: the cards' table and the map names from the engine's data, and
its diagrams, drawn by the board code from real engine positions, in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import engine
from engine.panzer_squadron import hexes
from engine.panzer_squadron.board import Board
from engine.panzer_squadron.data import CARDS, MAPS
from engine.panzer_squadron.options import DEFAULT_TURN_LIMIT
from games.panzer_squadron.board import board_svg
from games.plugins import bot_name

SMALL = (7, 9)


def _position(tanks: list[dict[str, Any]], **terrain: list[str]) -> dict[str, Any]:
    game = engine.get("panzer-squadron")
    scenario = {"size": list(SMALL), "turn": 1, "initiative": 1,
                "terrain": {"woods": terrain.get("woods", []),
                            "building": terrain.get("building", []),
                            "water": terrain.get("water", [])},
                "tanks": tanks}
    return game.start(2, {"scenario": scenario}, 0)


def _facing_diagram() -> Any:
    state = _position([{"seat": 1, "name": "M1", "card": "medium", "at": "d4", "facing": 2}])
    at = hexes.parse("d4", SMALL)
    assert at is not None
    front = {hexes.name(h): "" for h in hexes.front(at, 2)}
    behind = {hexes.name(h): True for h in hexes.behind(at, 2)}
    view = engine.get("panzer-squadron").view(state, None)
    return board_svg(view, None, reach=front, targets=behind, small=True,
                     label=_("A tank on d4 facing 2 o'clock: the hexes in front, and behind"))


def _sight_diagram() -> tuple[Any, int, bool]:
    tanks = [{"seat": 1, "name": "M1", "card": "medium", "at": "b2", "facing": 12},
             {"seat": 2, "name": "L1", "card": "light", "at": "d8", "facing": 6}]
    state = _position(tanks, woods=["c4"])
    board = Board(state)
    a, b = hexes.parse("b2", SMALL), hexes.parse("d8", SMALL)
    assert a is not None and b is not None
    sight = board.sight(a, 12, b)
    lines = [("b2", 12, "d8", f, blocked)
             for f, blocked in zip(hexes.FACINGS, sight.blocked, strict=True)]
    view = engine.get("panzer-squadron").view(state, None)
    svg = board_svg(view, None, lines=lines, small=True,
                    label=_("Six lines of fire from M1's gun to the corners of L1's hex"))
    return svg, sight.blocked.count(False), sight.cover


def _arc_diagram() -> Any:
    state = _position([{"seat": 2, "name": "H1", "card": "heavy", "at": "d5", "facing": 12}])
    at = hexes.parse("d5", SMALL)
    assert at is not None
    front, rear = {}, {}
    for col in range(SMALL[0]):
        for row in range(1, SMALL[1] + 1):
            h = (col, row)
            if h == at:
                continue
            arc = hexes.arc(at, 12, h)
            if arc == "front":
                front[hexes.name(h)] = ""
            elif arc == "rear":
                rear[hexes.name(h)] = False
    view = engine.get("panzer-squadron").view(state, None)
    return board_svg(view, None, reach=front, targets=rear, small=True,
                     label=_("H1 on d5 facing 12: shots from the shaded hexes strike its front, "
                             "from the outlined ones its rear, from the rest its side"))


def card_label(card: str) -> str:
    """A game card's name as people read it ("Light"), in the reader's language."""
    labels = {"light": pgettext("Panzer Squadron card", "Light"),
              "medium": pgettext("Panzer Squadron card", "Medium"),
              "heavy": pgettext("Panzer Squadron card", "Heavy")}
    return labels.get(card, card)


def rules_context() -> dict[str, Any]:
    game = engine.get("panzer-squadron")
    sight, lines_clear, cover = _sight_diagram()
    # a map's title is a name (as the create form shows it); its key is what options take
    maps = format_html_join(", ", "{} (<code>{}</code>)",
                            ((v.get("title", k), k) for k, v in sorted(MAPS.items())))
    return {
        "game": game,
        "game_name": game.name,
        "cards": [{"name": k, "label": card_label(k), **v} for k, v in CARDS.items()],
        "maps_list": maps,
        "turn_limit": DEFAULT_TURN_LIMIT,
        "facing_svg": _facing_diagram(),
        "sight_svg": sight,
        "sight_clear": lines_clear,
        "sight_cover": cover,
        "arc_svg": _arc_diagram(),
        "bots": game.bots,
        "bots_list": ", ".join(bot_name(game.slug, bot) for bot in game.bots),
    }
