"""The Final Act setup on the web: form fields <-> the engine's setup submission, the panel's
context, the live check and the preview of one's own draft.

The panel is an ordinary form; clicking the board only fills its fields, so the form is the
whole truth and it works with a keyboard or without JavaScript. Field names:

    f-large_berm            two squares, e.g. "e3 f3"
    f-small_berm1           one square
    f-small_berm2           one square
    f-swamp                 four squares (a 2 x 2 block), e.g. "a5 b5 a6 b6"
    f-minefield             three squares in a straight line
    f-minefield-passage     one of them
    f-minefield-arrow       N E S W
    u-<unit>-at             a square
    u-<unit>-facing         N E S W (not for the R unit: it always faces forward)
    tokens                  repeated, one per drafted token (draft-k token mode only)

Reading the fields never judges them: whatever was typed goes to the engine as it is (split
into squares at spaces and commas), so a value that is not a square comes back as the engine's
problem, in words, next to the piece it belongs to. An empty unit square leaves the unit out of
the draft ("must be placed"); an empty facing means the side's forward facing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import engine
from engine.base import Problem
from engine.final_act import board as fa_board
from engine.final_act.units import TOKENS, kind_of
from games.final_act.board import FACING_WORDS, LIVE_BOARD_ID, render_board
from games.final_act.drafts import check_draft, draft_text
from games.final_act.sheet_panel import TOKEN_HELP, TOKEN_NAMES, unit_label
from games.models import Match, Seat, Submission
from games.words import problem_message

FILLS = ("default", "clear")
_SPLIT = re.compile(r"[\s,;]+")

# The terrain rows of the form and their fields.
TERRAIN_FIELDS = {
    "large_berm": ("f-large_berm",),
    "small_berms": ("f-small_berm1", "f-small_berm2"),
    "swamp": ("f-swamp",),
    "minefield": ("f-minefield", "f-minefield-passage", "f-minefield-arrow"),
}
PIECE_NAMES = {
    "large_berm": gettext_lazy("Large berm"),
    "small_berms": gettext_lazy("Small berms"),
    "swamp": gettext_lazy("Swamp"),
    "minefield": gettext_lazy("Minefield"),
    "tokens": gettext_lazy("Action tokens"),
    "setup": gettext_lazy("Setup"),
}


def _squares(text: str) -> list[str]:
    return [part for part in _SPLIT.split(text.strip()) if part]


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def field_names(legal: Mapping[str, Any]) -> list[str]:
    """Every single-valued field of the form for this seat (``tokens`` is the list-valued one)."""
    names = [name for fields in TERRAIN_FIELDS.values() for name in fields]
    for unit in legal.get("units", []):
        names.append(f"u-{unit}-at")
        if kind_of(unit) != "r":
            names.append(f"u-{unit}-facing")
    return names


def fields_from_post(data: Mapping[str, Any], legal: Mapping[str, Any]) -> dict[str, Any]:
    """The posted values of this form's fields, exactly as typed (to show them again)."""
    fields: dict[str, Any] = {}
    for key in field_names(legal):
        value = data.get(key, "")
        fields[key] = value if isinstance(value, str) else ""
    if legal.get("tokens_to_draft"):
        values = data.getlist("tokens") if hasattr(data, "getlist") else data.get("tokens", [])
        fields["tokens"] = [v for v in values if isinstance(v, str)]
    return fields


def fields_from_setup(setup: Any) -> dict[str, Any]:
    """The field values showing ``setup`` (a normal-form setup submission)."""
    if not isinstance(setup, Mapping):
        return {}
    terrain = setup.get("terrain", {})
    mine = terrain.get("minefield", {})
    small = list(terrain.get("small_berms", []))
    fields: dict[str, Any] = {
        "f-large_berm": " ".join(terrain.get("large_berm", [])),
        "f-small_berm1": small[0] if small else "",
        "f-small_berm2": small[1] if len(small) > 1 else "",
        "f-swamp": " ".join(terrain.get("swamp", [])),
        "f-minefield": " ".join(mine.get("squares", [])),
        "f-minefield-passage": mine.get("passage", ""),
        "f-minefield-arrow": mine.get("arrow", ""),
    }
    for name, spec in setup.get("units", {}).items():
        fields[f"u-{name}-at"] = spec.get("at", "")
        if kind_of(name) != "r":
            fields[f"u-{name}-facing"] = spec.get("facing", "")
    if "tokens" in setup:
        fields["tokens"] = list(setup["tokens"])
    return fields


