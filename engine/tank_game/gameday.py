"""The start of a gameday (the tick) in the ruled order, and the end of the match."""

from __future__ import annotations

from typing import Any

from engine.base import State, Text
from engine.tank_game import council, mines, words
from engine.tank_game.state import MAX_AP, add_log, living, name, tank
from engine.tank_game.state import council as state_council

INCOME = {1: 1, 2: 3}  # council income by vote weight: councillor 1 gold, senator 3


def _title(state: State, key: str) -> Text:
    """"Gameday 3", with its date on a weekly schedule ("Gameday 3 (2026-11-23)"); an
    accelerated schedule's key counts slots since 1970, a number nobody should read."""
    if state["options"]["schedule"]["kind"] == "every":
        return Text(words.GAMEDAY, {"number": state["gamedays"]})
    return Text(words.GAMEDAY_ON, {"number": state["gamedays"], "date": key})


def open_gameday(state: State, key: str, at: str, events: list[dict[str, Any]]) -> None:
    """Tick: open gameday ``key``. The first gameday only opens (tanks start with 1 AP)."""
    first = state["gameday"] is None
    state["gameday"] = key
    state["gamedays"] += 1
    if first:
        add_log(
            state,
            {
                "at": at,
                "kind": "tick",
                "seat": None,
                "action": {"gameday": key},
                "dice": [],
                "text": str(Text(words.OPENED, {"gameday": _title(state, key)})),
            },
            events,
        )
        return
    council.close_all(state, at, events)
    for seat in living(state):
        t = tank(state, seat)
        t["ap"] = min(MAX_AP, t["ap"] + 1)
    by_square = {t["at"]: t for t in state["tanks"].values() if t["status"] == "alive"}
    paid: list[str] = []
    to_coffer = 0
    for region in mines.regions(state):
        gold = len(region)
        miners = [by_square[sq] for sq in region if sq in by_square]
        if miners:
            share, remainder = divmod(gold, len(miners))
            for miner in miners:
                miner["gold"] += share
            if share:
                paid.append(", ".join(f"{name(state, m['seat'])} +{share}" for m in miners))
            to_coffer += remainder
        else:
            to_coffer += gold
    members = state_council(state)
    income = sum(INCOME[w] for w in members.values())
    state["coffer"] += to_coffer + income
    state["armistice"] += len(members)
    state["allowances"] = {"bounty": 1, "grant_life": 1}
    parts = [Text(words.AP_FOR_ALL)]
    if paid:
        parts.append(Text(words.MINES_PAID, {"miners": "; ".join(paid)}))
    parts.append(Text(words.COFFER, {"gold": to_coffer + income}))
    parts.append(Text(words.ARMISTICE_COUNT, {"count": state["armistice"],
                                               "limit": state["armistice_limit"]}))
    add_log(
        state,
        {
            "at": at,
            "kind": "tick",
            "seat": None,
            "action": {"gameday": key},
            "dice": [],
            "text": str(Text(words.OPENED_WITH, {"gameday": _title(state, key),
                                                  "news": tuple(parts)})),
        },
        events,
    )
    if state["armistice"] >= state["armistice_limit"] and state["over"] is None:
        winners = sorted(members)
        state["over"] = {"reason": "armistice", "winners": winners, "at": at}
        add_log(
            state,
            {
                "at": at,
                "kind": "end",
                "seat": None,
                "action": None,
                "dice": [],
                "text": str(Text(words.ARMISTICE, {
                    "names": ", ".join(name(state, s) for s in winners)})),
            },
            events,
        )


def check_last_man(state: State, at: str, events: list[dict[str, Any]]) -> None:
    """End the match when one living tank is left (Last Man Standing)."""
    alive = living(state)
    if state["over"] is None and len(alive) <= 1:
        state["over"] = {"reason": "last-man-standing", "winners": alive, "at": at}
        text = str(Text(words.LAST_MAN, {"name": name(state, alive[0])}) if alive
                   else Text(words.NO_TANK_LEFT))
        add_log(
            state,
            {
                "at": at,
                "kind": "end",
                "seat": alive[0] if alive else None,
                "action": None,
                "dice": [],
                "text": text,
            },
            events,
        )
