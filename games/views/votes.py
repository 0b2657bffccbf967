"""The match page's votes panel: the open proposals to end the match, the buttons to propose,
vote and concede (each asks for confirmation), and the latest closed proposals. Every view
checks who asks before doing anything; the services (``games.services.votes``) decide."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import selectors
from games.models import Match, MatchVote
from games.services import ServiceError, seat_concede, vote_cast, vote_propose
from games.views.access import match_url, match_visible_or_404, redirect_to, status_for
from games.votes import match_votes

PANEL = "games/partials/votes.html"


def panel_context(request: HttpRequest, match: Match, **extra) -> dict:
    return {"match": match, "votes": match_votes(match, request.user), **extra}


@require_GET
def panel(request: HttpRequest, match_id: int) -> HttpResponse:
    """The panel alone (HTMX refreshes it; without JavaScript it is part of the match page)."""
    match = match_visible_or_404(request, match_id)
    return render(request, PANEL, panel_context(request, match))


def _seated_or_403(request: HttpRequest, match: Match) -> None:
    """Permission before work: only a seat's player may propose, vote or concede."""
    if selectors.match_seat_for_user(match, request.user) is None:
        raise PermissionDenied(_("You have no seat in this match."))


def _answer(request: HttpRequest, match: Match, notice: str) -> HttpResponse:
    """After a change: the panel again (HTMX) while the match is in play; the whole page when
    it has ended (its result, its status) or without HTMX."""
    match.refresh_from_db()
    if request.htmx and match.status == Match.Status.ACTIVE:
        return render(request, PANEL, panel_context(request, match, notice=notice))
    messages.success(request, notice)
    return redirect_to(request, match_url(match))


def _refused(request: HttpRequest, match: Match, error: ServiceError) -> HttpResponse:
    status = status_for(error)
    if request.htmx:
        return render(request, PANEL, panel_context(request, match, error=error.message),
                      status=status)
    from games.views.match import match_page_context, match_template

    context = match_page_context(request, match)
    context["error"] = error.message
    return render(request, match_template(match), context, status=status)


@login_required
@require_POST
def propose(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    _seated_or_403(request, match)
    kind = request.POST.get("kind", "")
    try:
        vote = vote_propose(match_id=match.pk, user=request.user, kind=kind,
                            secret=request.POST.get("secret") == "on")
    except ServiceError as error:
        return _refused(request, match, error)
    return _answer(request, match, _("You proposed %(kind)s: the other players are asked to "
                                     "vote.") % {"kind": vote.get_kind_display()})


@login_required
@require_POST
def cast(request: HttpRequest, match_id: int, vote_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    _seated_or_403(request, match)
    choice = request.POST.get("choice", "")
    if choice not in ("yes", "no"):
        return _refused(request, match, ServiceError("invalid", _("Vote yes or no.")))
    try:
        vote = vote_cast(match_id=match.pk, vote_id=vote_id, user=request.user,
                         yes=choice == "yes")
    except ServiceError as error:
        return _refused(request, match, error)
    if vote.status == MatchVote.Status.PASSED:
        notice = _("Everyone agreed: %(kind)s. The match is over.") % {
            "kind": vote.get_kind_display()}
    elif vote.status == MatchVote.Status.FAILED:
        notice = _("You voted no: the proposal failed.")
    else:
        notice = _("You voted yes.")
    return _answer(request, match, notice)


@login_required
@require_POST
def concede(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    _seated_or_403(request, match)
    if request.POST.get("confirm") != "yes":
        return _refused(request, match, ServiceError(
            "invalid", _("Tick the box to confirm that you concede: it cannot be undone.")))
    try:
        seat_concede(match_id=match.pk, user=request.user, source="web")
    except ServiceError as error:
        return _refused(request, match, error)
    return _answer(request, match, _("You conceded."))