def setup_from_fields(fields: Mapping[str, Any], legal: Mapping[str, Any]) -> dict[str, Any]:
    """The setup submission the fields describe, for the engine to judge (never judged here)."""

    def get(key: str) -> str:
        return _text(fields.get(key, ""))

    small = _squares(get("f-small_berm1")) + _squares(get("f-small_berm2"))
    terrain = {
        "large_berm": _squares(get("f-large_berm")),
        "small_berms": small,
        "swamp": _squares(get("f-swamp")),
        "minefield": {
            "squares": _squares(get("f-minefield")),
            "passage": get("f-minefield-passage"),
            "arrow": get("f-minefield-arrow"),
        },
    }
    units: dict[str, Any] = {}
    for name in legal.get("units", []):
        at = get(f"u-{name}-at")
        if not at:
            continue  # the engine says it must be placed
        spec = {"at": at}
        facing = get(f"u-{name}-facing")
        if facing:
            spec["facing"] = facing
        units[name] = spec
    setup: dict[str, Any] = {"terrain": terrain, "units": units}
    if legal.get("tokens_to_draft"):
        raw = fields.get("tokens", [])
        setup["tokens"] = [_text(t) for t in (raw if isinstance(raw, list) else [raw])]
    return setup


def empty_rows(fields: Mapping[str, Any], legal: Mapping[str, Any]) -> set[str]:
    """The rows of the form the player has not touched yet: every field of the piece empty
    (a unit's facing does not count: it always has a value)."""
    rows = {row for row, names in TERRAIN_FIELDS.items()
            if not any(_text(fields.get(name, "")) for name in names)}
    rows |= {f"unit-{name}" for name in legal.get("units", [])
             if not _text(fields.get(f"u-{name}-at", ""))}
    if not fields.get("tokens"):
        rows.add("tokens")
    return rows


def setup_words() -> dict[str, str]:
    """What the setup panel's script says as the board is clicked, in the reader's language
    (``%(name)s`` filled in by the script): the pieces' names and each announcement."""
    return {
        "piece:large_berm": _("the large berm"), "piece:small_berm1": _("small berm 1"),
        "piece:small_berm2": _("small berm 2"), "piece:swamp": _("the swamp"),
        "piece:minefield": _("the minefield"), "piece:passage": _("the minefield's passage"),
        "hint:large_berm": _("choose a shaded square, then a square next to it"),
        "hint:small_berm1": _("choose a shaded square"),
        "hint:small_berm2": _("choose a shaded square"),
        "hint:swamp": _("choose a square: the swamp takes the 2 by 2 block with it at the "
                        "top left"),
        "hint:minefield": _("choose three squares in a straight line, or one end and then the "
                            "other"),
        "hint:passage": _("choose one of the minefield's squares"),
        "hint:unit": _("choose a shaded square; R turns it"),
        "placing": _("Placing %(piece)s: %(hint)s."),
        "berm_done": _("Large berm on %(first)s and %(square)s."),
        "berm_removed": _("Large berm removed; choose its first square."),
        "berm_started": _("Large berm starts on %(square)s: now choose a square next to it."),
        "minefield_done": _("Minefield on %(squares)s: now choose its passage square, then its "
                            "arrow."),
        "minefield_some": _("Minefield: %(squares)s so far; it needs three."),
        "minefield_none": _("Minefield: no squares so far; it needs three."),
        "no_block": _("No 2 by 2 block fits at %(square)s."),
        "swamp_done": _("Swamp on %(squares)s."),
        "not_minefield": _("%(square)s is not one of the minefield's squares."),
        "passage_first": _("Place the minefield's three squares first (its button, then the "
                           "board); its passage is one of them."),
        "passage_done": _("Passage on %(square)s. Choose the arrow (the direction units may "
                          "cross) in the form."),
        "unit_next": _("%(unit)s on %(square)s (R turns it). Now placing %(next)s."),
        "unit_last": _("%(unit)s on %(square)s (R turns it). Every unit is placed."),
        "placed": _("%(piece)s on %(square)s."),
        "r_forward": _("The R unit always faces forward."),
        "faces": _("%(unit)s now faces %(facing)s."),
        "nothing_here": _("%(square)s: nothing of yours there. Choose a piece to place first."),
        "dropped": _("Choice dropped."),
    }


def still_to_place(rows: list[str], empty: set[str]) -> str:
    """The pieces not placed yet, in a sentence ("" when every piece has its squares)."""
    terrain = [TERRAIN_WORDS[row]() for row in TERRAIN_FIELDS if row in empty]
    units = [row[5:] for row in rows if row.startswith("unit-") and row in empty]
    tanks = [name for name in units if kind_of(name) == "tank"]
    others = [unit_label(name) for name in units if kind_of(name) != "tank"]
    parts = terrain
    if tanks:
        parts.append(ngettext("your tank %(names)s", "your %(count)s tanks (%(names)s)",
                              len(tanks)) % {"count": len(tanks), "names": ", ".join(tanks)})
    parts += others
    if "tokens" in rows and "tokens" in empty:
        parts.append(_("your action tokens"))
    if not parts:
        return ""
    return _("Place %(pieces)s: choose a piece, then a shaded square of the board.") % {
        "pieces": ", ".join(parts)}


