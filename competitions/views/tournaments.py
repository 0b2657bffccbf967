"""Tournament pages: overview with standings, crosstable, bracket; register, withdraw, start."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from competitions import selectors, services
from competitions.forms import TournamentForm
from competitions.models import Entry, Pairing, Tournament
from competitions.views.clubs import _club_or_404
from competitions.views.common import done, refuse
from games.services import ServiceError
from games.words import problem_line


def _tournament_or_404(request: HttpRequest, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("club", "ladder").filter(
        pk=tournament_id).first()
    if tournament is None or (tournament.club_id and not selectors.clubs_visible(
            request.user).filter(pk=tournament.club_id).exists()):
        raise Http404(_("No such tournament."))
    return tournament


def _url(tournament: Tournament) -> str:
    return reverse("competitions:tournament", args=[tournament.pk])


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    try:
        services.require_organiser(club, request.user)  # before reading the form
    except ServiceError as error:
        return refuse(request, error)
    form = TournamentForm(request.POST or None)
    context = {"form": form, "club": club}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "competitions/tournament_form.html", context, status=400)
        try:
            tournament = services.tournament_create(by=request.user, club_id=club.pk,
                                                    **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            for problem in error.problems:
                form.add_error(None, problem_line(problem))
            status = error.status
            return render(request, "competitions/tournament_form.html", context, status=status)
        return done(request, _url(tournament))
    return render(request, "competitions/tournament_form.html", context)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(request, tournament_id)
    entry = None
    if request.user.is_authenticated:
        entry = Entry.objects.filter(tournament=tournament, user_id=request.user.pk).first()
    current = tournament.rounds.order_by("-number").first()
    pairings = []
    if current is not None:
        pairings = list(Pairing.objects.filter(round=current).select_related(
            "first__user", "second__user", "match"))
        names = {e.pk: e.name for e in selectors.entries_of(tournament)}
        for p in pairings:
            p.pod_names = [names.get(eid, "?") for eid in p.pod]
    membership = services.membership_of(tournament.club, request.user) if tournament.club \
        else None
    can_organise = request.user.is_authenticated and (
        request.user.is_staff or (membership is not None and membership.can_organise))
    entries = selectors.entries_of(tournament)
    return render(request, "competitions/tournament.html", {
        "tournament": tournament, "entry": entry, "entries": entries,
        "standings": selectors.tournament_standings(tournament=tournament),
        "current": current, "pairings": pairings, "can_organise": can_organise,
        "bots": selectors.tournament_bots_available(tournament=tournament) if can_organise
        else (),
        "bot_entries": [e for e in entries if e.is_bot],
    })


def tournament_crosstable(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(request, tournament_id)
    return render(request, "competitions/crosstable.html", {
        "tournament": tournament, **selectors.tournament_crosstable(tournament=tournament)})


def tournament_bracket(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(request, tournament_id)
    if not tournament.is_elimination:
        raise Http404(_("This tournament has no bracket."))
    return render(request, "competitions/bracket.html", {
        "tournament": tournament, "columns": selectors.tournament_bracket(tournament=tournament)})


@login_required
@require_POST
def tournament_action(request: HttpRequest, tournament_id: int, action: str) -> HttpResponse:
    """register / withdraw (players), start / close / open / cancel / add-bot / remove-bot
    (organisers)."""
    tournament = _tournament_or_404(request, tournament_id)
    try:
        if action == "register":
            services.tournament_register(tournament_id=tournament.pk, user=request.user)
            messages.success(request, _("You are registered."))
        elif action == "withdraw":
            services.tournament_withdraw(tournament_id=tournament.pk, user=request.user)
            messages.success(request, _("You have withdrawn."))
        elif action == "start":
            services.tournament_start(tournament_id=tournament.pk, by=request.user)
        elif action in ("close", "open"):
            services.tournament_registration_set(tournament_id=tournament.pk, by=request.user,
                                                 is_open=action == "open")
        elif action == "add-bot":
            services.tournament_bot_enter(tournament_id=tournament.pk, by=request.user,
                                          bot=request.POST.get("bot", ""))
        elif action == "remove-bot":
            services.tournament_bot_remove(tournament_id=tournament.pk, by=request.user,
                                           entry_id=request.POST.get("entry", ""))
        elif action == "cancel":
            services.tournament_cancel(tournament_id=tournament.pk, by=request.user,
                                       note=request.POST.get("note", ""))
        else:
            raise Http404(_("No such action."))
    except ServiceError as error:
        return refuse(request, error)
    return done(request, _url(tournament))
