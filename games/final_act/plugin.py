"""Final Act's web plug-in: its match page (board, setup and order panels, round report), its
replay frames, option widgets, rules page with diagrams, and the e-mail's line finder."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.urls import URLPattern, path
from django.utils.translation import gettext as _

from engine import Option, Problem, RuleError
from games import plugins
from games.final_act import lessons, options_form, position, rules, setup_views, views
from games.final_act.board import render_board
from games.final_act.sheet_panel import sheet_from_fields
from games.words import problem_message


class FinalActPlugin(plugins.GamePlugin):
    slug = "final-act"
    match_template = "games/final-act/match.html"
    text_panel = False
    rules_template = "games/final-act/rules.html"
    replay_template = "games/final-act/replay.html"
    replay_anchor = "fa-report"
    orders_anchor = "fa-play-side"

    def option_field(self, option: Option, **kwargs: Any) -> Any:
        if option.widget == "action-tokens":
            return options_form.TokensField(**kwargs)
        return None

    def match_urls(self) -> list[URLPattern]:
        return [
            path("seats/<int:seat_number>/sheet/validate/", views.sheet_validate,
                 name="fa_sheet_validate"),
            path("seats/<int:seat_number>/sheet/submit/", views.sheet_submit,
                 name="fa_sheet_submit"),
            path("seats/<int:seat_number>/setup/validate/", setup_views.validate,
                 name="fa_setup_validate"),
            path("seats/<int:seat_number>/setup/", setup_views.submit, name="fa_setup_submit"),
        ]

    def page_context(self, request: Any, match: Any, context: dict[str, Any]) -> dict[str, Any]:
        return views.page_context(request, match, context)

    def orders_hint(self, state: Any, seat: int) -> str:
        if state.get("phase") == "setup":
            return _("One piece per line, e.g. “large berm c3 d3”, “swamp a5 b5 a6 b6” or "
                     "“C e1 N” (a unit, its square, its facing).")
        return _("One line per unit: its name, its move, “turn” after a diagonal move, then "
                 "“fire” and a square, e.g. “C FL turn fire e7” or “1A stay”.")

    def replay_frame(self, match: Any, seat: int | None, phase: Any, resolved: list[Any],
                     state_after: Any) -> dict[str, Any]:
        return views.replay_context(match, self.game, seat, phase, resolved, state_after)

    def rules_context(self, request: Any) -> dict[str, Any]:
        return rules.rules_context()

    def lessons(self) -> list[dict[str, Any]]:
        return lessons.LESSONS

    def position_words(self, state: Any, seat: int | None) -> list[str]:
        return position.position_words(self.game.view(state, seat), seat)

    def lesson_board(self, state: Any, seat: int | None) -> str:
        view = self.game.view(state, seat)
        return str(render_board(view, seat=seat, board_id=f"lesson-board-{view['round']}"))

    def play_board(self, state: Any, seat: int, *, now: Any, check_url: str) -> str:
        """The order sheet on the live board, as on the match page (a round's orders; the
        setup is typed)."""
        if state.get("phase") != "orders" or seat not in self.game.prompts(state):
            return ""
        return views.sandbox_board(self.game, state, seat, check_url)

    def play_check(self, state: Any, seat: int, data: Any, *, check_url: str) -> str:
        if state.get("phase") != "orders":
            raise RuleError(_("This game checks nothing here."))
        return views.sandbox_check(self.game, state, seat, data, check_url)

    def board_sheet(self, state: Any, seat: int, handed: Any) -> Any:
        """The order sheet's fields, read as on the match page."""
        return sheet_from_fields(handed, self.game.legal_actions(state, seat))

    def problem_lines(self, problems: Iterable[Problem], text: str) -> list[str]:
        """Each problem names its line, found by the unit or token it is about (a sheet's
        paths are ``units.<name>...``, ``tokens.<token>...``, ``declare.<what>``)."""
        lines = text.split("\n")

        def find(word: str) -> int | None:
            word = word.lower().replace("_", " ")
            for number, line in enumerate(lines, 1):
                words = line.lower().replace("_", " ").replace(",", " ").split()
                joined = " ".join(words)
                if words and (words[0] == word or f" {word} " in f" {joined} "):
                    return number
            return None

        out = []
        for problem in problems:
            where = problem.path or ""
            if where.startswith("line "):
                out.append(plugins.problem_line(where, problem_message(problem)))
                continue
            parts = where.split(".")
            number = find(parts[1]) if len(parts) > 1 and parts[0] in (
                "units", "tokens", "declare") else None
            out.append(plugins.problem_line(f"line {number}" if number else where,
                                            problem_message(problem)))
        return out


plugins.register(FinalActPlugin())
