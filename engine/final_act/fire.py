"""Fire: every valid shell lands after movement; enemy units on a shelled square are hit.

Shells were checked against cones and line of fire from the start-of-round position when the
sheet was validated; here only smoke placed this round can still stop one. One shell hits one
unit: on a shared square the tank takes it (R next, then the lower-numbered AT); a tank's second
hit puts it and every unit sharing its square out. A shell on a square where the R unit is
repairing a tank this round puts both out. Shells never harm their own side.
"""

from __future__ import annotations

from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.line_of_fire import blocker_on_path
from engine.final_act.position import Position
from engine.final_act.units import Unit, full_label

Key = tuple[int, str]
_PRIORITY = {"tank": 0, "r": 1, "at": 2}

# What the shells did (an event's "text", read back by the report: see ``Phrasebook``).
AIR_STRIKE = _("%(side)s's air strike")
SHELL = _("%(unit)s's shell")
STOPPED = _("%(unit)s's shell at %(square)s was stopped by smoke.")
FIRED = _("%(unit)s fired at %(square)s.")
HIT_IN_REPAIR = _("%(shooter)s hit %(unit)s during its repair at %(square)s: out.")
HIT_DAMAGED = _("%(shooter)s hit %(unit)s at %(square)s: damaged.")
HIT_OUT = _("%(shooter)s hit %(unit)s at %(square)s: out.")
DESTROYED_WITH = _("%(unit)s was destroyed with %(tank)s at %(square)s: out.")
# The most specific first: a sentence is read back by the first template it fits.
TEXTS = (STOPPED, FIRED, HIT_IN_REPAIR, HIT_DAMAGED, HIT_OUT, DESTROYED_WITH)
SHOOTERS = (AIR_STRIKE, SHELL)


def shells(pos: Position, sheets: dict[int, dict[str, Any]]) -> list[tuple[int, Unit | None, int]]:
    """(seat, shooter or None for an air strike, target) for every shell, in report order."""
    out: list[tuple[int, Unit | None, int]] = []
    for seat in board.SEATS:
        sheet = sheets[seat]
        quick = sheet["tokens"].get("quick_shot")
        for name, order in sheet["units"].items():
            unit = pos.unit(seat, name)
            assert unit is not None
            targets = list(order.get("fire", []))
            if quick and quick["unit"] == name:
                targets += quick["fire"]
            out.extend((seat, unit, sq) for t in targets if (sq := board.parse(t)) is not None)
        air = sheet["tokens"].get("air_strike")
        if air:
            out.extend((seat, None, sq) for t in air["fire"] if (sq := board.parse(t)) is not None)
    return out


def resolve_fire(
    pos: Position,
    sheets: dict[int, dict[str, Any]],
    standing: dict[int, list[Unit]],
    smoke: set[int],
    round_no: int,
    events: list[dict[str, Any]],
) -> tuple[set[Key], set[tuple[int, int]]]:
    """Land every shell on ``standing`` (square -> units after movement, mutated in place).

    Returns the units hit this round and the (square, shooting seat) pairs shelled."""
    hit: set[Key] = set()
    shelled: set[tuple[int, int]] = set()
    repair_pairs = {
        (r["seat"], r["tank"]) for r in pos.state["repairing"] if r["round"] == round_no
    }
    for seat, shooter, target in shells(pos, sheets):
        tname = board.name(target)
        who = (
            full_label(seat, shooter["name"])
            if shooter
            else Text(AIR_STRIKE, {"side": board.SEAT_NAMES[seat]})
        )
        event: dict[str, Any] = {
            "type": "shell",
            "seat": seat,
            "unit": shooter["name"] if shooter else None,
            "at": tname,
        }
        if shooter is not None:
            origin = pos.sq(shooter)
            event["from"] = board.name(origin)
            if smoke:
                blockers = smoke if pos.elevated(shooter) else (smoke | pos.blockers)
                if blocker_on_path(origin, target, blockers) is not None:
                    event["blocked"] = True
                    event["text"] = str(Text(STOPPED, {"unit": who, "square": tname}))
                    events.append(event)
                    continue
        else:
            event["air_strike"] = True
        event["text"] = str(Text(FIRED, {"unit": who, "square": tname}))
        events.append(event)
        shelled.add((target, seat))
        enemies = [
            u for u in standing.get(target, []) if u["seat"] != seat and u["state"] == "active"
        ]
        if not enemies:
            continue
        shooter_text = Text(SHELL, {"unit": who}) if shooter else who
        repairing = [
            u for u in enemies if u["kind"] == "tank" and (u["seat"], u["name"]) in repair_pairs
        ]
        if repairing and any(u["kind"] == "r" for u in enemies):
            for unit in enemies:
                _knock_out(
                    unit,
                    target,
                    round_no,
                    hit,
                    events,
                    Text(HIT_IN_REPAIR, {"shooter": shooter_text, "square": tname,
                                         "unit": full_label(unit["seat"], unit["name"])}),
                    seat,
                    shooter,
                )
            continue
        victim = min(enemies, key=lambda u: (_PRIORITY[u["kind"]], u["name"]))
        hit.add((victim["seat"], victim["name"]))
        label = full_label(victim["seat"], victim["name"])
        if victim["kind"] == "tank" and victim["hits"] == 0:
            victim["hits"] = 1
            events.append(
                _hit_event(
                    victim,
                    target,
                    seat,
                    shooter,
                    Text(HIT_DAMAGED, {"shooter": shooter_text, "unit": label,
                                       "square": tname}),
                )
            )
            continue
        _knock_out(
            victim,
            target,
            round_no,
            hit,
            events,
            Text(HIT_OUT, {"shooter": shooter_text, "unit": label, "square": tname}),
            seat,
            shooter,
        )
        if victim["kind"] == "tank":
            for other in enemies:
                if other is not victim:
                    _knock_out(
                        other,
                        target,
                        round_no,
                        hit,
                        events,
                        Text(DESTROYED_WITH, {"unit": full_label(other["seat"], other["name"]),
                                              "tank": label, "square": tname}),
                        seat,
                        shooter,
                    )
    return hit, shelled


def _hit_event(
    unit: Unit, target: int, seat: int, shooter: Unit | None, text: Text
) -> dict[str, Any]:
    return {
        "type": "hit",
        "seat": unit["seat"],
        "unit": unit["name"],
        "at": board.name(target),
        "by": {"seat": seat, "unit": shooter["name"] if shooter else None},
        "hits": unit["hits"],
        "text": str(text),
    }


def _knock_out(
    unit: Unit,
    target: int,
    round_no: int,
    hit: set[Key],
    events: list[dict[str, Any]],
    text: Text,
    seat: int,
    shooter: Unit | None,
) -> None:
    unit["hits"] = 2 if unit["kind"] == "tank" else 1
    unit["state"] = "out"
    unit["out_round"] = round_no
    hit.add((unit["seat"], unit["name"]))
    event = _hit_event(unit, target, seat, shooter, text)
    event["out"] = True
    events.append(event)
