"""The home page after log-in: what now? The matches waiting for my move first (soonest
deadline first), then what I am invited to, my tournaments' rounds and my recent results; and
one click to the next match that needs me."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from competitions.models import Challenge, Entry, Membership, Round, Tournament
from games import pagecache, selectors
from games.endings import ending_for_seat, ending_of, ending_sentence
from games.models import Match
from games.prepared import Prepared, run_together
from games.views.access import match_path

RECENT_RESULTS = 5


@dataclass(frozen=True)
class Home:
    waiting: list[Match]
    others: int  # my other current matches (waiting for someone else, or for players)
    challenges: list[Challenge]
    open_tournaments: list[Tournament]
    rounds: list[Round]
    results: list[dict[str, Any]]
    # No match yet, running or played: the page points to a first one against a bot.
    first_time: bool = False


def home_for(user: AbstractBaseUser) -> Home:
    """What the home page shows ``user``: a few short queries, each bounded."""
    # Current and recently finished matches in one round trip (a limit of 0 cannot be
    # prepared: an empty query).
    mine = selectors.matches_for_user(user, finished_limit=RECENT_RESULTS)
    current = [m for m in mine if m.status in (Match.Status.ACTIVE, Match.Status.OPEN)]
    waiting = [m for m in current if m.waiting_for_me]
    for match in current:
        match.url = match_path(match.pk)
    ended = [match for match in mine
             if match.status in (Match.Status.FINISHED, Match.Status.ABORTED)]
    # The rest in one round trip, each query compiled once per connection.
    challenges, open_tournaments, rounds = run_together(
        (_CHALLENGES, {"user_id": user.pk}), (_OPEN_TOURNAMENTS, {"user_id": user.pk}),
        (_ROUNDS, {"user_id": user.pk}))
    results = [_result_for(match) for match in ended]
    return Home(waiting=waiting, others=len(current) - len(waiting), challenges=challenges,
                open_tournaments=open_tournaments, rounds=rounds, results=results,
                first_time=not mine)


_CHALLENGES = Prepared(Challenge, lambda user_id: Challenge.objects.filter(
    challenged_id=user_id, status=Challenge.Status.OPEN)
    .select_related("ladder", "challenger").order_by("expires_at")[:10], server_side=True,
    user_id="int")
_OPEN_TOURNAMENTS = Prepared(Tournament, lambda user_id: Tournament.objects.filter(
    club_id__in=Membership.objects.filter(user_id=user_id).values("club_id"),
    status=Tournament.Status.REGISTRATION, registration_open=True)
    .exclude(pk__in=Entry.objects.filter(user_id=user_id).values("tournament_id"))
    .select_related("club").order_by("-pk")[:10], server_side=True,
    user_id="int")
_ROUNDS = Prepared(Round, lambda user_id: Round.objects.filter(
    status=Round.Status.RUNNING, tournament__entries__user_id=user_id,
    tournament__entries__status=Entry.Status.ACTIVE, tournament__status=Tournament.Status.RUNNING)
    .select_related("tournament").order_by("ends_at")[:10], server_side=True,
    user_id="int")
def _result_for(match: Match) -> dict[str, Any]:
    """How the match ended for me (``outcome``), and how it ended (``how``: the sentence
    every surface says, ``games.endings``)."""
    ending = ending_of(match)
    outcome = ending_for_seat(ending, match.my_seat.number,
                              aborted=match.status == Match.Status.ABORTED)
    how = ending_sentence(match.game, ending) if ending is not None else ""
    return {"match": match, "url": match_path(match.pk), "outcome": outcome, "how": how}


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The page is rendered once for what it shows (``games.pagecache``): its rows, and the time
    left to each deadline in words (the same words for a minute or more)."""
    mine = home_for(request.user)
    now = timezone.now()
    for match in mine.waiting:
        match.left = timeuntil(match.deadline, now) if match.deadline else ""
    return render(request, "home/home.html", {
        "home": mine, "home_key": pagecache.fingerprint(request.user.pk, mine)})


@login_required
def next_match(request: HttpRequest) -> HttpResponse:
    """The match needing my move with the soonest deadline (after ``?after=<match id>``'s
    place in that order, so that "next" walks through them all), or home when none does."""
    waiting = [m.pk for m in selectors.matches_for_user(request.user, finished_limit=1)
               if m.waiting_for_me]
    after = request.GET.get("after", "")
    if after in {str(pk) for pk in waiting}:
        at = [str(pk) for pk in waiting].index(after)
        waiting = waiting[at + 1:] + waiting[:at]
    if not waiting:
        from django.contrib import messages

        messages.info(request, _("No match is waiting for your move."))
        return redirect("home")
    return redirect(match_path(waiting[0]))
