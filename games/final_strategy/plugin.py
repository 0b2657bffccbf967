"""Final Strategy's web plug-in: an SVG board the player builds a turn on (each step checked
by the engine as it is made, the turn sealed as soon as it ends), the bunkers and scores panel,
the replay (the generic frames with this board), the rules page in English and French."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from django.template.loader import render_to_string
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from engine import Problem, RuleError
from engine.jsontext import read_json
from games import plugins
from games.final_strategy import lessons, views, words
from games.final_strategy import position as told
from games.final_strategy.board import SEAT_COLOURS, board_context
from games.words import stored

_PICTURES = itertools.count(1)


class FinalStrategyPlugin(plugins.GamePlugin):
    slug = "final-strategy"
    rules_template = "games/final-strategy/rules.html"
    text_panel = False  # the turn is built on the board; the grammar is on demand
    orders_anchor = "fs-builder"
    seat_names = {1: pgettext_lazy("seat name", "Red"), 2: pgettext_lazy("seat name", "Blue"),
                  3: pgettext_lazy("seat name", "Green"),
                  4: pgettext_lazy("seat name", "Yellow")}

    def match_urls(self) -> list[URLPattern]:
        return [
            path("seats/<int:seat_number>/check/", views.turn_check, name="fs_turn_check"),
            path("seats/<int:seat_number>/turn/", views.turn_submit, name="fs_turn_submit"),
        ]

    def board_html(self, match: Any, state: Any, seat: int | None) -> str:
        return self.board_for(match, state, seat, live=True)

    def play_board(self, state: Any, seat: int, *, now: Any, check_url: str) -> str:
        """The turn builder on a position of no match: the same board and panel, whose live
        checks go to ``check_url`` and whose finished turn goes to the page."""
        return self.board_for(None, state, seat, live=True, check_url=check_url)

    def play_check(self, state: Any, seat: int, data: Any, *, check_url: str
                   ) -> dict[str, Any]:
        try:
            steps = read_json(data.get("steps", ""))
        except ValueError:  # (JSONLimitError too: too long or too deep)
            steps = None
        if not isinstance(steps, list):
            raise RuleError(_("The steps must be a JSON list."), "steps")
        return views.steps_checked(self.game, state, seat, steps)

    def replay_frame(self, match: Any, seat: int | None, phase: Any, resolved: list[Any],
                     state_after: Any) -> dict[str, Any]:
        """The generic frame with a board that takes no turn: the position after a phase,
        even one where the viewer is to move, is a picture on the replay."""
        frame = super().replay_frame(match, seat, phase, resolved, None)
        if state_after is not None:
            frame["board"] = self.board_for(match, state_after, seat, live=False)
        return frame

    def board_for(self, match: Any, state: Any, seat: int | None, *, live: bool,
                  check_url: str = "") -> str:
        """The board as ``seat`` sees it; on the ``live`` page of the seat to move, the board
        the turn is built on (one per page: its ids are the turn builder's). With a
        ``check_url``, a position of no match (an analysis, a lesson): the turn is checked
        there and handed to the page when it ends (static/js/sheet.js)."""
        view = self.game.view(state, seat)
        must_act = (live and seat is not None and view["to_move"] == seat
                    and (bool(check_url) or getattr(match, "status", "") == "active"))
        return render_to_string("games/final-strategy/board.html", {
            **board_context(view, interactive=must_act),
            # A picture's id only needs to differ from the other boards on the same page.
            "board_id": "fs-board" if must_act else f"fs-board-{view['turn']}-{next(_PICTURES)}",
            "view": view, "match": match, "seat": seat, "must_act": must_act,
            "reason": stored(self.game, view.get("reason")),
            "phase_number": getattr(match, "phase_number", None),
            "board_text": words.board_text(view),
            "seat_rows": _seat_rows(view, seat),
            "check_url": check_url, "sandbox": bool(check_url),
        })

    def plan_builder(self, match: Any, state: Any, seat: int, *,
                     others: list[dict[str, Any]], lines: list[dict[str, Any]]) -> str:
        """A branch of the plan built on a board of its own, clicked (or keyed) as a turn is
        (static/final-strategy/plan.js): the others' moves, then the reply. The moves are not
        played on it: whether they are legal is only known when they are played."""
        view = self.game.view(state, seat)
        # The seats in the order they play after this one (a seat out of the game plays no
        # more): a branch under a line starts with the first; one at the top of the plan
        # with the seat to move now (the script picks it, ``data-to-move``).
        out = set(self.game.seats_out(state))
        by_number = {other["number"]: other for other in others if other["number"] not in out}
        order = sorted(by_number, key=lambda number: (number < seat, number))
        return render_to_string("games/final-strategy/plan_builder.html", {
            **board_context(view, interactive=True), "board_id": "fs-plan-board",
            "match": match, "seat": seat, "others": [by_number[n] for n in order],
            "to_move": view["to_move"], "lines": lines})

    def orders_hint(self, state: Any, seat: int) -> str:
        return _("The steps of your turn, one per line or separated by “;”, e.g. “occupy e5; "
                 "wall e5-e6; kidnapper c3 ne”.")

    def board_text(self, state: Any, seat: int | None) -> str:
        return words.board_text(self.game.view(state, seat))

    def orders_help(self, state: Any, seat: int) -> str:
        return words.orders_help()

    def round_report(self, events: list[dict[str, Any]], seat: int | None) -> list[str]:
        return words.event_lines(events, seat)

    def lessons(self) -> list[dict[str, Any]]:
        return lessons.LESSONS

    def position_words(self, state: Any, seat: int | None) -> list[str]:
        return told.position_words(self.game.view(state, seat), seat)

    def problem_lines(self, problems: Iterable[Problem], text: str) -> list[str]:
        """Each problem names its line: a turn's ``steps.N`` is the N-th step written (steps
        are counted across lines and ``;``), a step after the last one is the last line."""
        return words.problem_lines(problems, text)

    def rules_context(self, request: Any) -> dict[str, Any]:
        return {**super().rules_context(request), "colours": SEAT_COLOURS,
                "diagrams": rules_diagrams(self.game)}

    def your_move_context(self, match: Any, seat: Any, state: Any) -> dict[str, Any]:
        view = self.game.view(state, seat.number)
        bunker = view["bunkers"].get(str(seat.number), {})
        situation = []
        if "troops" in bunker:
            situation.append(_("Your bunker: %(pieces)s.") % {
                "pieces": words.bunker_pieces(bunker)})
        situation.append(_("Scores: %(scores)s.") % {"scores": ", ".join(
            _("seat %(seat)s: %(score)s") % {"seat": s, "score": v}
            for s, v in sorted(view["scores"].items()))})
        return {"situation": situation}


# The rules page's diagrams: real positions, played by the engine (before and after a turn).
KIDNAP_EXAMPLE = ({"pieces": [{"seat": 1, "kind": "troop", "at": "c4"},
                              {"seat": 2, "kind": "troop", "at": "d3"},
                              {"seat": 2, "kind": "troop", "at": "d4"},
                              {"seat": 2, "kind": "troop", "at": "b3"}]},
                  [{"kidnapper": "c3", "corner": "ne"}])
BOMB_EXAMPLE = ({"barriers": ["f7-g7", "g7-h7", "g6-g7", "g7-g8", "f8-g8", "g8-h8", "f6-f7",
                              "h6-h7", "g5-g6", "f7-f8"],
                 "pieces": [{"seat": 2, "kind": "troop", "at": "g8"},
                            {"seat": 2, "kind": "troop", "at": "h5"}]},
                [{"bomb": "g7"}])
CHAIN_EXAMPLE = ({"barriers": ["b7-b8", "b7-c7", "b6-b7", "a8-b8", "b8-b9", "b9-c9", "a9-b9",
                               "b9-b10"]},
                 [{"barrier": "a7-b7"}, {"barrier": "b8-c8"}, {"barrier": "h2-h3"}])


def rules_diagrams(game: Any) -> list[dict[str, str]]:
    """Before/after boards for the rules page, each drawn from the engine's own play."""
    import random
    from datetime import UTC, datetime

    examples = [
        (KIDNAP_EXAMPLE,
         _("A kidnapper on c3 naming its north-east corner: its capture area is c3, d3, c4, "
           "d4."),
         _("After: the two enemy troops in the area are prisoners, the own troop on c4 is "
           "back in the bunker; b3, outside the area, stays.")),
        (BOMB_EXAMPLE,
         _("A bomb on g7, with barriers inside and around its 3 × 3 block."),
         _("After: the inner edges are clear, the block's outline stays; the troop on g8 went "
           "home, the one on h5 (outside) stays.")),
        (CHAIN_EXAMPLE,
         _("A chain: b7 and b8 each miss one side."),
         _("The barrier a7-b7 closes b7 (occupied); b8-c8 then closes b8, next to it "
           "(occupied, and the player places again); a last barrier closing nothing ends the "
           "turn.")),
    ]
    diagrams = []
    for number, ((scenario, steps), before_text, after_text) in enumerate(examples):
        state = game.start(2, {"scenario": scenario}, 0)
        after = game.apply(state, 1, game.validate(state, 1, {"steps": steps}),
                           datetime(2026, 1, 1, tzinfo=UTC), random.Random(0)).state
        for which, position, caption in (("before", state, before_text),
                                         ("after", after, after_text)):
            diagrams.append({"caption": caption, "svg": render_to_string(
                "games/final-strategy/board.svg.html",
                {**board_context(game.view(position, None), interactive=False),
                 "board_id": f"fs-rules-{number}-{which}"})})
    return diagrams


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
