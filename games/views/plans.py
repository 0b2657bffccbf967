"""The match page's "Plan ahead" panel (docs/conditional-orders.md): the seat's plan in words,
a box to write it (a branch a line: "if Blue: wall e5-e6 then wall c3-c4"), a button to clear
it. Only the seat's own player ever sees it; the services (``games.services.plans``) decide."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import engine
from engine import Game, PhaseKind, Problem, RuleError
from engine.jsontext import JSONLimitError, read_json
from games import plugins, selectors
from games.models import ConditionalSheet, Match, Seat
from games.plans import (
    plan_described,
    plan_paths,
    plan_words,
    plans_offered,
    sheet_ahead_described,
)
from games.prepared import Prepared
from games.services import (
    ServiceError,
    plan_clear,
    plan_for,
    plan_set,
    sheet_ahead_clear,
    sheet_ahead_set,
)
from games.services.plans import MAX_WHEN, conditions_offered, plan_branch_add
from games.views.access import match_url, match_visible_or_404, redirect_to, status_for
from games.words import problem_dicts, problem_line, say, sentence

PANEL = "games/partials/plan.html"


def plan_panel_context(match: Match, game: Game | None, seat: Seat | None, user: Any
                       ) -> dict[str, Any] | None:
    """The panel's context for ``user``'s own ``seat`` of a match in play whose game takes
    plans; None (no panel) for anyone else."""
    if (not plans_offered(game) or seat is None or match.status != Match.Status.ACTIVE
            or match.state is None or seat.status != Seat.Status.TAKEN
            or seat.number in game.seats_out(match.state)):
        return None
    plan = plan_for(match=match, seat=seat, user=user)
    numbers = sorted(match.seats.exclude(number=seat.number).values_list("number", flat=True))
    others = [plugins.seat_name(match.game, number) for number in numbers]
    described = plan_described(game, match.state, seat.number, plan)
    # Each line with its path, for the board's branch builder to add a branch under it.
    lines = [{**line, "path": path} for line, path in
             zip(described["words"], plan_paths(described["tree"]), strict=True)]
    plugin = plugins.plugin_for(match.game)
    builder = plugin.plan_builder(
        match, match.state, seat.number,
        others=[{"number": n, "name": name} for n, name in zip(numbers, others, strict=True)],
        lines=lines)
    return {"seat": seat.number, "others": others, "stored": "", "error": "", "problems": [],
            "typed": "", "builder": builder,
            "example": str(plugin.plan_example), **described}


def _own_seat(request: HttpRequest, match: Match, seat_number: int) -> Seat:
    """Permission before work: the seat must be the reader's."""
    seat = selectors.match_seat_for_user(match, request.user)
    if seat is None or seat.number != seat_number:
        raise PermissionDenied(_("Seat %(number)s is not yours.") % {"number": seat_number})
    return seat


def _panel(request: HttpRequest, match: Match, seat: Seat, status: int = 200,
           **extra: Any) -> HttpResponse:
    """The panel alone, ``extra`` (stored, error, problems, typed) in its context."""
    plan = plan_panel_context(match, engine.games().get(match.game), seat, request.user)
    return render(request, PANEL, {"match": match, "plan": plan and {**plan, **extra}},
                  status=status)


def _answer(request: HttpRequest, match: Match, seat: Seat, notice: str) -> HttpResponse:
    if request.htmx:
        match.refresh_from_db()
        return _panel(request, match, seat, stored=notice)
    messages.success(request, notice)
    return redirect_to(request, match_url(match) + "#plan")


def _refused(request: HttpRequest, match: Match, seat: Seat, error: ServiceError,
             text: str = "") -> HttpResponse:
    problems = [problem_line(problem) for problem in error.problems]
    if request.htmx:
        return _panel(request, match, seat, status=status_for(error), error=error.message,
                      problems=problems, typed=text)
    from games.views.match import match_page_context, match_template

    context = match_page_context(request, match)
    if context.get("plan") is not None:
        context["plan"] = {**context["plan"], "error": error.message, "problems": problems,
                           "typed": text}
    context["error"] = error.message
    return render(request, match_template(match), context, status=status_for(error))


