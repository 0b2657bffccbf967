"""The Final Act order sheet on the web: form fields <-> the engine's order sheet, the panel's
context, and the live check.

The panel is an ordinary form: one row per operational unit (move, turn, facing for AT units,
shells), one block per action token in hand, the declarations. Clicking the board only fills
these fields, so the form is the whole truth and it works with a keyboard or without
JavaScript. Field names:

    u-<unit>-move   stay F FL FR B BL BR (tanks, R) or a compass step (AT)
    u-<unit>-turn   "on" to turn with a diagonal move (tanks)
    u-<unit>-face   N E S W (AT)
    u-<unit>-fire   a target square; u-<unit>-fire2 a second one (double shot)
    t-<token>-at, t-<token>-unit, t-<token>-fire (squares separated by spaces),
    t-<token>-paid_by (repeated), t-red_cross-activate
    d-repair, d-double_shot

Reading the fields never judges them: whatever was typed goes to the engine as it is, and the
engine's problems come back with paths (``units.C.move``) that name the row they belong to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.base import Problem
from engine.final_act import board as fa_board
from engine.final_act.units import ALL_UNITS, TOKENS, kind_of
from games.final_act.board import FACING_WORDS
from games.words import problem_message

TOKEN_NAMES = {
    "air_strike": gettext_lazy("Air strike"),
    "full_throttle": gettext_lazy("Full throttle"),
    "quick_shot": gettext_lazy("Quick shot"),
    "mine_clearing": gettext_lazy("Mine clearing"),
    "smoke": gettext_lazy("Smoke"),
    "quick_sand": gettext_lazy("Quick sand"),
    "red_cross": gettext_lazy("Red Cross"),
}
TOKEN_HELP = {
    "air_strike": gettext_lazy(
        "From a square of your last line, one or two shells on that file. Paid by tanks that "
        "then hold fire, or by the shells of your tanks that are out."),
    "full_throttle": gettext_lazy("The chosen tank makes its move twice (no turn, not “stay”)."),
    "quick_shot": gettext_lazy(
        "The chosen tank fires two shells, using the shell of a tank that is out."),
    "mine_clearing": gettext_lazy("Opens a minefield square for this round and the next."),
    "smoke": gettext_lazy("Blocks line of fire through a square next to one of your units, "
                          "from this round's fire on."),
    "quick_sand": gettext_lazy("No unit may enter the square this round and the next."),
    "red_cross": gettext_lazy("Place it on a free square of your half; later, activate it to "
                              "repair a tank standing on it."),
}
MOVE_WORDS = {
    "stay": gettext_lazy("stay"), "F": gettext_lazy("forward"),
    "FL": gettext_lazy("forward left"), "FR": gettext_lazy("forward right"),
    "B": gettext_lazy("back"), "BL": gettext_lazy("back left"),
    "BR": gettext_lazy("back right"), "N": gettext_lazy("north"),
    "NE": gettext_lazy("north-east"), "E": gettext_lazy("east"),
    "SE": gettext_lazy("south-east"), "S": gettext_lazy("south"),
    "SW": gettext_lazy("south-west"), "W": gettext_lazy("west"),
    "NW": gettext_lazy("north-west"),
}


# A unit's status as the order sheet says it next to its square ("" when it is fine).
STATUS_WORDS = {"ok": "", "damaged": gettext_lazy("damaged"),
                "repairing": gettext_lazy("under repair"), "wreck": gettext_lazy("wreck"),
                "out": gettext_lazy("out"), "broke_through": gettext_lazy("broke through")}


def unit_label(name: str) -> str:
    """How the panel names one of the player's own units: "Tank 1A", "AT unit AT1", "The R
    unit"."""
    kind = kind_of(name)
    if kind == "tank":
        return _("Tank %(name)s") % {"name": name}
    return _("The R unit") if kind == "r" else _("AT unit %(name)s") % {"name": name}


def _squares(text: str) -> list[str]:
    return [part for part in text.replace(",", " ").split() if part]


