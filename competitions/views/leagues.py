"""League pages: the league (its current season's divisions, join and leave), a division's
standings with the promotion and relegation places, the archive of every season; organisers
create a league, start a season and enter bots."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

import engine
from competitions import selectors, services
from competitions.forms import LeagueForm
from competitions.models import Club, League, LeagueMember, Season
from competitions.services.leagues import may_organise
from competitions.views.clubs import _club_or_404
from competitions.views.common import done, refuse
from games.services import ServiceError
from games.words import problem_line


def _league_or_404(request: HttpRequest, league_id: int) -> League:
    league = League.objects.select_related("club").filter(pk=league_id).first()
    if league is None or (league.club_id and not selectors.clubs_visible(request.user).filter(
            pk=league.club_id).exists()):
        raise Http404(_("No such league."))
    return league


def _url(league: League) -> str:
    return reverse("competitions:league", args=[league.pk])


def _create(request: HttpRequest, club: Club | None) -> HttpResponse:
    if club is not None:
        try:
            services.require_organiser(club, request.user)  # before reading the form
        except ServiceError as error:
            return refuse(request, error)
    elif not request.user.is_staff:
        return refuse(request, ServiceError("not_allowed", _("Only admins create site-wide "
                                                             "leagues.")))
    form = LeagueForm(request.POST or None)
    context = {"form": form, "club": club}
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "competitions/league_form.html", context, status=400)
        try:
            league = services.league_create(by=request.user,
                                            club_id=club.pk if club else None,
                                            **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
            for problem in error.problems:
                form.add_error(None, problem_line(problem))
            status = 403 if error.code == "not_allowed" else 400
            return render(request, "competitions/league_form.html", context, status=status)
        return done(request, _url(league))
    return render(request, "competitions/league_form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def league_create(request: HttpRequest, slug: str) -> HttpResponse:
    return _create(request, _club_or_404(request, slug))


@login_required
@require_http_methods(["GET", "POST"])
def site_league_create(request: HttpRequest) -> HttpResponse:
    return _create(request, None)


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league_or_404(request, league_id)
    member = None
    if request.user.is_authenticated:
        member = LeagueMember.objects.filter(league=league, user_id=request.user.pk).first()
    can_organise = may_organise(league, request.user)
    season = Season.objects.filter(league=league).order_by("-number").first()
    bots = engine.get(league.game).bots if can_organise and league.bots_allowed else ()
    players = selectors.league_players(league)
    return render(request, "competitions/league.html", {
        "league": league, "member": member, "can_organise": can_organise,
        "season": season,
        "divisions": selectors.season_divisions(season, viewer=request.user) if season else [],
        "players": players, "bots": bots, "bot_members": [m for m in players if m.is_bot],
    })


def division_detail(request: HttpRequest, league_id: int, number: int,
                    division: int) -> HttpResponse:
    league = _league_or_404(request, league_id)
    season = Season.objects.filter(league=league, number=number).first()
    found = season.divisions.filter(number=division).first() if season else None
    if found is None:
        raise Http404(_("No such division."))
    return render(request, "competitions/division.html", {
        "league": league, "season": season, "division": found,
        "count": season.divisions.count(),
        "rows": selectors.division_table(found, viewer=request.user),
        "matches": selectors.division_matches(found),
    })


def league_archive(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league_or_404(request, league_id)
    return render(request, "competitions/league_archive.html", {
        "league": league, "seasons": selectors.league_archive(league)})


@login_required
@require_POST
def league_action(request: HttpRequest, league_id: int, action: str) -> HttpResponse:
    """join / leave (players), start / add-bot / remove-bot (organisers)."""
    league = _league_or_404(request, league_id)
    try:
        if action == "join":
            services.league_join(league_id=league.pk, user=request.user)
            messages.success(request, _("You have joined the league."))
        elif action == "leave":
            services.league_leave(league_id=league.pk, user=request.user)
            messages.success(request, _("You have left the league."))
        elif action == "start":
            season = services.season_start(league_id=league.pk, by=request.user)
            messages.success(request, _("Season %(number)s has started.") % {
                "number": season.number})
        elif action == "add-bot":
            services.league_bot_enter(league_id=league.pk, by=request.user,
                                      bot=request.POST.get("bot", ""))
        elif action == "remove-bot":
            services.league_bot_remove(league_id=league.pk, by=request.user,
                                       member_id=request.POST.get("member", ""))
        else:
            raise Http404(_("No such action."))
    except ServiceError as error:
        return refuse(request, error)
    return done(request, _url(league))
