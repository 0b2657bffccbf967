"""Final Strategy's own requests: the step-by-step check of a turn being built on the board,
and sealing the finished turn. The page's board and panels are in ``plugin``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import engine
from engine import RuleError
from engine.jsontext import JSONLimitError, read_json
from games.final_strategy.board import board_context
from games.final_strategy.words import event_lines
from games.services import ServiceError
from games.views.access import (
    PhaseClosed,
    match_visible_or_404,
    own_prompted_seat,
    seal_posted,
    status_for,
)
from games.words import problem_dicts, sentence


def _posted_steps(request: HttpRequest) -> tuple[list[Any] | None, str]:
    """The posted steps, or None and what is wrong with them."""
    try:
        steps = read_json(request.POST.get("steps", ""))
    except JSONLimitError as error:
        return None, sentence(error.text)
    except ValueError:
        steps = None
    if not isinstance(steps, list):
        return None, _("The steps must be a JSON list.")
    return steps, ""


def _refused(problems: list[dict[str, str]], status: int) -> JsonResponse:
    return JsonResponse({"ok": False, "problems": problems}, status=status)


@login_required
@require_POST
def turn_check(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """The turn so far, checked by the engine step by step: the board after it (as the player
    sees it), whether the turn has ended, the turn in the text grammar. Stores nothing."""
    match = match_visible_or_404(request, match_id)
    try:
        seat = own_prompted_seat(request, match, seat_number)
    except PhaseClosed as closed:
        return _refused([{"path": "", "message": str(closed)}], 409)
    steps, wrong = _posted_steps(request)
    if steps is None:
        return _refused([{"path": "steps", "message": wrong}], 400)
    game = engine.games()[match.game]
    try:
        return JsonResponse(steps_checked(game, match.state, seat.number, steps))
    except RuleError as error:
        return _refused(problem_dicts(error.problems), 400)


def steps_checked(game: Any, state: Any, seat: int, steps: list[Any]) -> dict[str, Any]:
    """The check's answer for the turn ``steps`` of ``seat`` in ``state`` (a ``RuleError``
    for a step refused): the board after it as the player sees it, whether the turn has
    ended, the turn in the text grammar, what the steps did."""
    checked = game.check_steps(state, seat, {"steps": steps})
    view = game.view(checked["state"], seat)
    board = render_to_string("games/final-strategy/board.svg.html",
                             {**board_context(view, interactive=True), "board_id": "fs-board"})
    return {
        "ok": True, "ended": checked["ended"], "may_occupy": checked["may_occupy"],
        "swapped": checked["swapped"], "steps": checked["steps"],
        "text": game.format_text(state, seat, {"steps": checked["steps"]}),
        "story": event_lines(checked["events"], seat), "board": board,
    }


@login_required
@require_POST
def turn_submit(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """Seal the finished turn (applied at once: a sequential phase)."""
    match = match_visible_or_404(request, match_id)
    try:
        seat = own_prompted_seat(request, match, seat_number)
    except PhaseClosed as closed:
        return _refused([{"path": "", "message": str(closed)}], 409)
    steps, wrong = _posted_steps(request)
    if steps is None:
        return _refused([{"path": "steps", "message": wrong}], 400)
    try:
        seal_posted(request, match, seat, {"steps": steps}, prompt_phase="turn",
                    notice=_("Turn sealed (revision %(revision)s)."))
    except ServiceError as error:
        problems = problem_dicts(error.problems)
        return _refused(problems or [{"path": "", "message": error.message}],
                        status_for(error))
    return JsonResponse({"ok": True, "reload": True})
