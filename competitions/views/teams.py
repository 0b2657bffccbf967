"""Team match and team league pages: the challenge form, a team match (boards, players,
results; rosters and alternates for the clubs' captains), a league with its standings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from competitions import selectors, services
from competitions.forms import TeamLeagueForm, TeamMatchForm
from competitions.models import TeamLeague, TeamMatch
from competitions.views.clubs import _club_or_404
from competitions.views.common import done, refuse
from games.services import ServiceError
from games.words import problem_line


def _team_match_or_404(request: HttpRequest, team_match_id: int) -> TeamMatch:
    team_match = TeamMatch.objects.select_related("club_a", "club_b", "league", "winner") \
        .filter(pk=team_match_id).first()
    if team_match is None or not selectors.team_match_visible(team_match, request.user):
        raise Http404(_("No such team match."))
    return team_match


def _league_or_404(request: HttpRequest, league_id: int) -> TeamLeague:
    league = TeamLeague.objects.select_related("host").filter(pk=league_id).first()
    if league is None or not selectors.team_league_visible(league, request.user):
        raise Http404(_("No such team league."))
    return league


def _url(team_match: TeamMatch) -> str:
    return reverse("competitions:team_match", args=[team_match.pk])


def _opponents(request: HttpRequest, club_id: int):
    return selectors.clubs_visible(request.user).exclude(pk=club_id).order_by("name")


@login_required
@require_http_methods(["GET", "POST"])
def team_match_create(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser challenges another club."""
    club = _club_or_404(request, slug)
    try:
        services.require_organiser(club, request.user)  # before reading the form
    except ServiceError as error:
        return refuse(request, error)
    form = TeamMatchForm(request.POST or None)
    context = {"form": form, "club": club, "opponents": _opponents(request, club.pk)}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "competitions/team_match_form.html", context, status=400)
        data = form.cleaned_data
        if not context["opponents"].filter(pk=data["opponent"]).exists():
            form.add_error("opponent", _("Choose a club from the list."))
            return render(request, "competitions/team_match_form.html", context, status=400)
        try:
            team_match = services.team_match_challenge(
                by=request.user, club_id=club.pk, opponent_id=data["opponent"],
                game=data["game"], boards=data["boards"],
                hours_per_phase=data["hours_per_phase"], starts_at=data["starts_at"])
        except ServiceError as error:
            form.add_error(None, error.message)
            for problem in error.problems:
                form.add_error(None, problem_line(problem))
            return render(request, "competitions/team_match_form.html", context, status=400)
        messages.success(request, _("You challenged %(club)s.") % {
            "club": team_match.club_b.name})
        return done(request, _url(team_match))
    return render(request, "competitions/team_match_form.html", context)


def team_match_detail(request: HttpRequest, team_match_id: int) -> HttpResponse:
    team_match = _team_match_or_404(request, team_match_id)
    return render(request, "competitions/team_match.html",
                  selectors.team_match_page(team_match, request.user))


@login_required
@require_POST
def team_match_answer(request: HttpRequest, team_match_id: int) -> HttpResponse:
    """Accept or decline a challenge (the challenged club), withdraw it (the challenger)."""
    team_match = _team_match_or_404(request, team_match_id)
    answer = request.POST.get("answer")
    try:
        if answer == "accept":
            services.team_match_accept(team_match_id=team_match.pk, by=request.user)
        elif answer == "decline":
            services.team_match_decline(team_match_id=team_match.pk, by=request.user)
        else:
            raise ServiceError("invalid", _("Accept or decline the challenge."))
    except ServiceError as error:
        return refuse(request, error)
    return done(request, _url(team_match))


def _ids(values: list[str]) -> list[str]:
    return [value for value in values if value.strip()]


@login_required
@require_POST
def team_match_roster(request: HttpRequest, team_match_id: int) -> HttpResponse:
    """A captain names the club's players by board and its alternates."""
    team_match = _team_match_or_404(request, team_match_id)
    club_id = request.POST.get("club", "")
    boards = [request.POST.get(f"board-{number}", "") for number in
              range(1, team_match.boards + 1)]
    chosen = _ids(boards)
    filled = [bool(value.strip()) for value in boards]
    try:
        if request.POST.get("order") == "given" and any(
                not here and any(filled[number:]) for number, here in enumerate(filled, 1)):
            raise ServiceError("invalid", _("In your own order, fill the boards from board 1 "
                                            "without a gap."))
        services.team_roster_set(
            team_match_id=team_match.pk, club_id=club_id, by=request.user, players=chosen,
            alternates=_ids(request.POST.getlist("alternates")),
            by_rating=request.POST.get("order") != "given")
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("The roster is saved."))
    return done(request, _url(team_match) + "#roster-" + str(club_id)[:12])


@login_required
@require_POST
def team_match_swap(request: HttpRequest, team_match_id: int) -> HttpResponse:
    """A captain puts an alternate on a board."""
    team_match = _team_match_or_404(request, team_match_id)
    club_id = request.POST.get("club", "")
    try:
        coming = services.team_board_swap(
            team_match_id=team_match.pk, club_id=club_id, by=request.user,
            board=request.POST.get("board", ""), alternate=request.POST.get("alternate", ""))
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("%(player)s now plays board %(board)s.") % {
        "player": coming.user.get_username(), "board": coming.board})
    return done(request, _url(team_match) + "#roster-" + str(club_id)[:12])


@login_required
@require_POST
def team_match_start(request: HttpRequest, team_match_id: int) -> HttpResponse:
    team_match = _team_match_or_404(request, team_match_id)
    try:
        services.team_match_start(team_match_id=team_match.pk, by=request.user)
    except ServiceError as error:
        return refuse(request, error)
    return done(request, _url(team_match))


@login_required
@require_http_methods(["GET", "POST"])
def team_league_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_or_404(request, slug)
    try:
        services.require_organiser(club, request.user)
    except ServiceError as error:
        return refuse(request, error)
    form = TeamLeagueForm(request.POST or None)
    others = _opponents(request, club.pk)
    context = {"form": form, "club": club, "opponents": others}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "competitions/team_league_form.html", context, status=400)
        wanted = request.POST.getlist("clubs")
        invited = list(others.filter(pk__in=[v for v in wanted if v.isdigit()][:100]))
        if not invited or len(invited) != len(set(wanted)):
            form.add_error(None, _("Choose the clubs to invite from the list."))
            return render(request, "competitions/team_league_form.html", context, status=400)
        try:
            league = services.team_league_create(by=request.user, club_id=club.pk,
                                                 clubs=invited, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            return render(request, "competitions/team_league_form.html", context, status=400)
        return done(request, reverse("competitions:team_league", args=[league.pk]))
    return render(request, "competitions/team_league_form.html", context)


def team_league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league_or_404(request, league_id)
    return render(request, "competitions/team_league.html",
                  selectors.team_league_page(league, request.user))


@login_required
@require_POST
def team_league_action(request: HttpRequest, league_id: int, action: str) -> HttpResponse:
    """Join (an invited club's organiser) or start (the host's organiser)."""
    league = _league_or_404(request, league_id)
    try:
        if action == "join":
            services.team_league_join(league_id=league.pk, club_id=request.POST.get("club", ""),
                                      by=request.user)
        elif action == "start":
            services.team_league_start(league_id=league.pk, by=request.user)
        else:
            raise Http404(_("No such action."))
    except ServiceError as error:
        return refuse(request, error)
    return done(request, reverse("competitions:team_league", args=[league.pk]))
