"""Fire: every valid shell lands after movement; enemy units on a shelled square are hit.

Shells were checked against cones and line of fire from the start-of-round position when the
sheet was validated; here only smoke placed this round can still stop one. One shell hits one
unit: on a shared square the tank takes it (R next, then the lower-numbered AT); a tank's second
hit puts it and every unit sharing its square out. A shell on a square where the R unit is
repairing a tank this round puts both out. Shells never harm their own side.
"""

from __future__ import annotations

from typing import Any

from engine.final_act import board
from engine.final_act.line_of_fire import blocker_on_path
from engine.final_act.position import Position
from engine.final_act.units import Unit, full_label

Key = tuple[int, str]
_PRIORITY = {"tank": 0, "r": 1, "at": 2}


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
            f"{full_label(seat, shooter['name'])}"
            if shooter
            else f"{board.SEAT_NAMES[seat]}'s air strike"
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
                    event["text"] = f"{who}'s shell at {tname} was stopped by smoke."
                    events.append(event)
                    continue
        else:
            event["air_strike"] = True
        event["text"] = f"{who} fired at {tname}."
        events.append(event)
        shelled.add((target, seat))
        enemies = [
            u for u in standing.get(target, []) if u["seat"] != seat and u["state"] == "active"
        ]
        if not enemies:
            continue
        shooter_text = f"{who}'s shell" if shooter else who
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
                    f"{shooter_text} hit {full_label(unit['seat'], unit['name'])} "
                    f"during its repair at {tname}: out.",
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
                    f"{shooter_text} hit {label} at {tname}: damaged.",
                )
            )
            continue
        _knock_out(
            victim,
            target,
            round_no,
            hit,
            events,
            f"{shooter_text} hit {label} at {tname}: out.",
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
                        f"{full_label(other['seat'], other['name'])} was destroyed with "
                        f"{label} at {tname}: out.",
                        seat,
                        shooter,
                    )
    return hit, shelled


def _hit_event(
    unit: Unit, target: int, seat: int, shooter: Unit | None, text: str
) -> dict[str, Any]:
    return {
        "type": "hit",
        "seat": unit["seat"],
        "unit": unit["name"],
        "at": board.name(target),
        "by": {"seat": seat, "unit": shooter["name"] if shooter else None},
        "hits": unit["hits"],
        "text": text,
    }


def _knock_out(
    unit: Unit,
    target: int,
    round_no: int,
    hit: set[Key],
    events: list[dict[str, Any]],
    text: str,
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
