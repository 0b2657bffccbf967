"""What the analysis page shows of one position: the board as a spectator or a seat sees it,
what the moves into it did, the tree of positions, and the order forms for whoever must act."""

from __future__ import annotations

import copy
import json
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from analysis import services
from analysis.models import Analysis
from engine import PhaseKind
from engine.ending import by_rules
from games import plugins
from games.endings import ending_sentence


def context(request: HttpRequest, analysis: Analysis, node_id: int, seat: int | None, *,
            posted: dict[int, str] | None = None,
            error: services.AnalysisError | None = None) -> dict[str, Any]:
    here = services.node(analysis, node_id)
    game = services.game_for(analysis.game)
    plugin = plugins.plugin_for(analysis.game)
    state = here["state"]
    children = [n for n in analysis.nodes if n["parent"] == node_id]
    result = game.result(state)
    prompts = {} if result is not None else game.prompts(state)
    kind = next(iter(prompts.values())).kind.value if prompts else ""
    is_owner = request.user.is_authenticated and analysis.owner_id == request.user.pk
    # The game's own clickable board and order panel, for the owner seeing the position as a
    # seat that must act (its view only, like the board); a spectator's page offers the seats.
    play_board = ""
    if is_owner and result is None and seat is not None and seat in prompts:
        play_board = plugin.play_board(
            copy.deepcopy(state), seat, now=datetime.fromisoformat(here["at"]),
            check_url=reverse("analysis:check", args=[analysis.token])
            + f"?node={node_id}&seat={seat}")
    view = game.view(state, seat)
    return {
        "analysis": analysis,
        "game": game,
        "node": here,
        "node_id": node_id,
        "parent": here["parent"],
        "children": children,
        "next_id": children[0]["id"] if children else None,
        "tree": tree_rows(analysis.nodes),
        "seat": seat,
        "seat_name": plugin.seat_name(seat) if seat is not None else "",
        "seat_choices": [(n, game.seat_name(n)) for n in range(1, analysis.seats + 1)],
        "board": "" if play_board else plugin.lesson_board(state, seat),
        "play_board": play_board,
        "play_seats": [(n, plugin.seat_name(n)) for n in sorted(prompts)]
        if is_owner and plugin.has_play_board() and not play_board else [],
        "view_json": json.dumps(view, indent=2, sort_keys=True),
        "story": plugin.round_report(here["events"], seat) if here["events"] else [],
        "moves": [(game.seat_name(int(s)), text) for s, text in sorted(
            here["moves"].items(), key=lambda item: int(item[0]))],
        "result": result,
        "result_text": result_text(game, result) if result else "",
        "kind": kind,
        "is_owner": is_owner,
        "forms": seat_forms(game, plugin, state, prompts, posted or {}) if is_owner else [],
        "ticks": is_owner and result is None and kind == PhaseKind.CONTINUOUS.value and
        services.has_ticks(game, state, here["at"]),
        "share_url": request.build_absolute_uri(
            reverse("analysis:detail", args=[analysis.token])),
        "error": error,
        "board_css": plugin.board_stylesheet(),
    }


def next_player(analysis: Analysis, node_id: int, played: int | None) -> int | None:
    """Who plays on from position ``node_id`` after ``played`` played into it: ``played``
    while it may still act, else the first seat asked to, else ``played``."""
    state = services.node(analysis, node_id)["state"]
    game = services.game_for(analysis.game)
    prompts = {} if game.result(state) is not None else game.prompts(state)
    if played in prompts or not prompts:
        return played
    return min(prompts)


def seat_forms(game: Any, plugin: Any, state: Any, prompts: dict[int, Any],
               posted: dict[int, str]) -> list[dict[str, Any]]:
    """A textarea per seat asked to act, with the grammar's help and an example."""
    forms = []
    for seat in sorted(prompts):
        forms.append({
            "seat": seat,
            "name": game.seat_name(seat),
            "text": posted.get(seat, ""),
            "help": plugin.orders_help(state, seat),
            "example": plugins.example_text(game, state, seat),
            "required": prompts[seat].required,
        })
    return forms


def tree_rows(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tree in reading order (depth first), each position with its depth."""
    children: dict[int | None, list[dict[str, Any]]] = {}
    for n in nodes:
        children.setdefault(n["parent"], []).append(n)
    rows: list[dict[str, Any]] = []
    stack = [(n, 0) for n in reversed(children.get(None, []))]
    while stack:
        n, depth = stack.pop()
        rows.append({"id": n["id"], "label": n["label"], "depth": depth,
                     "branches": len(children.get(n["id"], []))})
        stack.extend((c, depth + 1) for c in reversed(children.get(n["id"], [])))
    return rows


def result_text(game: Any, result: Any) -> str:
    """The analysed position's result, its reason worded as on every surface (an ending by
    the rules: ``games.endings``)."""
    from django.utils.translation import gettext as _

    reason = ending_sentence(game.slug, by_rules(result, game.phrasebook))
    if result.is_draw:
        return _("Game over: a draw (%(reason)s).") % {"reason": reason}
    winners = ", ".join(plugins.seat_name(game.slug, s) for s in result.winners)
    return _("Game over: %(winners)s won (%(reason)s).") % {"winners": winners,
                                                           "reason": reason}