def sheet_from_fields(data: Mapping[str, Any], legal: Mapping[str, Any]) -> dict[str, Any]:
    """The order sheet the fields describe, for the engine to judge. ``data`` is request.POST
    (a QueryDict) or a plain dict; ``legal`` is ``legal_actions`` for the seat (it says which
    units and tokens the form has rows for)."""

    def get(key: str) -> str:
        value = data.get(key, "")
        return value.strip() if isinstance(value, str) else ""

    def get_list(key: str) -> list[str]:
        values = data.getlist(key) if hasattr(data, "getlist") else data.get(key, [])
        if isinstance(values, str):
            values = [values]
        return [v.strip() for v in values if isinstance(v, str) and v.strip()]

    units: dict[str, Any] = {}
    for name, info in legal.get("units", {}).items():
        order: dict[str, Any] = {"move": get(f"u-{name}-move") or "stay"}
        kind = info.get("kind")
        if kind == "tank":
            order["turn"] = get(f"u-{name}-turn") in ("on", "true", "1")
        if kind == "at" and get(f"u-{name}-face"):
            order["face"] = get(f"u-{name}-face")
        if kind in ("tank", "at"):
            order["fire"] = [s for s in (get(f"u-{name}-fire"), get(f"u-{name}-fire2")) if s]
        units[name] = order

    tokens: dict[str, Any] = {}
    for token, choices in legal.get("tokens", {}).items():
        if token == "red_cross" and "activate" in choices:
            if get("t-red_cross-activate"):
                tokens[token] = {"activate": get("t-red_cross-activate")}
            continue
        if token in ("mine_clearing", "smoke", "quick_sand", "red_cross"):
            if get(f"t-{token}-at"):
                tokens[token] = {"at": get(f"t-{token}-at")}
        elif token == "full_throttle":
            if get("t-full_throttle-unit"):
                tokens[token] = {"unit": get("t-full_throttle-unit")}
        elif token == "quick_shot":
            if get("t-quick_shot-unit") or get("t-quick_shot-fire"):
                tokens[token] = {"unit": get("t-quick_shot-unit"),
                                 "fire": _squares(get("t-quick_shot-fire"))}
        elif token == "air_strike" and (get("t-air_strike-at") or get("t-air_strike-fire")):
            tokens[token] = {"at": get("t-air_strike-at"),
                             "fire": _squares(get("t-air_strike-fire")),
                             "paid_by": get_list("t-air_strike-paid_by")}

    declare = {key: get(f"d-{key}") for key in ("repair", "double_shot") if get(f"d-{key}")}
    return {"units": units, "tokens": tokens, "declare": declare}


def fields_from_sheet(sheet: Mapping[str, Any] | None) -> dict[str, Any]:
    """The field values showing ``sheet`` (a normal-form order sheet), for the initial form."""
    fields: dict[str, Any] = {}
    if not isinstance(sheet, Mapping):
        return fields
    for name, order in sheet.get("units", {}).items():
        fields[f"u-{name}-move"] = order.get("move", "stay")
        if order.get("turn"):
            fields[f"u-{name}-turn"] = "on"
        if order.get("face"):
            fields[f"u-{name}-face"] = order["face"]
        fire = list(order.get("fire", []))
        fields[f"u-{name}-fire"] = fire[0] if fire else ""
        fields[f"u-{name}-fire2"] = fire[1] if len(fire) > 1 else ""
    for token, use in sheet.get("tokens", {}).items():
        for key in ("at", "unit", "activate"):
            if key in use:
                fields[f"t-{token}-{key}"] = use[key]
        if "fire" in use:
            fields[f"t-{token}-fire"] = " ".join(use["fire"])
        if "paid_by" in use:
            fields[f"t-{token}-paid_by"] = list(use["paid_by"])
    for key, unit in sheet.get("declare", {}).items():
        fields[f"d-{key}"] = unit
    return fields


