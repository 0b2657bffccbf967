"""The match state: setup (random spawns), copying, and small read helpers.

State is plain JSON data. Tanks are keyed by seat as a string; a tank is "alive", "dead" (on the
board with durability) or "destroyed" (removed: ``at`` is None).

The state holds what the rules need now and nothing of the match's history: its size is bounded
by the seats and the map, not by the match's length. The logbook is the stream of events that
``apply`` and ``tick`` return (the portal stores them); the state only counts its entries
(``entries``, to number the next one). Finished ballots are kept until the next gameday opens
(at most ``FINISHED_BALLOTS_KEPT`` of them), for the Council panel; the logbook has the rest.
"""

from __future__ import annotations

import random
from typing import Any

from engine.base import Problem, RuleError, State, Text
from engine.base import gettext_noop as _
from engine.tank_game import words
from engine.tank_game.maps import MAPS

START_LIVES, START_AP, START_RANGE = 3, 1, 2
MAX_LIVES, MAX_AP = 3, 5
DEAD_DURABILITY = 3
STATE_VERSION = 2  # 2: the logbook lives outside the state (version 1 kept it in "log")
FINISHED_BALLOTS_KEPT = 6


def start(seats: Any, options: dict[str, Any], seed: int) -> State:
    """A new match: every tank on a spawn drawn at random from the map with ``seed``."""
    game_map = MAPS[options["map"]]
    spawns = game_map["spawns"]
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 100:
        raise RuleError([Problem("seats", _("Tank Game is played by 2 to 100 seats."))])
    if seats > len(spawns):
        raise RuleError(
            [
                Problem(
                    "seats",
                    _("The %(map)s map has %(count)s spawns; %(seats)s seats need a bigger map."),
                    {"map": options["map"], "count": len(spawns), "seats": seats},
                )
            ]
        )
    problems = [
        Problem(f"{key}.{seat}", _("There is no seat %(seat)s in a %(seats)s-seat match."),
                {"seat": seat, "seats": seats})
        for key in ("bounties", "names")
        for seat in options[key]
        if int(seat) > seats
    ]
    if problems:
        raise RuleError(problems)
    placed = random.Random(seed).sample(spawns, seats)
    tanks = {
        str(seat): {
            "seat": seat,
            "at": placed[seat - 1],
            "lives": START_LIVES,
            "ap": START_AP,
            "gold": 0,
            "range": START_RANGE,
            "bounty": options["bounties"].get(str(seat), 0),
            "status": "alive",
            "durability": 0,
            "cooldown_until": None,
        }
        for seat in range(1, seats + 1)
    }
    return {
        "version": STATE_VERSION,
        "options": options,
        "seats": seats,
        "size": game_map["size"],
        "walls": dict(game_map["walls"]),
        "mines": sorted(game_map["mines"]),
        "tanks": tanks,
        "coffer": 0,
        "armistice": 0,
        "armistice_limit": options["armistice_limit"],
        "gameday": None,
        "gamedays": 0,
        "allowances": {"bounty": 1, "grant_life": 1},
        "ballots": [],
        "next_ballot": 1,
        "deaths": [],
        "entries": 0,
        "over": None,
    }


def clone(state: State) -> State:
    """A copy safe to change: every mutable part is copied."""
    new = dict(state)
    new["walls"] = dict(state["walls"])
    new["mines"] = list(state["mines"])
    new["tanks"] = {k: dict(v) for k, v in state["tanks"].items()}
    new["allowances"] = dict(state["allowances"])
    new["ballots"] = [
        dict(b, votes={k: dict(v) for k, v in b["votes"].items()}) for b in state["ballots"]
    ]
    new["deaths"] = list(state["deaths"])
    return new


def name(state: State, seat: int | str) -> str:
    """The seat's tank as the logbook names it: its name in the options, else "Seat 4"."""
    named = state["options"]["names"].get(str(seat))
    return str(named) if named else Text(words.SEAT, {"number": seat})


def tank(state: State, seat: int | str) -> dict[str, Any]:
    result: dict[str, Any] = state["tanks"][str(seat)]
    return result


def occupants(state: State) -> dict[str, int]:
    """Square name -> seat of the tank (living or dead) standing there."""
    return {t["at"]: t["seat"] for t in state["tanks"].values() if t["at"] is not None}


def living(state: State) -> list[int]:
    return [t["seat"] for t in state["tanks"].values() if t["status"] == "alive"]


def council(state: State) -> dict[int, int]:
    """Council members -> vote weight: councillors (dead) 1, senators (destroyed) 2."""
    weights = {"dead": 1, "destroyed": 2}
    return {
        t["seat"]: weights[t["status"]] for t in state["tanks"].values() if t["status"] in weights
    }


def add_log(state: State, entry: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Report one logbook entry (numbered in order) as an event; the state keeps only the count."""
    state["entries"] += 1
    events.append({"seq": state["entries"], **entry})
