"""Panzer Squadron's web plug-in: the SVG hex board, the two-step activation panel, the
standing-reactions panel (secret: only its author sees it), replay frames with the dice, the
rules page with diagrams, and the player's situation in the "your move" e-mail."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path

from games import plugins
from games.panzer_squadron import rules_page, views
from games.panzer_squadron.board import board_svg, legend


class PanzerSquadronPlugin(plugins.GamePlugin):
    slug = "panzer-squadron"
    match_template = "games/panzer-squadron/match.html"
    rules_template = "games/panzer-squadron/rules.html"
    board_template = "games/panzer-squadron/board.html"

    def match_urls(self) -> list[URLPattern]:
        return [
            path("activate/", views.activate, name="ps_activate"),
            path("path/", views.path, name="ps_path"),
            path("reactions/", views.reactions, name="ps_reactions"),
        ]

    def page_context(self, request: Any, match: Any, context: dict[str, Any]) -> dict[str, Any]:
        extra = super().page_context(request, match, context)
        if match.state is None:
            return extra
        seat = context["my_seat"].number if context.get("my_seat") is not None else None
        extra["panels"] = views.panels(match, seat)
        extra["board"] = views.panel_context(match, seat)["board"]
        extra["ps_legend"] = legend()
        return extra

    def board_html(self, match: Any, state: Any, seat: int | None) -> str:
        view = self.game.view(state, seat)
        return str(board_svg(view, seat)) + str(legend())

    def your_move_context(self, match: Any, seat: Any, state: Any) -> dict[str, Any]:
        return {"situation": situation_lines(self.game.view(state, seat.number))}

    def rules_context(self, request: Any) -> dict[str, Any]:
        return rules_page.rules_context()


def situation_lines(view: dict[str, Any]) -> list[str]:
    """The rolled points of an open path phase, and what each of my tanks may do."""
    lines = []
    pending = view.get("pending")
    if pending:
        dice = "+".join(str(d) for d in pending["dice"])
        lines.append(f"Your {pending['tank']} chose {pending['action']}: the dice show {dice}, "
                     f"{pending['points']} movement points. Reply with its path (and target).")
    mine = [t for t in view.get("tanks", []) if t["name"] in view.get("reactions", {})]
    for t in mine:
        if not t["alive"]:
            continue
        r = view["reactions"][t["name"]]
        rng = f", max range {r['max_range']}" if r.get("max_range") else ""
        lines.append(f"{t['name']} ({t['card']}) on {t['at']} facing {t['facing']}, "
                     f"{t['state']}{', activated' if t['activated'] else ''}; "
                     f"standing reaction {r['mode']}{rng}.")
    return lines


plugins.register(PanzerSquadronPlugin())
