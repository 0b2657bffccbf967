"""Legal actions for the UI and bots (format documented in ``legal_actions``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.final_act import board
from engine.final_act.position import Position
from engine.final_act.units import TOKENS, Unit, unit_names

State = dict[str, Any]


def legal_setup(state: State, seat: int) -> dict[str, Any]:
    options = state["options"]
    tokens = options.get("tokens")
    draft = bool(tokens) and tokens["mode"] == "draft-k"
    return {
        "phase": "setup",
        "units": list(unit_names(bool(options.get("extra_forces")))),
        "unit_squares": [board.name(s) for s in board.squares_in_rows(seat, 1, 3)],
        "berm_squares": [board.name(s) for s in board.squares_in_rows(seat, 1, 3)],
        "half_squares": [board.name(s) for s in board.squares_in_rows(seat, 1, 6)],
        "tokens_to_draft": tokens["k"] if draft else 0,
        "token_choices": list(TOKENS) if draft else [],
    }


@lru_cache(maxsize=2)
def _air_fields(seat: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    lines = board.squares_in_rows(seat, 1, 1)
    return tuple(
        (
            board.name(s),
            tuple(
                board.name(t) for t in board.SQUARES if t % board.SIZE == s % board.SIZE and t != s
            ),
        )
        for s in lines
    )


def _air_strike_choices(seat: int) -> dict[str, Any]:
    fields = _air_fields(seat)
    return {"at": [at for at, _ in fields], "fire": {at: list(squares) for at, squares in fields}}


def _unit_moves(pos: Position, unit: Unit, repairing: bool) -> list[dict[str, Any]]:
    """Every move (and for tanks every move/turn pair) the unit may be ordered; AT and R
    entries carry only move and destination, tank entries also turn and the facing after."""
    tank = unit["kind"] == "tank"
    moves: list[dict[str, Any]] = []

    def add(move: str, to: int, turn: bool = False) -> None:
        entry: dict[str, Any] = {"move": move, "to": board.name(to)}
        if tank:
            entry["turn"] = turn
            entry["facing"] = board.turned(unit["facing"], move) if turn else unit["facing"]
        moves.append(entry)

    add("stay", pos.sq(unit))
    if repairing:
        return moves
    for move in (board.AT_MOVES if unit["kind"] == "at" else board.TANK_MOVES)[1:]:
        path, reason = pos.move_path(unit, move)
        if reason:
            continue
        add(move, path[-1])
        if tank and move in board.DIAGONAL_MOVES:
            add(move, path[-1], turn=True)
    return moves


def legal_orders(state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` may order this round.

    ``{"phase": "orders", "units": {name: {"kind", "moves", "faces" (AT only), "fire", "cone",
    "blocked", "shells"}}, "tokens": {token: {...}}, "declare": {"repair": [...],
    "double_shot": [...]}, "shell_limit": n | None}``. Tank moves carry turn/facing; AT moves
    are compass steps with every facing in ``faces`` allowed alongside. ``cone`` is every square
    of the unit's fire cone from where it stands (a tank on a berm reaches one square further),
    ``fire`` the squares of it the unit may shell and ``blocked`` the rest (line of fire cut);
    all three are sorted by square name ("a1" < "a10" < "a2") and empty for a unit that cannot
    fire this round (the R unit, a tank or R busy with a repair).
    """
    pos = Position(state)
    seat_key = str(seat)
    units: dict[str, Any] = {}
    for unit in pos.active(seat):
        name = unit["name"]
        repairing = (seat, name) in pos.repairing or (
            unit["kind"] == "r" and any(s == seat for s, _ in pos.repairing)
        )
        entry: dict[str, Any] = {"kind": unit["kind"], "moves": _unit_moves(pos, unit, repairing)}
        if unit["kind"] == "at":
            entry["faces"] = list(board.FACINGS)
        can_fire = unit["kind"] != "r" and not repairing
        if can_fire:
            cone = pos.cone_of(unit)
            fire = pos.fire_squares(unit)
            entry["fire"] = sorted(board.name(s) for s in fire)
            entry["cone"] = sorted(board.name(s) for s in cone)
            entry["blocked"] = sorted(board.name(s) for s in cone - fire)
        else:
            entry["fire"], entry["cone"], entry["blocked"] = [], [], []
        entry["shells"] = 1 if can_fire else 0
        units[name] = entry
    tanks = [u for u in pos.active_tanks(seat) if (seat, u["name"]) not in pos.repairing]
    out = pos.out_tanks(seat)
    tokens: dict[str, Any] = {}
    for token in state["tokens"][seat_key]:
        if token == "air_strike":
            tokens[token] = _air_strike_choices(seat)
            tokens[token]["paid_by"] = [u["name"] for u in tanks]
            tokens[token]["out_shells"] = out
        elif token == "full_throttle":
            moves: dict[str, Any] = {}
            for unit in tanks:
                options = []
                for move in board.TANK_MOVES[1:]:
                    path, reason = pos.move_path(unit, move, 2)
                    if not reason:
                        options.append({"move": move, "to": board.name(path[-1])})
                if options:
                    moves[unit["name"]] = options
            tokens[token] = {
                "units": sorted(moves, key=lambda n: unit_names(True).index(n)),
                "moves": moves,
            }
        elif token == "quick_shot" and out:
            tokens[token] = {"units": [u["name"] for u in tanks if pos.fire_squares(u)]}
        elif token == "mine_clearing":
            squares = [
                sq
                for sq, field in pos.terrain.mine.items()
                if field.owner == seat or pos.has_tank_in_enemy_half(seat)
            ]
            tokens[token] = {"at": [board.name(s) for s in sorted(squares)]}
        elif token == "smoke":
            near = {n for u in pos.active(seat) for n in board.neighbours(pos.sq(u))}
            tokens[token] = {"at": [board.name(s) for s in sorted(near) if not pos.occupied(s)]}
        elif token == "quick_sand":
            tokens[token] = {"at": [board.name(s) for s in board.SQUARES]}
        elif token == "red_cross":
            half = board.squares_in_rows(seat, 1, 6)
            tokens[token] = {"at": [board.name(s) for s in half if not pos.occupied(s)]}
    red_cross = pos.red_cross.get(seat)
    if red_cross is not None and red_cross["round"] < pos.round:
        tokens["red_cross"] = {"activate": [u["name"] for u in pos.active_tanks(seat)]}
    declare: dict[str, list[str]] = {"repair": [], "double_shot": []}
    used = state["used"][seat_key]
    if "repair" in pos.advanced and not used["repair"]:
        for unit in tanks:
            sq = pos.sq(unit)
            ahead = board.step(sq, board.VECTORS[board.forward(seat)])
            if (
                unit["hits"] == 1
                and board.in_own_half(seat, sq)
                and ahead is not None
                and pos.terrain.berm_owner.get(ahead) == seat
            ):
                declare["repair"].append(unit["name"])
    if "double_shot" in pos.advanced and not used["double_shot"] and out:
        declare["double_shot"] = [u["name"] for u in tanks if pos.fire_squares(u)]
    limit = len(pos.active_tanks(seat)) - 1 if pos.officer_loss_applies(seat) else None
    return {
        "phase": "orders",
        "units": units,
        "tokens": tokens,
        "declare": declare,
        "shell_limit": limit,
    }


def legal_actions(state: State, seat: int) -> dict[str, Any]:
    if state["phase"] == "setup":
        return legal_setup(state, seat)
    if state["phase"] == "orders":
        return legal_orders(state, seat)
    return {"phase": "over"}
