"""One round, resolved in the ruled order: beginning-of-round tokens, movement (with full
throttle), smoke, fire (air strike, quick shot, double shot), end of round, victory check."""

from __future__ import annotations

from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _
from engine.final_act import board
from engine.final_act.end_of_round import end_round
from engine.final_act.fire import resolve_fire
from engine.final_act.movement import resolve_movement
from engine.final_act.position import Position
from engine.final_act.units import Unit, full_label

State = dict[str, Any]

# What a side or a unit did (an event's "text", read back by the report: see ``Phrasebook``).
TOKEN_TEXTS = {
    "quick_sand": _("%(side)s dropped quick sand on %(square)s: no unit may enter it this round "
                    "and the next."),
    "mine_clearing": _("%(side)s cleared a path through the minefield at %(square)s for this "
                       "round and the next."),
    "smoke": _("%(side)s laid smoke on %(square)s."),
    "full_throttle": _("%(side)s sent %(unit)s forward at full throttle."),
    "quick_shot": _("%(side)s gave %(unit)s a quick shot."),
    "air_strike": _("%(side)s called an air strike from %(square)s."),
}
DOUBLE_SHOT = _("%(unit)s fires a double shot.")
REPAIR = _("%(unit)s stays behind its berm for repair.")
TEXTS = (*TOKEN_TEXTS.values(), DOUBLE_SHOT, REPAIR)


def copy_state(state: State) -> State:
    """A copy deep enough that resolving never touches the input state."""
    new = dict(state)
    new["units"] = [dict(u) for u in state["units"]]
    new["board_tokens"] = [dict(t) for t in state["board_tokens"]]
    new["tokens"] = {k: list(v) for k, v in state["tokens"].items()}
    new["breakthroughs"] = dict(state["breakthroughs"])
    new["used"] = {k: dict(v) for k, v in state["used"].items()}
    new["officer_lost"] = dict(state["officer_lost"])
    new["repairing"] = [dict(r) for r in state["repairing"]]
    return new


def _use_token(
    state: State, seat: int, token: str, use: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    state["tokens"][str(seat)].remove(token)
    text = Text(TOKEN_TEXTS[token], {"side": board.SEAT_NAMES[seat], "square": use.get("at"),
                                     "unit": use.get("unit")})
    event: dict[str, Any] = {"type": "token", "seat": seat, "token": token}
    event.update({k: v for k, v in use.items() if k in ("at", "unit", "fire", "paid_by")})
    event["text"] = str(text)
    events.append(event)


def resolve_round(
    state: State, sheets: dict[int, dict[str, Any]]
) -> tuple[State, list[dict[str, Any]]]:
    """The state after the round and the round report. ``sheets`` are validated normal forms."""
    new = copy_state(state)
    pos = Position(new)
    rnd = new["round"]
    events: list[dict[str, Any]] = []
    new_sand: dict[int, set[int]] = {1: set(), 2: set()}
    for token in ("quick_sand", "mine_clearing"):
        for seat in board.SEATS:
            use = sheets[seat]["tokens"].get(token)
            if use:
                new["board_tokens"].append(
                    {"token": token, "seat": seat, "at": use["at"], "round": rnd}
                )
                if token == "quick_sand":
                    sq = board.parse(use["at"])
                    assert sq is not None
                    new_sand[seat].add(sq)
                _use_token(new, seat, token, use, events)
    for seat in board.SEATS:
        use = sheets[seat]["tokens"].get("full_throttle")
        if use:
            _use_token(new, seat, "full_throttle", use, events)

    final, facing, crushed = resolve_movement(pos, sheets, new_sand, events)
    for unit in new["units"]:
        key = (unit["seat"], unit["name"])
        if key in final and unit["state"] == "active":
            unit["at"] = board.name(final[key])
            unit["facing"] = facing[key]
    for unit in crushed:
        unit["state"] = "out"
        unit["out_round"] = rnd

    smoke: set[int] = set()
    for seat in board.SEATS:
        use = sheets[seat]["tokens"].get("smoke")
        if use:
            sq = board.parse(use["at"])
            assert sq is not None
            smoke.add(sq)
            new["board_tokens"].append(
                {"token": "smoke", "seat": seat, "at": use["at"], "round": rnd}
            )
            _use_token(new, seat, "smoke", use, events)

    for seat in board.SEATS:
        for token in ("air_strike", "quick_shot"):
            use = sheets[seat]["tokens"].get(token)
            if use:
                _use_token(new, seat, token, use, events)
        name = sheets[seat]["declare"].get("double_shot")
        if name:
            new["used"][str(seat)]["double_shot"] = True
            events.append(
                {
                    "type": "declare",
                    "seat": seat,
                    "unit": name,
                    "declare": "double_shot",
                    "text": str(Text(DOUBLE_SHOT, {"unit": full_label(seat, name)})),
                }
            )
        name = sheets[seat]["declare"].get("repair")
        if name:
            new["used"][str(seat)]["repair"] = True
            events.append(
                {
                    "type": "declare",
                    "seat": seat,
                    "unit": name,
                    "declare": "repair",
                    "text": str(Text(REPAIR, {"unit": full_label(seat, name)})),
                }
            )
    standing: dict[int, list[Unit]] = {}
    for unit in new["units"]:
        if unit["state"] == "active" and unit["at"]:
            sq = board.parse(unit["at"])
            assert sq is not None
            standing.setdefault(sq, []).append(unit)
    hit, _shelled = resolve_fire(pos, sheets, standing, smoke, rnd, events)

    end_round(new, sheets, hit, events)
    if new["phase"] != "over":
        new["round"] = rnd + 1
    new["last_round"] = events
    return new, events
