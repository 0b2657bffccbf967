"""End of a round: Red Cross, repairs, wrecks, breakthroughs, token expiry and the victory check."""

from __future__ import annotations

from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.units import OFFICERS, Unit, full_label

Key = tuple[int, str]
State = dict[str, Any]

# How a match ends (the result's "reason", read back for translation: see ``Phrasebook``).
BROKE_THROUGH = _("%(side)s broke through (%(most)s to %(fewest)s).")
BOTH_LOST = _("Both sides lost their last tanks in the same round: draw.")
NO_TANKS = _("%(side)s has no tanks left.")
ROUND_LIMIT = _("The round limit (%(round)s) was reached: draw.")
CONCEDED = _("%(side)s conceded.")
RESULTS = (BROKE_THROUGH, BOTH_LOST, NO_TANKS, ROUND_LIMIT, CONCEDED)

# What happened at the end of the round (an event's "text", read back by the report: see
# ``Phrasebook``).
REPAIRED = _("%(unit)s was repaired behind its berm at %(square)s.")
NOT_REPAIRED = _("%(unit)s was hit during its repair: no repair.")
OFFICER_LOST = _("%(side)s lost officer %(unit)s: one shell fewer next round while it has at "
                 "least 3 tanks.")
WRECK = _("%(unit)s remains at %(square)s as a wreck.")
BREAKTHROUGH = _("%(unit)s broke through at %(square)s!")
RED_CROSS_OCCUPIED = _("%(side)s's Red Cross could not be placed: %(square)s is occupied.")
RED_CROSS_PLACED = _("%(side)s placed the Red Cross on %(square)s.")
RED_CROSS_FAILED = _("%(side)s's Red Cross could not be activated: %(reason)s.")
RED_CROSS_DAMAGED = _("%(side)s's Red Cross at %(square)s repaired %(unit)s (now damaged).")
RED_CROSS_UNDAMAGED = _("%(side)s's Red Cross at %(square)s repaired %(unit)s (now undamaged).")
R_REPAIRED = _("%(unit)s repaired %(tank)s at %(square)s.")
R_STARTS = _("%(unit)s starts repairing %(tank)s at %(square)s: both stay next round and "
             "%(tank)s does not fire.")
# The most specific first: a sentence is read back by the first template it fits.
TEXTS = (REPAIRED, NOT_REPAIRED, OFFICER_LOST, WRECK, BREAKTHROUGH, RED_CROSS_OCCUPIED,
         RED_CROSS_PLACED, RED_CROSS_FAILED, RED_CROSS_DAMAGED, RED_CROSS_UNDAMAGED, R_STARTS,
         R_REPAIRED)
# Why a Red Cross could not be activated (the ``reason`` of RED_CROSS_FAILED).
ENEMY_ON_CROSS = _("an enemy unit stands on %(square)s")
NOT_NEXT_TO_CROSS = _("%(unit)s is not on or next to %(square)s")
NOT_DAMAGED = _("%(unit)s is not damaged")
RED_CROSS_REASONS = (ENEMY_ON_CROSS, NOT_NEXT_TO_CROSS, NOT_DAMAGED)


def _event(kind: str, seat: int, text: Text, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **fields, "text": str(text)}


