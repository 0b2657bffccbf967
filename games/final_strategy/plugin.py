"""Final Strategy's web plug-in: an SVG board the player builds a turn on (each step checked
by the engine as it is made, the turn sealed as soon as it ends), the bunkers and scores panel,
the replay (the generic frames with this board), the rules page in English and French."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils.translation import gettext as _

from games import plugins
from games.final_strategy import views, words
from games.final_strategy.board import SEAT_COLOURS, board_context


class FinalStrategyPlugin(plugins.GamePlugin):
    slug = "final-strategy"
    rules_template = "games/final-strategy/rules.html"

    def match_urls(self) -> list[URLPattern]:
        return [
            path("seats/<int:seat_number>/check/", views.turn_check, name="fs_turn_check"),
            path("seats/<int:seat_number>/turn/", views.turn_submit, name="fs_turn_submit"),
        ]

    def board_html(self, match: Any, state: Any, seat: int | None) -> str:
        view = self.game.view(state, seat)
        must_act = (seat is not None and view["to_move"] == seat
                    and getattr(match, "status", "") == "active")
        return render_to_string("games/final-strategy/board.html", {
            **board_context(view, interactive=must_act),
            "board_id": "fs-board" if must_act else f"fs-board-{view['turn']}",
            "view": view, "match": match, "seat": seat, "must_act": must_act,
            "phase_number": getattr(match, "phase_number", None),
            "board_text": words.board_text(view),
            "seat_rows": _seat_rows(view, seat),
        })

    def board_text(self, state: Any, seat: int | None) -> str:
        return words.board_text(self.game.view(state, seat))

    def orders_help(self, state: Any, seat: int) -> str:
        return words.orders_help()

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        return words.event_lines(events, seat)

    def rules_context(self, request: Any) -> dict[str, Any]:
        return {**super().rules_context(request), "colours": SEAT_COLOURS}

    def your_move_context(self, match: Any, seat: Any, state: Any) -> dict[str, Any]:
        view = self.game.view(state, seat.number)
        bunker = view["bunkers"].get(str(seat.number), {})
        situation = []
        if "troops" in bunker:
            situation.append(_("Your bunker: %(troops)s troops, %(kidnappers)s kidnappers, "
                               "%(bombs)s bombs.") % bunker)
        situation.append(_("Scores: %(scores)s.") % {"scores": ", ".join(
            _("seat %(seat)s: %(score)s") % {"seat": s, "score": v}
            for s, v in sorted(view["scores"].items()))})
        return {"situation": situation}


def _seat_rows(view: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    rows = []
    for s in range(1, view["seats"] + 1):
        key = str(s)
        bunker = view["bunkers"].get(key, {"count": 0})
        rows.append({"seat": s, "colour": SEAT_COLOURS[s], "count": bunker["count"],
                     "split": bunker if "troops" in bunker else None,
                     "score": view["scores"].get(key, 0),
                     "prisoners": sum(view["prisoners"].get(key, {}).values()),
                     "to_move": view["to_move"] == s, "removed": s in view["removed"],
                     "mine": s == seat})
    return rows


plugins.register(FinalStrategyPlugin())
