"""The pieces: unit names, kinds and how players read them."""

from __future__ import annotations

from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act.board import SEAT_NAMES

TANKS = ("C", "1", "1A", "1B", "2", "2A", "2B")
OFFICERS = ("C", "1", "2")
EXTRA_FORCES = ("AT1", "AT2", "R")
ALL_UNITS = TANKS + EXTRA_FORCES

TOKENS = (
    "air_strike",
    "full_throttle",
    "quick_shot",
    "mine_clearing",
    "smoke",
    "quick_sand",
    "red_cross",
)
ADVANCED_RULES = ("wrecks", "officer_loss", "double_shot", "repair")

Unit = dict[str, Any]  # {"seat", "name", "kind", "at", "facing", "hits", "state"}

ON_BOARD = "active"  # unit["state"] values: active, out, wreck, broke_through


def kind_of(name: str) -> str:
    """ "tank", "at" or "r"."""
    if name == "R":
        return "r"
    return "at" if name.startswith("AT") else "tank"


def unit_names(extra_forces: bool) -> tuple[str, ...]:
    return ALL_UNITS if extra_forces else TANKS


def order_key(unit: Unit) -> tuple[int, int]:
    return unit["seat"], ALL_UNITS.index(unit["name"])


def label(name: str) -> Text:
    """How a sentence names one of the player's own units: "Tank 1A", "AT unit AT1", "The R
    unit"."""
    kind = kind_of(name)
    if kind == "tank":
        return Text(_("Tank %(name)s"), {"name": name})
    return Text(_("The R unit")) if kind == "r" else Text(_("AT unit %(name)s"), {"name": name})


def full_label(seat: int, name: str) -> str:
    """How a report names a unit: "Alpha 1A", "Delta AT2"."""
    return f"{SEAT_NAMES[seat]} {name}"


def is_operational(unit: Unit) -> bool:
    return bool(unit["state"] == ON_BOARD)
