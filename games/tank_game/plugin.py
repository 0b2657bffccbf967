"""Tank Game's web plug-in: the live play area (SVG board, my action panel, the Council) on the
match page, the logbook with its slider and text export, and the player's situation in the
"gameday opened" e-mail."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from engine.tank_game import view as tank_view
from games import plugins
from games.dates import duration
from games.services.continuous import logbook_window
from games.tank_game import lessons, position, rules_page, views, words
from games.words import say

MAIL_ENTRIES = 15  # the latest logbook entries in a "gameday opened" e-mail


class TankGamePlugin(plugins.GamePlugin):
    slug = "tank-game"
    match_template = "games/tank-game/match.html"
    rules_template = "games/tank-game/rules.html"
    text_panel = False
    orders_anchor = "tank-panel"
    phase_names = {"gameday": pgettext_lazy("phase name", "gameday")}

    def lessons(self) -> list[dict[str, Any]]:
        return lessons.LESSONS

    def rules_context(self, request: Any) -> dict[str, Any]:
        return rules_page.rules_context()

    def position_words(self, state: Any, seat: int | None) -> list[str]:
        return position.position_words(self.game.view(state, seat), seat)

    def lesson_start(self, *, seats: int, options: Any, seed: int, now: Any) -> Any:
        return lessons.lesson_start(self.game, seats=seats, options=options, seed=seed, now=now)

    def lesson_board(self, state: Any, seat: int | None) -> str:
        view = views.named(self.game.view(state, seat))
        return render_to_string("games/tank-game/partials/board_svg.html",
                                {"svg": views.board_svg_context(view, me=seat)})

    def play_board(self, state: Any, seat: int, *, now: Any, check_url: str) -> str:
        return render_to_string("games/tank-game/partials/play_board.html",
                                views.sandbox_play_context(self.game, state, seat, now))

    def board_sheet(self, state: Any, seat: int, handed: Any) -> Any:
        """The action panel's form, read as on the match page."""
        return views.action_from_post({k: str(v) for k, v in handed.items()})

    def match_urls(self) -> list[URLPattern]:
        return [
            path("act/", views.act, name="tank_act"),
            path("play/", views.play, name="tank_play"),
            path("logbook/", views.logbook, name="tank_logbook"),
            path("logbook.txt", views.logbook_text, name="tank_logbook_text"),
            path("logbook/entries/", views.logbook_entries, name="tank_logbook_entries"),
        ]

    def page_context(self, request: Any, match: Any, context: dict[str, Any]) -> dict[str, Any]:
        """The play area, drawn with the page (no extra request): board, panel, Council; and
        the latest page of the logbook."""
        if match.state is None:
            return {}
        play = views.play_context(request, match)
        if play.get("missing"):
            return {}
        log = views.logbook_context(match, play["game"], play["seat"])
        return {key: value for key, value in play.items()
                if key not in ("match", "game", "my_seat")} | log

    def message_channels(self, match: Any) -> list[plugins.GameChannel]:
        """The Council (the dead and destroyed tanks) talks in a channel of its own; its
        members are public (every seat's view lists them)."""
        if match.state is None:
            return []
        members = self.game.view(match.state, None).get("council", {}).get("members", [])
        # (a lazy name: a notice is worded in each reader's language, after this is asked)
        return [plugins.GameChannel("council", gettext_lazy("Council"),
                                    frozenset(int(m["seat"]) for m in members))]

    def orders_hint(self, state: Any, seat: int) -> str:
        return _("One action per line, e.g. “move B4”, “shoot C5”, “give 3 to C5” or “buy ap”; "
                 "each is applied at once.")

    def pace(self, match: Any) -> str:
        """The gameday schedule (a Tank Game match has no phases to pace): "a gameday every
        2 minutes", or the daily window."""
        schedule = (match.options or {}).get("schedule") or {}
        if schedule.get("kind") == "every":
            return _("a gameday every %(span)s") % {
                "span": duration(timedelta(minutes=int(schedule.get("minutes") or 0)))}
        if schedule.get("open") and schedule.get("close"):
            return _("gamedays open %(open)s to %(close)s (%(zone)s) on the days chosen") % {
                "open": schedule["open"], "close": schedule["close"],
                "zone": schedule.get("time_zone") or "UTC"}
        return _("gamedays on a schedule")

    def progress_label(self, match: Any) -> str:
        """Its one continuous phase runs all match long: its number says nothing (the
        gameday's number is on the match page)."""
        return _("gamedays under way")

    def seat_hostility(self, match: Any) -> dict[tuple[int, int], tuple[int, int]]:
        """Replayed from the logbook: for each action of a seat's tank, the rivals it could
        have shot at then (``rivals_in_reach``) and the one it shot at, if any."""
        from collections import Counter

        from engine.tank_game.legal import rivals_in_reach, shot_at
        from games.services.continuous import logbook_inputs

        game = self.game
        state = game.start(match.seats.count(), match.options, match.seed)
        could: Counter[tuple[int, int]] = Counter()
        did: Counter[tuple[int, int]] = Counter()
        for entry, after, _events in game.replay_steps(state, match.seed,
                                                       logbook_inputs(match)):
            seat = entry.get("seat")
            if entry.get("kind") == "action" and isinstance(seat, int):
                for rival in rivals_in_reach(state, seat):
                    could[(seat, rival)] += 1
                target = shot_at(state, entry.get("action"))
                if target is not None:
                    did[(seat, target)] += 1
            state = after
        return {pair: (could[pair], did[pair]) for pair in could.keys() | did.keys()}

    def your_move_context(self, match: Any, seat: Any, state: Any) -> dict[str, Any]:
        """The player's situation and the latest logbook entries, read from a window of the
        logbook's rows (older ones are a link away, on the logbook page)."""
        # one query for all the gameday's mails of a match (they share the Match object)
        window = getattr(match, "_latest_logbook", None)
        if window is None:
            window = match._latest_logbook = logbook_window(match=match, limit=MAIL_ENTRIES)
        rows = views.logbook_rows(self.game, window, seat.number)
        lines = [tank_view.log_line(state["options"], {"at": row["at"].isoformat(), "text": text})
                 for row in reversed(rows) if not row["struck"] for text in row["texts"]]
        return {"situation": situation_lines(self.game.view(state, seat.number)),
                "logbook_lines": lines[-MAIL_ENTRIES:],
                "logbook_url": settings.SITE_URL + reverse("games:tank_logbook",
                                                           args=[match.pk])}