# The terrain pieces as the guide to a fresh setup names them.
TERRAIN_WORDS = {
    "large_berm": lambda: _("the large berm"),
    "small_berms": lambda: _("the two small berms"),
    "swamp": lambda: _("the swamp"),
    "minefield": lambda: _("the minefield"),
}


def row_of(path: str) -> str:
    """The form row a problem path belongs to: ``large_berm``, ``small_berms``, ``swamp``,
    ``minefield``, ``unit-<name>``, ``tokens``, or ``setup`` (the whole setup)."""
    parts = path.split(".")
    if parts[0] == "terrain" and len(parts) > 1 and parts[1] in TERRAIN_FIELDS:
        return parts[1]
    if parts[0] == "units" and len(parts) > 1:
        return f"unit-{parts[1]}"
    if parts[0] == "tokens":
        return "tokens"
    return "setup"


def row_name(row: str) -> str:
    if row.startswith("unit-"):
        return unit_label(row[5:])
    return str(PIECE_NAMES.get(row, PIECE_NAMES["setup"]))


def preview_view(view: Mapping[str, Any], seat: int, setup: Mapping[str, Any]
                 ) -> dict[str, Any]:
    """``view`` (the seat's own view of the setup phase, which holds no placements) with this
    seat's draft placed on it, piece by piece as far as each can be read, in the shape the
    engine's ``apply_setups`` gives them. Nothing but the draft is added."""
    terrain: list[dict[str, Any]] = []
    t = setup.get("terrain", {})

    def readable(names: Any) -> list[str]:
        squares = [fa_board.parse(n) for n in names] if isinstance(names, list) else []
        return [fa_board.name(s) for s in squares if s is not None]

    large = readable(t.get("large_berm"))
    if large:
        terrain.append({"kind": "berm", "owner": seat, "squares": large})
    for square in readable(t.get("small_berms")):
        terrain.append({"kind": "berm", "owner": seat, "squares": [square]})
    swamp = readable(t.get("swamp"))
    if swamp:
        terrain.append({"kind": "swamp", "owner": seat, "squares": swamp})
    mine = t.get("minefield", {})
    cells = readable(mine.get("squares"))
    if cells:
        piece: dict[str, Any] = {"kind": "minefield", "owner": seat, "squares": cells}
        passage = fa_board.parse(mine.get("passage"))
        if passage is not None and fa_board.name(passage) in cells:
            piece["passage"] = fa_board.name(passage)
            if mine.get("arrow") in fa_board.FACINGS:
                piece["arrow"] = mine["arrow"]
        terrain.append(piece)
    units = []
    for name, spec in setup.get("units", {}).items():
        square = fa_board.parse(spec.get("at"))
        if square is None:
            continue
        facing = spec.get("facing")
        units.append({
            "seat": seat,
            "name": name,
            "kind": kind_of(name),
            "at": fa_board.name(square),
            "facing": facing if facing in fa_board.FACINGS else fa_board.forward(seat),
            "hits": 0,
            "status": "ok",
        })
    return {**view, "seat": seat, "terrain": terrain, "units": units, "last_round": []}


def _problem_squares(setup: Mapping[str, Any], problems: list[Problem]) -> list[str]:
    """The readable squares of every piece that has a problem (marked on the preview)."""
    rows = {row_of(p.path) for p in problems}
    t = setup.get("terrain", {})
    out: list[str] = []
    for row in rows:
        if row == "minefield":
            out.extend(t.get("minefield", {}).get("squares", []))
        elif row in TERRAIN_FIELDS:
            out.extend(t.get(row, []))
        elif row.startswith("unit-"):
            spec = setup.get("units", {}).get(row[5:])
            if spec:
                out.append(spec.get("at"))
    return sorted({fa_board.name(s) for n in out if (s := fa_board.parse(n)) is not None})


def _unit_rows(legal: Mapping[str, Any], fields: Mapping[str, Any],
               notes: Mapping[str, list[str]], forward: str) -> list[dict[str, Any]]:
    rows = []
    for name in legal["units"]:
        facing = _text(fields.get(f"u-{name}-facing", "")) or forward
        rows.append({
            "name": name,
            "label": unit_label(name),
            "kind": kind_of(name),
            "at": _text(fields.get(f"u-{name}-at", "")),
            "facing": facing,
            "facing_known": facing in fa_board.FACINGS,
            "row": f"unit-{name}",
            "problems": notes.get(f"unit-{name}", []),
        })
    return rows


