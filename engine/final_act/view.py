"""What a seat (or a spectator) may see: the only road from the state to a page or an email.

``view(state, seat)``::

    {"phase": "setup" | "orders" | "over", "round": n, "seat": seat or None,
     "units": [{"seat", "name", "kind", "at", "facing", "hits", "status"}],
     "terrain": [terrain pieces as in a scenario],
     "breakthroughs": {"1": n, "2": n},
     "tokens": {"1": [unused token names]},         # only the sides this viewer may know
     "token_counts": {"1": n, "2": n},               # unused tokens per side, always
     "board_tokens": [{"token", "seat", "at", "round"}],   # smoke, quick sand, mines, red cross
     "used": {"1": {"double_shot", "repair", "r_repairs"}, "2": ...},
     "repairing": [{"seat", "tank", "round"}],
     "officer_lost": {"1": round or 0, "2": ...},
     "last_round": [events of the last resolution], "round_limit": n, "options": {...},
     "result": {"winner": 1 | 2 | None, "reason": str} (when over)}

``status`` is ok, damaged, out, wreck, broke_through or repairing. During setup the state holds
no placements at all (sealed setups live with the portal until both are in), so nobody sees any.
The other side's unused tokens are shown by name only in the "all" token mode.
"""

from __future__ import annotations

from typing import Any

from engine.final_act import board

State = dict[str, Any]


def unit_status(state: State, unit: dict[str, Any]) -> str:
    if unit["state"] != "active":
        return str(unit["state"])
    repairing = [
        r for r in state["repairing"] if r["round"] == state["round"] and r["seat"] == unit["seat"]
    ]
    if any(r["tank"] == unit["name"] for r in repairing) or (unit["kind"] == "r" and repairing):
        return "repairing"
    return "damaged" if unit["hits"] and unit["kind"] == "tank" else "ok"


def view(state: State, seat: int | None) -> dict[str, Any]:
    options = state["options"]
    public_tokens = bool(options.get("tokens")) and options["tokens"]["mode"] == "all"
    tokens = {
        str(s): list(state["tokens"][str(s)])
        for s in board.SEATS
        if s == seat or (public_tokens and state["phase"] != "setup")
    }
    result: dict[str, Any] = {
        "phase": state["phase"],
        "round": state["round"],
        "seat": seat,
        "units": [
            {
                "seat": u["seat"],
                "name": u["name"],
                "kind": u["kind"],
                "at": u["at"],
                "facing": u["facing"],
                "hits": u["hits"],
                "status": unit_status(state, u),
            }
            for u in state["units"]
        ],
        "terrain": [dict(t) for t in state["terrain"]],
        "breakthroughs": dict(state["breakthroughs"]),
        "tokens": tokens,
        "token_counts": {str(s): len(state["tokens"][str(s)]) for s in board.SEATS},
        "board_tokens": [dict(t) for t in state["board_tokens"]],
        "used": {k: dict(v) for k, v in state["used"].items()},
        "repairing": [dict(r) for r in state["repairing"]],
        "officer_lost": dict(state["officer_lost"]),
        "last_round": [dict(e) for e in state["last_round"]],
        "round_limit": options["round_limit"],
        "options": {k: v for k, v in options.items() if k != "scenario"},
    }
    if state["result"] is not None:
        result["result"] = dict(state["result"])
    return result
