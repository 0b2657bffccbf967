"""The plain-text grammar for email: one action per line.

    move B4 | shoot C5 | give 3 to C5 | give 3 to Corey | buy ap | upgrade range
    stimulus Corey | bounty 3 on Corey | grant life Corey | vote 7 Corey | vote 7 3 on Corey

A target is a square, a display name, or "seat 4". Blank lines, quoted lines (">") and
everything after a signature line ("-- ") are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.base import Problem, State, Text, TextError
from engine.base import gettext_noop as _
from engine.tank_game import squares
from engine.tank_game.state import name, occupants

_SEAT = re.compile(r"^(?:seat\s*|#)(\d{1,3})$", re.IGNORECASE)
_INT = re.compile(r"^\d{1,6}$")


class _Unreadable(ValueError):
    """A line that is not an action; ``text`` says why (for the portal to translate)."""

    def __init__(self, message: str | Text, params: dict[str, Any] | None = None) -> None:
        self.text = message if isinstance(message, Text) else Text(message, params)
        super().__init__(str(self.text))


def _target(state: State, text: str) -> tuple[int | None, str | None, Text | None]:
    """(seat, square, error) for a target written as a square, a name or "seat N"."""
    text = " ".join(text.split())
    match = _SEAT.match(text)
    if match:
        seat = int(match.group(1))
        if str(seat) in state["tanks"]:
            return seat, None, None
        return None, None, Text(_("there is no seat %(seat)s"), {"seat": seat})
    if squares.looks_like_square(text):
        square = squares.parse(text, state["size"])
        if square is None:
            return None, None, Text(_("%(square)s is not a square on this board"),
                                    {"square": text})
        sq = squares.name(square)
        return occupants(state).get(sq), sq, None
    found = [int(s) for s in state["tanks"] if name(state, s).casefold() == text.casefold()]
    if len(found) == 1:
        return found[0], None, None
    if found:
        return None, None, Text(_("%(name)s names more than one tank; write 'seat N'"),
                                {"name": repr(text)})
    return None, None, Text(_("no tank is called %(name)s"), {"name": repr(text)})


def _line(state: State, line: str) -> dict[str, Any]:
    words = line.split()
    low = [w.lower() for w in words]
    if low[:1] == ["move"] and len(words) == 2:
        return {"type": "move", "to": _square(state, words[1])}
    if low[:1] == ["shoot"] and len(words) in (2, 3):
        if len(words) == 3 and low[1] != "at":
            raise _Unreadable(_("write 'shoot C5'"))
        return {"type": "shoot", "at": _square(state, words[-1])}
    if low[:1] == ["give"] and len(words) >= 4 and low[2] == "to":
        gold = _amount(words[1])
        seat, sq, error = _target(state, " ".join(words[3:]))
        if error:
            raise _Unreadable(error)
        if sq is not None:
            return {"type": "give", "to": sq, "gold": gold}
        return {"type": "give", "seat": seat, "gold": gold}
    if low == ["buy", "ap"]:
        return {"type": "buy_ap"}
    if low == ["upgrade", "range"]:
        return {"type": "upgrade_range"}
    if low[:1] == ["stimulus"] and len(words) >= 2:
        return {"type": "open_ballot", "decree": "stimulus", "target": _seat(state, words[1:])}
    if low[:2] == ["grant", "life"] and len(words) >= 3:
        return {"type": "open_ballot", "decree": "grant_life", "target": _seat(state, words[2:])}
    if low[:1] == ["bounty"] and len(words) >= 4 and low[2] == "on":
        return {
            "type": "open_ballot",
            "decree": "bounty",
            "gold": _amount(words[1]),
            "target": _seat(state, words[3:]),
        }
    if low[:1] == ["vote"] and len(words) >= 3:
        ballot = _amount(words[1])
        if len(words) >= 5 and low[3] == "on":
            return {
                "type": "vote",
                "ballot": ballot,
                "gold": _amount(words[2]),
                "target": _seat(state, words[4:]),
            }
        return {"type": "vote", "ballot": ballot, "target": _seat(state, words[2:])}
    raise _Unreadable(_("not an action; %(grammar)s"), {"grammar": Text(GRAMMAR)})


GRAMMAR = _(
    "write one of: move B4, shoot C5, give 3 to C5, give 3 to Corey, buy ap, upgrade range, "
    "stimulus Corey, bounty 3 on Corey, grant life Corey, vote 7 Corey, vote 7 3 on Corey"
)


def _square(state: State, word: str) -> str:
    square = squares.parse(word, state["size"])
    if square is None:
        raise _Unreadable(_("%(square)s is not a square on this board"), {"square": word})
    return squares.name(square)


def _amount(word: str) -> int:
    if not _INT.match(word):
        raise _Unreadable(_("%(word)s is not a whole number"), {"word": repr(word)})
    return int(word)


def _seat(state: State, words: list[str]) -> int:
    seat, sq, error = _target(state, " ".join(words))
    if error:
        raise _Unreadable(error)
    if seat is None:
        raise _Unreadable(_("there is no tank on %(square)s"), {"square": sq})
    return seat


def parse_text(state: State, seat: int, text: Any) -> dict[str, Any]:
    if not isinstance(text, str):
        raise TextError([Problem("", _("The order text must be text."))])
    found: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.rstrip() == "--":
            break
        line = raw.strip()
        if not line or line.startswith(">"):
            continue
        try:
            found.append(_line(state, line))
        except _Unreadable as error:
            problems.append(Problem(f"line {number}", _("%(line)s: %(error)s."),
                                    {"line": repr(line), "error": error.text}))
    if problems:
        raise TextError(problems)
    if not found:
        raise TextError([Problem("", _("No action found; %(grammar)s."),
                                 {"grammar": Text(GRAMMAR)})])
    return {"actions": found}


def target_text(state: State, seat: int) -> str:
    """How a seat is written: its name when that reads back unambiguously, else "seat N"."""
    written = name(state, seat)
    try:
        back, _square, error = _target(state, written)
    except ValueError:
        back, error = None, Text("x")
    if error is None and back == seat and not squares.looks_like_square(written):
        return written
    return f"seat {seat}"


def action_text(state: State, action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "move":
        return f"move {action['to']}"
    if kind == "shoot":
        return f"shoot {action['at']}"
    if kind == "give":
        to = action["to"] if "to" in action else target_text(state, action["seat"])
        return f"give {action['gold']} to {to}"
    if kind == "buy_ap":
        return "buy ap"
    if kind == "upgrade_range":
        return "upgrade range"
    target = target_text(state, action["target"])
    if kind == "open_ballot":
        decree = action["decree"]
        if decree == "bounty":
            return f"bounty {action['gold']} on {target}"
        return f"grant life {target}" if decree == "grant_life" else f"stimulus {target}"
    if kind == "vote":
        if "gold" in action:
            return f"vote {action['ballot']} {action['gold']} on {target}"
        return f"vote {action['ballot']} {target}"
    raise TextError([Problem("type", _("Cannot write an action of type %(kind)s."),
                             {"kind": repr(kind)})])


def format_text(state: State, seat: int, submission: Any) -> str:
    if isinstance(submission, Mapping) and "actions" in submission:
        items = submission["actions"]
    else:
        items = [submission]
    if not isinstance(items, list) or not all(isinstance(a, Mapping) for a in items):
        raise TextError([Problem("actions", _("Expected a list of action objects."))])
    try:
        return "\n".join(action_text(state, a) for a in items) + "\n"
    except (KeyError, TypeError) as error:
        raise TextError([Problem("actions", _("An action is missing %(error)s."),
                                 {"error": str(error)})]) from None