def end_round(
    state: State, sheets: dict[int, dict[str, Any]], hit: set[Key], events: list[dict[str, Any]]
) -> None:
    """Everything that happens after fire, in the ruled order (mutates ``state``)."""
    rnd = state["round"]
    units = {(u["seat"], u["name"]): u for u in state["units"]}
    for seat in board.SEATS:
        use = sheets[seat]["tokens"].get("red_cross")
        if use is not None:
            _red_cross(state, seat, use, units, events)
    for seat in board.SEATS:
        name = sheets[seat]["declare"].get("repair")
        if name is None:
            continue
        tank = units[(seat, name)]
        if tank["state"] == "active" and (seat, name) not in hit:
            tank["hits"] = 0
            events.append(
                _event(
                    "repair",
                    seat,
                    Text(REPAIRED, {"unit": full_label(seat, name), "square": tank["at"]}),
                    unit=name,
                    at=tank["at"],
                )
            )
        else:
            events.append(
                _event(
                    "repair",
                    seat,
                    Text(NOT_REPAIRED, {"unit": full_label(seat, name)}),
                    unit=name,
                    at=tank["at"],
                    failed=True,
                )
            )
    _r_repairs(state, units, events)
    for unit in state["units"]:
        if unit.get("out_round") == rnd:
            del unit["out_round"]
            if unit["kind"] == "tank" and unit["name"] in OFFICERS:
                state["officer_lost"][str(unit["seat"])] = rnd
                if "officer_loss" in state["options"]["advanced"]:
                    events.append(
                        _event(
                            "officer_loss",
                            unit["seat"],
                            Text(OFFICER_LOST, {"side": board.SEAT_NAMES[unit["seat"]],
                                                "unit": unit["name"]}),
                            unit=unit["name"],
                        )
                    )
            if unit["kind"] == "tank" and "wrecks" in state["options"]["advanced"] and unit["at"]:
                unit["state"] = "wreck"
                events.append(
                    _event(
                        "wreck",
                        unit["seat"],
                        Text(WRECK, {"unit": full_label(unit["seat"], unit["name"]),
                                     "square": unit["at"]}),
                        unit=unit["name"],
                        at=unit["at"],
                    )
                )
            else:
                unit["at"] = None
    for unit in state["units"]:
        sq = board.parse(unit["at"])
        if (
            unit["kind"] == "tank"
            and unit["state"] == "active"
            and sq is not None
            and board.enemy_last_line(unit["seat"], sq)
        ):
            events.append(
                _event(
                    "breakthrough",
                    unit["seat"],
                    Text(BREAKTHROUGH, {"unit": full_label(unit["seat"], unit["name"]),
                                        "square": unit["at"]}),
                    unit=unit["name"],
                    at=unit["at"],
                )
            )
            unit["state"] = "broke_through"
            unit["at"] = None
            state["breakthroughs"][str(unit["seat"])] += 1
    state["board_tokens"] = [
        t
        for t in state["board_tokens"]
        if not (t["token"] == "smoke" and t["round"] <= rnd)
        and not (t["token"] in ("quick_sand", "mine_clearing") and t["round"] < rnd)
    ]
    _victory(state, events)


def _red_cross(
    state: State,
    seat: int,
    use: dict[str, Any],
    units: dict[Key, Unit],
    events: list[dict[str, Any]],
) -> None:
    rnd = state["round"]
    who = board.SEAT_NAMES[seat]
    if "at" in use:
        if any(u["at"] == use["at"] for u in state["units"]):
            events.append(
                _event(
                    "token",
                    seat,
                    Text(RED_CROSS_OCCUPIED, {"side": who, "square": use["at"]}),
                    token="red_cross",
                    at=use["at"],
                    failed=True,
                )
            )
            return
        state["tokens"][str(seat)].remove("red_cross")
        state["board_tokens"].append(
            {"token": "red_cross", "seat": seat, "at": use["at"], "round": rnd}
        )
        events.append(
            _event(
                "token",
                seat,
                Text(RED_CROSS_PLACED, {"side": who, "square": use["at"]}),
                token="red_cross",
                at=use["at"],
            )
        )
        return
    token = next(
        t for t in state["board_tokens"] if t["token"] == "red_cross" and t["seat"] == seat
    )
    tank = units[(seat, use["activate"])]
    at = board.parse(token["at"])
    assert at is not None
    where = board.parse(tank["at"])
    reason: Text | None = None
    if any(
        u["at"] == token["at"] and u["seat"] != seat and u["state"] == "active"
        for u in state["units"]
    ):
        reason = Text(ENEMY_ON_CROSS, {"square": token["at"]})
    elif where is None or (where != at and where not in board.neighbours(at)):
        reason = Text(NOT_NEXT_TO_CROSS, {"unit": use["activate"], "square": token["at"]})
    elif tank["state"] == "active" and tank["hits"] == 1:
        tank["hits"] = 0
    elif tank["state"] == "out" and tank.get("out_round") == rnd:
        tank["state"] = "active"
        tank["hits"] = 1
        del tank["out_round"]
    else:
        reason = Text(NOT_DAMAGED, {"unit": use["activate"]})
    if reason is not None:
        events.append(
            _event(
                "token",
                seat,
                Text(RED_CROSS_FAILED, {"side": who, "reason": reason}),
                token="red_cross",
                at=token["at"],
                unit=use["activate"],
                failed=True,
            )
        )
        return
    state["board_tokens"].remove(token)
    events.append(
        _event(
            "repair",
            seat,
            Text(RED_CROSS_DAMAGED if tank["hits"] else RED_CROSS_UNDAMAGED,
                 {"side": who, "square": token["at"], "unit": use["activate"]}),
            token="red_cross",
            at=token["at"],
            unit=use["activate"],
        )
    )


