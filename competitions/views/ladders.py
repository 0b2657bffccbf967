"""Ladder pages: the leaderboard, a player's history, challenges."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from competitions import selectors, services
from competitions.models import Challenge, Ladder
from competitions.views.common import done, refuse
from games.services import ServiceError


def _ladder_or_404(request: HttpRequest, ladder_id: int) -> Ladder:
    ladder = Ladder.objects.select_related("club").filter(pk=ladder_id).first()
    if ladder is None or (ladder.club_id and not selectors.clubs_visible(request.user).filter(
            pk=ladder.club_id).exists()):
        raise Http404(_("No such ladder."))
    return ladder


def ladder_detail(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = _ladder_or_404(request, ladder_id)
    challenges, opponents = Challenge.objects.none(), []
    if request.user.is_authenticated:
        opponents = selectors.ladder_opponents(ladder, request.user)
        challenges = ladder.challenges.filter(
            challenger_id=request.user.pk) | ladder.challenges.filter(
            challenged_id=request.user.pk)
        challenges = challenges.select_related("challenger", "challenged", "match")[:30]
    return render(request, "competitions/ladder.html", {
        "ladder": ladder, "rows": selectors.ladder_leaderboard(ladder),
        "challenges": challenges, "opponents": opponents})


def ladder_player(request: HttpRequest, ladder_id: int, user_id: int) -> HttpResponse:
    ladder = _ladder_or_404(request, ladder_id)
    player = get_user_model().objects.filter(pk=user_id).first()
    if player is None:
        raise Http404(_("No such player."))
    return render(request, "competitions/ladder_player.html", {
        "ladder": ladder, "player": player,
        "history": selectors.rating_history(ladder, player.pk),
        "seasons": selectors.player_seasons(player, game=ladder.game, viewer=request.user)})


@login_required
@require_POST
def challenge_create(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = _ladder_or_404(request, ladder_id)
    nearest = request.POST.get("nearest") == "1"
    opponent = None
    if not nearest:
        name = request.POST.get("opponent", "").strip()
        opponent = get_user_model().objects.filter(username=name).first()
        if opponent is None:
            return refuse(request, ServiceError("invalid", _("There is no player “%(name)s”.") % {
                "name": name[:150]}))
    try:
        challenge = services.challenge_create(ladder_id=ladder.pk, by=request.user,
                                              opponent=opponent, nearest=nearest)
    except ServiceError as error:
        return refuse(request, error)
    messages.success(request, _("You challenged %(player)s.") % {
        "player": challenge.challenged})
    return done(request, reverse("competitions:ladder", args=[ladder.pk]))


@login_required
@require_POST
def challenge_answer(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Accept (the challenged), decline (the challenged) or withdraw (the challenger)."""
    answer = request.POST.get("answer")
    try:
        if answer == "accept":
            challenge = services.challenge_accept(challenge_id=challenge_id, by=request.user)
            return done(request, reverse("games:match", args=[challenge.match_id]))
        if answer == "decline":
            challenge = services.challenge_decline(challenge_id=challenge_id, by=request.user)
            return done(request, reverse("competitions:ladder", args=[challenge.ladder_id]))
        raise ServiceError("invalid", _("Accept or decline the challenge."))
    except ServiceError as error:
        return refuse(request, error)