@login_required
@require_GET
def panel(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """The panel alone (HTMX refreshes it; without JavaScript it is part of the match page)."""
    match = match_visible_or_404(request, match_id)
    return _panel(request, match, _own_seat(request, match, seat_number))


@login_required
@require_POST
def save(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """Store the plan written in the panel's box (an empty box clears it)."""
    match = match_visible_or_404(request, match_id)
    seat = _own_seat(request, match, seat_number)
    text = request.POST.get("plan", "")
    try:
        stored = plan_set(match_id=match.pk, seat_number=seat.number, user=request.user,
                          text=text)
    except ServiceError as error:
        return _refused(request, match, seat, error, text)
    return _answer(request, match, seat, _("Your plan is stored: its moves are played the "
                                           "moment the moves before them are.")
                   if stored.pk else _("Your plan is cleared."))


def _posted_json(request: HttpRequest, name: str) -> Any:
    """The JSON of the form field ``name`` (a RuleError naming it when it is not JSON)."""
    try:
        return read_json(request.POST.get(name, ""))
    except JSONLimitError as error:
        raise RuleError([Problem(name, sentence(error.text))]) from None
    except ValueError:
        raise RuleError([Problem(name, _("This is not a branch built on the board; "
                                         "reload the page."))]) from None


@login_required
@require_POST
def branch_check(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """A branch being built on the board, its moves each checked for their shape alone (never
    against the position: that is decided when the move is played): each move as written,
    and the branch in a sentence once it has its reply. Stores nothing."""
    match = match_visible_or_404(request, match_id)
    seat = _own_seat(request, match, seat_number)
    game = engine.games().get(match.game)
    if not plans_offered(game) or match.state is None:
        return JsonResponse({"ok": False, "problems": [
            {"path": "", "message": _("This match takes no plans.")}]}, status=409)
    others = set(match.seats.exclude(number=seat.number).values_list("number", flat=True))
    try:
        when, play = _posted_json(request, "when"), _posted_json(request, "play")
        if not isinstance(when, list) or len(when) > MAX_WHEN:
            raise RuleError([Problem("when", _("A condition lists at most %(count)s moves of "
                                               "the other seats.") % {"count": MAX_WHEN})])
        moves = []
        for index, entry in enumerate(when):
            other = entry.get("seat") if isinstance(entry, dict) else None
            if type(other) is not int or other not in others:
                raise RuleError([Problem(f"when.{index}", _("A condition names another seat "
                                                            "of the match and its move."))])
            moves.append({"seat": other, "move": game.plan_move(other, entry.get("move"))})
        played = None if play is None else game.plan_move(seat.number, play)
    except RuleError as error:
        return JsonResponse({"ok": False, "problems": problem_dicts(error.problems)},
                            status=400)
    state = match.state
    answer: dict[str, Any] = {
        "ok": True, "when": moves, "play": played,
        "moves": [plugins.sheet_text(game, state, m["seat"], m["move"]) for m in moves],
        "play_text": "" if played is None else plugins.sheet_text(game, state, seat.number,
                                                                   played),
        "sentence": "" if played is None else plan_words(game, state, seat.number, [
            {"when": moves, "play": played, "then": []}])[0]["text"]}
    return JsonResponse(answer)


@login_required
@require_POST
def branch_add(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """Add the branch built on the board (``branch``, JSON) under the line ``under``."""
    match = match_visible_or_404(request, match_id)
    seat = _own_seat(request, match, seat_number)
    try:
        branch = _posted_json(request, "branch")
    except RuleError as error:
        return _refused(request, match, seat, ServiceError("invalid", _("The plan is not "
                                                                        "valid."), error.problems))
    if isinstance(branch, dict):
        branch = {"when": branch.get("when", []), "play": branch.get("play"), "then": []}
    try:
        plan_branch_add(match_id=match.pk, seat_number=seat.number, user=request.user,
                        under=request.POST.get("under", ""), branch=branch)
    except ServiceError as error:
        return _refused(request, match, seat, error)
    return _answer(request, match, seat, _("The branch is added to your plan."))


@login_required
@require_POST
def clear(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    seat = _own_seat(request, match, seat_number)
    try:
        plan_clear(match_id=match.pk, seat_number=seat.number, user=request.user)
    except ServiceError as error:
        return _refused(request, match, seat, error)
    return _answer(request, match, seat, _("Your plan is cleared."))


# -- sheets entered ahead ----------------------------------------------------------------------

AHEAD_PANEL = "games/partials/sheet_ahead.html"


# A reader's sheets entered ahead in a match (each for one of their seats), oldest first: the
# match page reads them with its other reads, in one round trip, where its game offers
# conditions (``sheets_ahead_call``).
SHEETS_AHEAD = Prepared(ConditionalSheet, lambda match_id, user_id: ConditionalSheet.objects
                        .filter(match_id=match_id, user_id=user_id).order_by("pk"),
                        server_side=True, match_id="int", user_id="int")


def sheets_ahead_call(match: Match, game: Game | None, user: Any
                      ) -> tuple[Prepared, dict[str, Any]] | None:
    """The read of ``user``'s sheets entered ahead, to send with the page's, or None where
    the panel cannot show (the game offers no conditions, the match is not in play, nobody
    logged in): no query then."""
    if (not conditions_offered(game) or match.status != Match.Status.ACTIVE
            or not getattr(user, "is_authenticated", False)
            or match.phase_kind != PhaseKind.SIMULTANEOUS.value):
        return None
    return SHEETS_AHEAD, {"match_id": match.pk, "user_id": user.pk}


_NOT_READ = object()


def sheet_ahead_context(match: Match, game: Game | None, seat: Seat | None, user: Any,
                        rows: Any = _NOT_READ) -> dict[str, Any] | None:
    """The "Next phase ahead" panel's context for ``user``'s own ``seat`` of a match in a
    sealed phase whose game offers conditions; None (no panel) for anyone else. ``rows``:
    ``SHEETS_AHEAD``' answer for the match and ``user``, when read already."""
    if (not conditions_offered(game) or seat is None or match.status != Match.Status.ACTIVE
            or match.state is None or seat.status != Seat.Status.TAKEN
            or match.phase_kind != PhaseKind.SIMULTANEOUS.value
            or seat.number in game.seats_out(match.state)):
        return None
    if rows is _NOT_READ:
        row = ConditionalSheet.objects.filter(match=match, seat=seat, user=user).first()
    else:
        row = next((row for row in rows if row.seat_id == seat.pk), None)
    return {"seat": seat.number, "next_phase": match.phase_number + 1,
            "help": say(game.conditions_help()), "stored": "", "error": "", "problems": [],
            "typed_conditions": "", "typed_sheet": "", **sheet_ahead_described(game, row)}


def _ahead_panel(request: HttpRequest, match: Match, seat: Seat, status: int = 200,
                 **extra: Any) -> HttpResponse:
    ahead = sheet_ahead_context(match, engine.games().get(match.game), seat, request.user)
    return render(request, AHEAD_PANEL, {"match": match, "ahead": ahead and {**ahead, **extra}},
                  status=status)


@login_required
@require_POST
def ahead_save(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """Enter the sheet for the next phase with its conditions, as written in the panel."""
    match = match_visible_or_404(request, match_id)
    seat = _own_seat(request, match, seat_number)
    conditions, sheet = request.POST.get("conditions", ""), request.POST.get("sheet", "")
    try:
        sheet_ahead_set(match_id=match.pk, seat_number=seat.number, user=request.user,
                        conditions_text=conditions, text=sheet)
    except ServiceError as error:
        extra = {"error": error.message,
                 "problems": [problem_line(problem) for problem in error.problems],
                 "typed_conditions": conditions, "typed_sheet": sheet}
        if request.htmx:
            return _ahead_panel(request, match, seat, status=status_for(error), **extra)
        from games.views.match import match_page_context, match_template

        context = match_page_context(request, match)
        if context.get("sheet_ahead") is not None:
            context["sheet_ahead"] = {**context["sheet_ahead"], **extra}
        return render(request, match_template(match), context, status=status_for(error))
    notice = _("Your sheet for the next phase is entered: it is submitted when this phase "
               "resolves if every condition holds then.")
    if request.htmx:
        match.refresh_from_db()
        return _ahead_panel(request, match, seat, stored=notice)
    messages.success(request, notice)
    return redirect_to(request, match_url(match) + "#sheet-ahead")


@login_required
@require_POST
def ahead_clear(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    seat = _own_seat(request, match, seat_number)
    sheet_ahead_clear(match_id=match.pk, seat_number=seat.number, user=request.user)
    notice = _("Your sheet for the next phase is withdrawn.")
    if request.htmx:
        return _ahead_panel(request, match, seat, stored=notice)
    messages.success(request, notice)
    return redirect_to(request, match_url(match) + "#sheet-ahead")