def situation_lines(view: dict[str, Any]) -> list[str]:
    """The player's own tank and Council standing, from their view only."""
    me = view.get("me") or {}
    lines = []
    tank = next((t for t in view.get("tanks") or [] if t.get("seat") == me.get("seat")), None)
    if tank is not None:
        values = {key: tank.get(key) for key in ("at", "lives", "ap", "gold", "range",
                                                 "bounty")}
        values["name"] = say(tank.get("name"))
        if tank.get("status") == "alive":
            line = ngettext("Your tank %(name)s is at %(at)s: %(lives)s life, %(ap)s AP, "
                            "%(gold)s gold, range %(range)s",
                            "Your tank %(name)s is at %(at)s: %(lives)s lives, %(ap)s AP, "
                            "%(gold)s gold, range %(range)s", tank.get("lives") or 0) % values
            lines.append(_("%(line)s, bounty %(bounty)s.") % {**values, "line": line}
                         if tank.get("bounty") else f"{line}.")
        else:
            lines.append(_("Your tank %(name)s is %(status)s.") % {
                "name": values["name"], "status": words.status_word(tank.get("status"))})
    council = view.get("council") or {}
    member = next((m for m in council.get("members") or [] if m.get("seat") == me.get("seat")),
                  None)
    if member is not None:
        lines.append(_("You sit on the Council (%(role)s, weight %(weight)s); the coffer holds "
                       "%(coffer)s gold.") % {"role": words.role_word(member.get("role")),
                                              "weight": member.get("weight"),
                                              "coffer": council.get("coffer")})
    open_ballots = [b for b in council.get("ballots") or [] if b.get("status") == "open"]
    if open_ballots:
        lines.append(_("Open ballots: %(ballots)s") % {"ballots": ", ".join(
            f"#{b.get('id')} {words.decree_word(b.get('decree'))}" for b in open_ballots)})
    return lines


plugins.register(TankGamePlugin())