def row_of(path: str) -> str:
    """The panel row a problem path belongs to: ``unit-C``, ``token-smoke``, ``declare`` or
    ``sheet``."""
    parts = path.split(".")
    if parts[0] == "units" and len(parts) > 1:
        return f"unit-{parts[1]}"
    if parts[0] == "tokens" and len(parts) > 1:
        return f"token-{parts[1]}"
    if parts[0] == "declare":
        return "declare"
    return "sheet"


def _move_label(entry: Mapping[str, Any], kind: str) -> str:
    word = MOVE_WORDS.get(entry["move"], entry["move"])
    if entry["move"] == "stay":
        return _("stay on %(square)s") % {"square": entry["to"]}
    return _("%(move)s (%(word)s) to %(square)s") % {"move": entry["move"], "word": word,
                                                      "square": entry["to"]}


def unit_rows(view: Mapping[str, Any], legal: Mapping[str, Any], fields: Mapping[str, Any],
              problems: list[Problem], warnings: list[Problem]) -> list[dict[str, Any]]:
    """One row per operational own unit, in sheet order, with its choices and current values."""
    seat = view.get("seat")
    where = {u["name"]: u for u in view.get("units", []) if u["seat"] == seat}
    rows = []
    for name in ALL_UNITS:
        info = legal.get("units", {}).get(name)
        if info is None:
            continue
        unit = where.get(name, {})
        kind = info["kind"]
        moves: list[dict[str, str]] = []
        seen = set()
        turns = {}
        for entry in info["moves"]:
            if entry.get("turn"):
                turns[entry["move"]] = entry["facing"]
                continue
            if entry["move"] in seen:
                continue
            seen.add(entry["move"])
            moves.append({"value": entry["move"], "label": _move_label(entry, kind),
                          "to": entry["to"]})
        row_key = f"unit-{name}"
        move = fields.get(f"u-{name}-move", "stay")
        fire1 = fields.get(f"u-{name}-fire", "")
        fire2 = fields.get(f"u-{name}-fire2", "")
        shells = info.get("shells", 0)
        double = name in legal.get("declare", {}).get("double_shot", [])
        fire = info.get("fire", [])
        rows.append({
            "name": name,
            "label": unit_label(name),
            "kind": kind,
            "at": unit.get("at", ""),
            "facing": unit.get("facing", ""),
            "facing_word": FACING_WORDS.get(unit.get("facing", ""), ""),
            "status": unit.get("status", ""),
            "status_word": str(STATUS_WORDS.get(unit.get("status", ""), unit.get("status", ""))),
            "moves": moves,
            "turns": [{"move": m, "facing": f, "word": FACING_WORDS[f]} for m, f in turns.items()],
            "faces": [{"value": f, "word": FACING_WORDS[f]} for f in info.get("faces", [])],
            "fire": info.get("fire", []),
            "cone": info.get("cone", info.get("fire", [])),
            "blocked": info.get("blocked", []),
            "can_fire": shells > 0,
            "second_shell": double,
            "move": move,
            # A value the choices do not hold is shown as it is, never silently replaced.
            "move_unknown": move not in seen,
            "fire1_unknown": bool(fire1) and fire1 not in info.get("fire", []),
            "fire2_unknown": bool(fire2) and fire2 not in info.get("fire", []),
            "turn": fields.get(f"u-{name}-turn") == "on",
            "face": fields.get(f"u-{name}-face", unit.get("facing", "")),
            "fire1": fire1,
            "fire2": fire2,
            "problems": [problem_message(p) for p in problems if row_of(p.path) == row_key],
            "warnings": [problem_message(p) for p in warnings if row_of(p.path) == row_key],
            # Without JavaScript the fields are plain text: each says what it accepts.
            "move_hint": ", ".join(m["value"] for m in moves),
            "fire_hint": " ".join(fire),
            "face_hint": ", ".join(info.get("faces", [])),
        })
    return rows