def _r_repairs(state: State, units: dict[Key, Unit], events: list[dict[str, Any]]) -> None:
    rnd = state["round"]
    for entry in state["repairing"]:
        if entry["round"] != rnd:
            continue
        seat = entry["seat"]
        tank, medic = units[(seat, entry["tank"])], units[(seat, "R")]
        if tank["state"] == "active" and medic["state"] == "active":
            tank["hits"] = 0
            events.append(
                _event(
                    "repair",
                    seat,
                    Text(R_REPAIRED, {"unit": full_label(seat, "R"), "tank": entry["tank"],
                                      "square": tank["at"]}),
                    unit=entry["tank"],
                    at=tank["at"],
                )
            )
    state["repairing"] = [e for e in state["repairing"] if e["round"] > rnd]
    for seat in board.SEATS:
        r_unit = units.get((seat, "R"))
        used = state["used"][str(seat)]
        if r_unit is None or r_unit["state"] != "active" or used["r_repairs"] >= 2:
            continue
        for unit in state["units"]:
            if (
                unit["seat"] == seat
                and unit["kind"] == "tank"
                and unit["state"] == "active"
                and unit["hits"] == 1
                and unit["at"] == r_unit["at"]
            ):
                used["r_repairs"] += 1
                state["repairing"].append({"seat": seat, "tank": unit["name"], "round": rnd + 1})
                events.append(
                    _event(
                        "repair",
                        seat,
                        Text(R_STARTS, {"unit": full_label(seat, "R"), "tank": unit["name"],
                                        "square": unit["at"]}),
                        unit=unit["name"],
                        at=unit["at"],
                        starts=True,
                    )
                )
                break


def tanks_left(state: State, seat: int) -> int:
    return sum(
        1
        for u in state["units"]
        if u["seat"] == seat and u["kind"] == "tank" and u["state"] == "active"
    )


def _victory(state: State, events: list[dict[str, Any]]) -> None:
    rnd = state["round"]
    b1, b2 = state["breakthroughs"]["1"], state["breakthroughs"]["2"]
    t1, t2 = tanks_left(state, 1), tanks_left(state, 2)
    winner: int | None = None
    if b1 != b2:
        winner = 1 if b1 > b2 else 2
        reason = Text(BROKE_THROUGH, {"side": board.SEAT_NAMES[winner], "most": max(b1, b2),
                       "fewest": min(b1, b2)})
    elif t1 == 0 and t2 == 0:
        reason = Text(BOTH_LOST)
    elif t1 == 0 or t2 == 0:
        winner = 2 if t1 == 0 else 1
        reason = Text(NO_TANKS, {"side": board.SEAT_NAMES[board.enemy(winner)]})
    elif rnd >= state["options"]["round_limit"]:
        reason = Text(ROUND_LIMIT, {"round": rnd})
    else:
        return
    state["phase"] = "over"
    state["result"] = {"winner": winner, "reason": str(reason)}
    events.append({"type": "result", "winner": winner, "text": str(reason)})
