"""Tank Game's web plug-in: the live play area (SVG board, my action panel, the Council) on the
match page, the logbook with its slider and text export, and the player's situation in the
"gameday opened" e-mail."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path

from games import plugins
from games.tank_game import views


class TankGamePlugin(plugins.GamePlugin):
    slug = "tank-game"
    match_template = "games/tank-game/match.html"
    text_panel = False

    def match_urls(self) -> list[URLPattern]:
        return [
            path("act/", views.act, name="tank_act"),
            path("play/", views.play, name="tank_play"),
            path("logbook/", views.logbook, name="tank_logbook"),
            path("logbook.txt", views.logbook_text, name="tank_logbook_text"),
        ]

    def page_context(self, request: Any, match: Any, context: dict[str, Any]) -> dict[str, Any]:
        """The play area, drawn with the page (no extra request): board, panel, Council."""
        if match.state is None:
            return {}
        play = views.play_context(request, match)
        return {key: value for key, value in play.items()
                if key not in ("match", "game", "my_seat")}

    def your_move_context(self, match: Any, seat: Any, state: Any) -> dict[str, Any]:
        return {"situation": situation_lines(self.game.view(state, seat.number))}


def situation_lines(view: dict[str, Any]) -> list[str]:
    """The player's own tank and Council standing, from their view only."""
    me = view.get("me") or {}
    lines = []
    tank = next((t for t in view.get("tanks") or [] if t.get("seat") == me.get("seat")), None)
    if tank is not None:
        if tank.get("status") == "alive":
            lines.append(f"Your tank {tank.get('name')} is at {tank.get('at')}: "
                         f"{tank.get('lives')} lives, {tank.get('ap')} AP, {tank.get('gold')} "
                         f"gold, range {tank.get('range')}"
                         + (f", bounty {tank.get('bounty')}." if tank.get("bounty") else "."))
        else:
            lines.append(f"Your tank {tank.get('name')} is {tank.get('status')}.")
    council = view.get("council") or {}
    member = next((m for m in council.get("members") or [] if m.get("seat") == me.get("seat")),
                  None)
    if member is not None:
        lines.append(f"You sit on the Council ({member.get('role')}, weight "
                     f"{member.get('weight')}); the coffer holds {council.get('coffer')} gold.")
    open_ballots = [b for b in council.get("ballots") or [] if b.get("status") == "open"]
    if open_ballots:
        lines.append("Open ballots: " + ", ".join(
            f"#{b.get('id')} {str(b.get('decree')).replace('_', ' ')}" for b in open_ballots))
    return lines


plugins.register(TankGamePlugin())