def _token_block(legal: Mapping[str, Any], fields: Mapping[str, Any],
                 notes: Mapping[str, list[str]]) -> dict[str, Any] | None:
    """The token draft (draft-k mode only): a checkbox per token."""
    if not legal["tokens_to_draft"]:
        return None
    chosen = fields.get("tokens", [])
    return {
        "k": legal["tokens_to_draft"],
        "choices": [{"token": t, "name": TOKEN_NAMES[t], "help": TOKEN_HELP[t],
                     "checked": t in chosen} for t in legal["token_choices"]],
        # Whatever else was posted stays visible (and refused by the engine), never dropped.
        "unknown": [t for t in chosen if t not in TOKENS],
        "problems": notes.get("tokens", []),
    }


def setup_panel_context(request: HttpRequest, match: Match, seat: Seat,
                        sheet: Submission | None, *, posted: Mapping[str, Any] | None = None,
                        fill: str | None = None, insist: bool = False) -> dict[str, Any]:
    """The setup panel of ``seat`` (the viewer's own, prompted in the setup phase): the form
    rows filled from ``fill`` ("default": the engine's default layout, "clear": empty), else
    the ``posted`` fields, else the sealed ``sheet``; the live check of that draft; the live
    board showing only this draft. ``request`` is the viewer's (unused today: the draft never
    comes from anywhere but the arguments).

    A piece not placed yet is not a problem to shout about: the check lists it in a neutral
    "place ..." guide, until the player ``insist``s (asks for the check, or tries to seal)."""
    game = engine.games()[match.game]
    state = match.state
    number = seat.number
    legal = game.legal_actions(state, number)
    if fill == "default":
        fields = fields_from_setup(game.default_submission(state, number))
    elif fill == "clear":
        fields = {}
    elif posted is not None:
        fields = fields_from_post(posted, legal)
    else:
        fields = fields_from_setup(sheet.data if sheet is not None else None)
    draft = setup_from_fields(fields, legal)
    normal, problems, _warnings = check_draft(game, state, number, draft)
    untouched = set() if insist else empty_rows(fields, legal)
    problems = [p for p in problems if row_of(p.path) not in untouched]
    notes: dict[str, list[str]] = {}
    for problem in problems:
        notes.setdefault(row_of(problem.path), []).append(problem_message(problem))

    def value(key: str) -> str:
        return _text(fields.get(key, ""))

    forward = fa_board.forward(number)
    units = _unit_rows(legal, fields, notes, forward)
    tokens = _token_block(legal, fields, notes)
    rows = ["large_berm", "small_berms", "swamp", "minefield",
            *(u["row"] for u in units), *(["tokens"] if tokens else [])]
    view = game.view(state, number)
    caption = _("Your setup as drafted: only you see it. The other side's terrain and units "
                "appear when both setups are in.")
    return {
        "fa_setup_seat": number,
        "fa_setup_side": fa_board.SEAT_NAMES[number],
        "fa_setup_phase_number": match.phase_number,
        "fa_setup_terrain": {
            "large_berm": value("f-large_berm"),
            "small_berm1": value("f-small_berm1"),
            "small_berm2": value("f-small_berm2"),
            "swamp": value("f-swamp"),
            "minefield": value("f-minefield"),
            "passage": value("f-minefield-passage"),
            "arrow": value("f-minefield-arrow"),
            "arrow_known": value("f-minefield-arrow") in ("", *fa_board.FACINGS),
        },
        "fa_setup_terrain_notes": {row: notes.get(row, []) for row in TERRAIN_FIELDS},
        "fa_setup_units": units,
        "fa_setup_has_r": any(u["kind"] == "r" for u in units),
        "fa_setup_tokens": tokens,
        "fa_setup_facings": [{"value": f, "word": FACING_WORDS[f]} for f in fa_board.FACINGS],
        "fa_setup_forward": forward,
        "fa_setup_forward_word": FACING_WORDS[forward],
        "fa_setup_words": setup_words(),
        "fa_setup_problems": [{"path": p.path, "row": row_of(p.path),
                               "piece": row_name(row_of(p.path)), "message": problem_message(p)}
                              for p in problems],
        "fa_setup_notes": [{"row": row, "messages": notes.get(row, [])} for row in rows],
        "fa_setup_todo": still_to_place(rows, untouched) if normal is None else "",
        "fa_setup_valid": normal is not None,
        "fa_setup_text": draft_text(game, state, number, normal),
        "fa_setup_sheet": sheet,
        "fa_setup_legal": {
            "seat": number,
            "units": list(legal["units"]),
            "areas": {
                "large_berm": legal["berm_squares"],
                "small_berm": legal["berm_squares"],
                "swamp": legal["half_squares"],
                "minefield": legal["half_squares"],
                "unit": legal["unit_squares"],
            },
        },
        "fa_live_board": render_board(
            preview_view(view, number, draft), seat=number, last_round=False,
            board_id=LIVE_BOARD_ID, caption=caption,
            marks={"is-problem": _problem_squares(draft, problems)},
        ),
    }