def field_choices(units: list[dict[str, Any]], tokens: list[dict[str, Any]],
                  declare: Mapping[str, Any]) -> dict[str, list[list[str]]]:
    """{field name: [[value, label], ...]}: the choices of every field that has a fixed set,
    sent once as data. The page's script turns each such text field into a select; the form
    itself stays plain text fields, which work without JavaScript."""
    choices: dict[str, list[list[str]]] = {}
    hold, none, not_now, no = _("hold fire"), _("none"), _("not this round"), _("no")
    for row in units:
        name = row["name"]
        choices[f"u-{name}-move"] = [[m["value"], m["label"]] for m in row["moves"]]
        if row["kind"] == "at":
            choices[f"u-{name}-face"] = [[f["value"], f["word"]] for f in row["faces"]]
        if row["can_fire"]:
            squares = [[sq, sq] for sq in row["fire"]]
            choices[f"u-{name}-fire"] = [["", hold], *squares]
            choices[f"u-{name}-fire2"] = [["", none], *squares]
    for row in tokens:
        token, offered = row["token"], row["choices"]
        if offered.get("activate"):
            choices[f"t-{token}-activate"] = [["", not_now],
                                              *([u, u] for u in offered["activate"])]
        if offered.get("at"):
            choices[f"t-{token}-at"] = [["", not_now],
                                        *([sq, sq] for sq in offered["at"])]
        if token in ("full_throttle", "quick_shot"):
            choices[f"t-{token}-unit"] = [["", not_now],
                                          *([u, u] for u in offered.get("units", []))]
    for key in ("repair", "double_shot"):
        choices[f"d-{key}"] = [["", no], *([u, u] for u in declare.get(key, []))]
    return choices


def token_rows(legal: Mapping[str, Any], fields: Mapping[str, Any], problems: list[Problem],
               warnings: list[Problem]) -> list[dict[str, Any]]:
    rows = []
    for token in TOKENS:
        choices = legal.get("tokens", {}).get(token)
        if choices is None:
            continue
        row_key = f"token-{token}"
        paid = fields.get(f"t-{token}-paid_by", [])
        rows.append({
            "token": token,
            "name": TOKEN_NAMES[token],
            "help": TOKEN_HELP[token],
            "choices": choices,
            "at": fields.get(f"t-{token}-at", ""),
            "unit": fields.get(f"t-{token}-unit", ""),
            "fire": fields.get(f"t-{token}-fire", ""),
            "paid_by": [paid] if isinstance(paid, str) else list(paid),
            "activate": fields.get(f"t-{token}-activate", ""),
            "problems": [problem_message(p) for p in problems if row_of(p.path) == row_key],
            "warnings": [problem_message(p) for p in warnings if row_of(p.path) == row_key],
            # What each plain text field accepts (shown without JavaScript).
            "at_hint": " ".join(choices.get("at") or []),
            "units_hint": ", ".join(choices.get("units") or []),
            "activate_hint": ", ".join(choices.get("activate") or []),
        })
    return rows


def fields_from_post(data: Mapping[str, Any]) -> dict[str, Any]:
    """The posted field values, to show them again exactly as typed."""
    fields: dict[str, Any] = {}
    for key in data:
        if key.startswith(("u-", "t-", "d-")):
            if key.endswith("-paid_by") and hasattr(data, "getlist"):
                fields[key] = data.getlist(key)
            else:
                fields[key] = data.get(key, "")
    return fields


def plan_squares(sheet: Mapping[str, Any]) -> list[str]:
    """Every target square the sheet names (for marking them on the board)."""
    out: list[str] = []
    for order in sheet.get("units", {}).values():
        if isinstance(order, Mapping):
            out.extend(s for s in order.get("fire", []) if isinstance(s, str))
    for use in sheet.get("tokens", {}).values():
        if isinstance(use, Mapping):
            out.extend(s for s in use.get("fire", []) if isinstance(s, str))
    return [s for s in out if fa_board.parse(s) is not None]
