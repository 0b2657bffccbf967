"""A turn's events told in words, a line each."""

from __future__ import annotations

from typing import Any


def _who(seat: int, reader: int | None) -> str:
    return "You" if reader is not None and seat == reader else f"Seat {seat}"


def report(events: list[dict[str, Any]], reader: int | None) -> list[str]:
    lines = []
    for e in events:
        if not isinstance(e, dict):
            continue
        kind = e.get("type")
        seat = e.get("seat")
        who = _who(seat, reader) if isinstance(seat, int) else ""
        if kind == "barrier":
            lines.append(f"{who} placed a barrier on {e['edge']}.")
        elif kind == "close":
            lines.append(f"{who} closed {', '.join(e['squares'])}.")
        elif kind == "occupy":
            lines.append(f"{who} occupied {e['at']}.")
        elif kind == "kidnapper":
            lines.append(f"{who} placed a kidnapper on {e['at']} ({e['corner']}).")
        elif kind == "bomb":
            lines.append(f"{who} placed a bomb on {e['at']}.")
        elif kind == "capture":
            lines.append(f"{who} captured seat {e['victim']}'s troop on {e['at']}.")
        elif kind == "return":
            lines.append(f"{who} got back the troop on {e['at']}.")
        elif kind == "clear":
            if e["edges"]:
                lines.append(f"The bomb on {e['at']} removed {len(e['edges'])} barrier(s).")
        elif kind == "swap":
            lines.append(f"{who} swapped the troop on {e['at']} for a {e['for']}.")
        elif kind == "pass":
            lines.append(f"{who} could not move and was skipped.")
        elif kind == "resign":
            lines.append(f"{who} conceded and left the game.")
        elif kind == "remove":
            lines.append(f"{who} missed too many turns and left the game.")
        elif kind == "end":
            lines.append(f"The game is over: {e['reason']}.")
    return lines
