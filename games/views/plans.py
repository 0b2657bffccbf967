"""The match page's "Plan ahead" panel (docs/conditional-orders.md): the seat's plan in words,
a box to write it (a branch a line: "if Blue: wall e5-e6 then wall c3-c4"), a button to clear
it. Only the seat's own player ever sees it; the services (``games.services.plans``) decide."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import engine
from engine import Game, PhaseKind
from games import plugins, selectors
from games.models import ConditionalSheet, Match, Seat
from games.plans import plan_described, plans_offered, sheet_ahead_described
from games.services import (
    ServiceError,
    plan_clear,
    plan_for,
    plan_set,
    sheet_ahead_clear,
    sheet_ahead_set,
)
from games.services.plans import conditions_offered
from games.views.access import match_url, match_visible_or_404, redirect_to, status_for
from games.words import problem_line, say

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
    others = [plugins.seat_name(match.game, number) for number in
              sorted(match.seats.exclude(number=seat.number).values_list("number", flat=True))]
    return {"seat": seat.number, "others": others, "stored": "", "error": "", "problems": [],
            "typed": "", "example": str(plugins.plugin_for(match.game).plan_example),
            **plan_described(game, match.state, seat.number, plan)}


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


def sheet_ahead_context(match: Match, game: Game | None, seat: Seat | None, user: Any
                        ) -> dict[str, Any] | None:
    """The "Next phase ahead" panel's context for ``user``'s own ``seat`` of a match in a
    sealed phase whose game offers conditions; None (no panel) for anyone else."""
    if (not conditions_offered(game) or seat is None or match.status != Match.Status.ACTIVE
            or match.state is None or seat.status != Seat.Status.TAKEN
            or match.phase_kind != PhaseKind.SIMULTANEOUS.value
            or seat.number in game.seats_out(match.state)):
        return None
    row = ConditionalSheet.objects.filter(match=match, seat=seat, user=user).first()
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
