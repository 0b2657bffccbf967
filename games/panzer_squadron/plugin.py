"""Panzer Squadron's web plug-in: the SVG hex board, the two-step activation panel, the
standing-reactions panel (secret: only its author sees it), replay frames with the dice, the
rules page with diagrams, and the player's situation in the "your move" e-mail."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from engine import Problem
from engine.panzer_squadron.hexes import FACINGS
from engine.panzer_squadron.rules import ACTIONS
from games import plugins
from games.panzer_squadron import lessons, position, rules_page, views, words
from games.panzer_squadron.board import board_svg, legend
from games.words import problem_message


class PanzerSquadronPlugin(plugins.GamePlugin):
    slug = "panzer-squadron"
    match_template = "games/panzer-squadron/match.html"
    rules_template = "games/panzer-squadron/rules.html"
    board_template = "games/panzer-squadron/board.html"
    text_panel = False  # the activation panel and the board; the grammar is on demand
    orders_anchor = "ps-activation"
    seat_names = {1: pgettext_lazy("seat name", "South"), 2: pgettext_lazy("seat name", "North")}
    plan_example = pgettext_lazy(
        "plan example", "A planned move is a whole activation on one line, its path given "
        "before the roll: “if North: activate H2 ambush then activate M1 move; path f2 12, "
        "f3 12; end moving”. If the roll cannot pay for the path, the tank takes the shortest "
        "path the rules allow and your plan is cleared.")
    phase_names = {"activate": pgettext_lazy("phase name", "activation"),
                   "path": pgettext_lazy("phase name", "path")}

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
        extra["panels"] = views.panels(request, match, seat)
        extra["board"] = views.panel_context(match, seat)["board"]
        extra["ps_legend"] = legend()
        return extra

    def plan_builder(self, match: Any, state: Any, seat: int, *,
                     others: list[dict[str, Any]], lines: list[dict[str, Any]]) -> str:
        """A branch of the plan built on a board of its own (static/panzer-squadron/plan.js):
        the other seat's expected activation, then the reply, each a tank, an action and hexes
        clicked (or keyed) for the path or the target. Drawn from the seat's own view, as the
        page's board is; the activations are not played on it (their legality is only known
        when they are played)."""
        view = self.game.view(state, seat)
        tanks = [{"name": t["name"], "seat": t["seat"], "side": self.seat_name(t["seat"])}
                 for t in view["tanks"] if t["alive"]]
        return render_to_string("games/panzer-squadron/plan_builder.html", {
            "match": match, "seat": seat, "others": others, "lines": lines,
            "to_move": view.get("to_move"), "tanks": tanks,
            "actions": [(action, words.action_word(action)) for action in ACTIONS],
            "facings": FACINGS,
            "board_svg": board_svg(view, seat, interactive=True, open_hexes=True,
                                   label=_("The board of the branch you are building"))})

    def orders_hint(self, state: Any, seat: int) -> str:
        if state.get("phase") == "path":
            return _("The path of the tank, its steps separated by commas, e.g. “path c3 12, "
                     "c4 2, turn 4”; for a move and fire, a line “fire e7” too.")
        return _("The tank to activate and what it does, e.g. “activate H1 move” or "
                 "“activate H1 fire e7”.")

    def board_html(self, match: Any, state: Any, seat: int | None) -> str:
        view = self.game.view(state, seat)
        return str(board_svg(view, seat)) + str(legend())

    def play_board(self, state: Any, seat: int, *, now: Any, check_url: str) -> str:
        """The board and the activation panel; for a seat with nothing else to do (the
        other side moves: a lesson about reactions), its standing reactions."""
        context = views.position_context(state, seat, active=True)
        if context["my_turn"]:
            context.pop("reaction_rows", None)
        return render_to_string("games/panzer-squadron/play_board.html",
                                {**context, "sandbox": True})

    def board_sheet(self, state: Any, seat: int, handed: Any) -> Any:
        """The panels' forms, read as on the match page: the standing reactions, the action
        chosen, or the path (with its target and end) once the dice are rolled."""
        if any(str(name).startswith("mode_") for name in handed):
            names = [t["name"] for t in state.get("tanks", []) if t["seat"] == seat]
            return views.reactions_from_post(handed, names)
        if state.get("phase") == "path":
            return views.path_from_post(handed)
        return views.activation_from_post(handed)

    def your_move_context(self, match: Any, seat: Any, state: Any) -> dict[str, Any]:
        return {"situation": situation_lines(self.game.view(state, seat.number))}

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        return words.event_lines(events, seat)

    def rules_context(self, request: Any) -> dict[str, Any]:
        return rules_page.rules_context()

    def lessons(self) -> list[dict[str, Any]]:
        return lessons.LESSONS

    def position_words(self, state: Any, seat: int | None) -> list[str]:
        return position.position_words(self.game.view(state, seat), seat)

    def problem_lines(self, problems: Iterable[Problem], text: str) -> list[str]:
        """Each problem names the line of the reply it is about: the grammar's ``clause N``
        (clauses are split by lines and by ";"), or the clause keyword of the field."""
        return problem_lines(problems, text)


KEYWORD = {"path": "path", "target": "fire", "end": "end", "activate": "activate",
           "action": "activate", "seat": "activate", "reactions": "reaction"}


def problem_lines(problems: Iterable[Problem], text: str) -> list[str]:
    clause_line: dict[int, int] = {}
    clauses: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        for part in line.split(";"):
            clauses.append((number, part.strip().lower()))
            clause_line[len(clauses)] = number
    out = []
    for problem in problems:
        where = problem.path or ""
        number = None
        if where.startswith("clause ") and where[7:].isdigit():
            number = clause_line.get(int(where[7:]))
        else:
            parts = where.split(".")
            word = KEYWORD.get(parts[0])
            for line_number, clause in clauses:
                words = clause.split()
                if word and words and words[0] == word and (
                        parts[0] != "reactions" or len(parts) < 2
                        or (len(words) > 1 and words[1] == parts[1].lower())):
                    number = line_number
                    break
        label = (_("Line %(number)s") % {"number": number} if number
                 else where or _("The orders"))
        out.append(_("%(where)s: %(problem)s") % {"where": label,
                                                  "problem": problem_message(problem)})
    return out


def situation_lines(view: dict[str, Any]) -> list[str]:
    """The rolled points of an open path phase, and what each of my tanks may do."""
    lines = []
    pending = view.get("pending")
    if pending:
        dice = " + ".join(str(d) for d in pending["dice"])
        lines.append(ngettext(
            "Your %(tank)s chose %(action)s: the dice show %(dice)s, %(points)s movement point. "
            "Reply with its path (and target).",
            "Your %(tank)s chose %(action)s: the dice show %(dice)s, %(points)s movement "
            "points. Reply with its path (and target).", pending["points"]) % {
            "tank": pending["tank"], "action": words.action_word(pending["action"]),
            "dice": dice, "points": pending["points"]})
    mine = [t for t in view.get("tanks", []) if t["name"] in view.get("reactions", {})]
    for t in mine:
        if not t["alive"]:
            continue
        r = view["reactions"][t["name"]]
        values = {"tank": t["name"], "card": words.card_word(t["card"]), "at": t["at"],
                  "facing": t["facing"], "state": words.state_word(t["state"]),
                  "reaction": words.reaction_word(r["mode"]), "range": r.get("max_range")}
        if t["activated"] and r.get("max_range"):
            line = _("%(tank)s (%(card)s) on %(at)s facing %(facing)s o'clock, %(state)s, "
                     "activated; standing reaction: %(reaction)s, up to %(range)s hexes.")
        elif t["activated"]:
            line = _("%(tank)s (%(card)s) on %(at)s facing %(facing)s o'clock, %(state)s, "
                     "activated; standing reaction: %(reaction)s.")
        elif r.get("max_range"):
            line = _("%(tank)s (%(card)s) on %(at)s facing %(facing)s o'clock, %(state)s; "
                     "standing reaction: %(reaction)s, up to %(range)s hexes.")
        else:
            line = _("%(tank)s (%(card)s) on %(at)s facing %(facing)s o'clock, %(state)s; "
                     "standing reaction: %(reaction)s.")
        lines.append(line % values)
    return lines


plugins.register(PanzerSquadronPlugin())
