"""Seats that find a new commander.

A seat of a match in play is offered to a new commander ("seeking a commander") when its
player leaves it (``seat_leave``), when the missed-deadline policy flags it (the resolution,
``games.services.resolve``), or when a moderator removes its player (``seat_kick``): the
player's tenure ends (``games.services.tenures``), the seat gets an unguessable link
(``Seat.offer_token``) and, in a public match, a line in the lobby. Until someone takes it the
game's bot plays it if the match allows (``Match.autopilot``: while offered the bot is the
seat's ``bot``, so the lifecycle queues its turns as it does any bot seat's); otherwise its
default sheets are played at each deadline. Nobody holds the seat meanwhile, so no miss is
written against anybody.

``seat_take`` hands the seat to a newcomer through its link: a tenure of their own, with a
clean record (the seat's misses stay with the players who missed them). Candidates see the
match only as a spectator does until they have taken the seat (``games.views.seeking``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from durable.outbox import outbox_write, task_event
from engine import Game, PhaseKind
from games.models import (
    Match,
    ModerationEntry,
    Phase,
    Seat,
    SeatTenure,
    Submission,
    new_offer_token,
)
from games.services.common import game_for, match_lock
from games.services.errors import ServiceError
from games.services.queue import signal_event
from games.services.reliability import reliability_check
from games.services.tenures import Ending, tenure_begin, tenure_end
from games.services.votes import seat_out, votes_seat_changed

# The seat's fields ``seat_vacate`` changes (the caller saves them).
VACATED_FIELDS = ("user", "bot", "status", "offer_token", "offered_at", "joined_at",
                  "missed_in_row")
OFFERED = "offered"
TAKEN = "taken"


def autopilot_bot(match: Match, game: Game) -> str:
    """The bot that plays a seat of ``match`` while it seeks a commander ("": none)."""
    return game.bots[0] if match.autopilot and game.bots else ""


def seat_vacate(*, match: Match, seat: Seat, game: Game, now: datetime, ending: str
                ) -> list[tuple]:
    """Offer ``seat`` of the locked ``match`` in play to a new commander, in memory: the
    caller saves ``VACATED_FIELDS``, ends the player's tenure with ``ending`` and promises the
    returned outbox events (the "seat offered" notice)."""
    previous = seat.user_id
    seat.user = None
    seat.bot = autopilot_bot(match, game)
    seat.status = Seat.Status.FLAGGED
    seat.offer_token = new_offer_token()
    seat.offered_at = now
    seat.joined_at = None
    seat.missed_in_row = 0
    return [signal_event("seat_changed", match.pk, match_id=match.pk, seat_number=seat.number,
                         change=OFFERED, user_id=previous, ending=ending, at=now.isoformat())]


def seat_in_play_or_refuse(*, match: Match, seat: Seat, game: Game) -> None:
    """A seat out of the match (forfeited, conceded, out by the rules) is nobody's to leave,
    hand on, offer or take: ServiceError("seat_out") saying so."""
    if not seat_out(match, game, seat):
        return
    if seat.status == Seat.Status.FORFEITED:
        raise ServiceError("seat_out", _("This seat has forfeited the match: it is out of the "
                                         "game and cannot be handed on."))
    if seat.status == Seat.Status.CONCEDED:
        raise ServiceError("seat_out", _("This seat conceded the match: it is out of the game "
                                         "and cannot be handed on."))
    raise ServiceError("seat_out", _("This seat is out of the game: it cannot be handed on."))


def held_before(*, match: Match, user: AbstractBaseUser, seat_number: int | None = None
                ) -> bool:
    """Whether ``user`` commanded a seat of ``match`` in play before (another seat than
    ``seat_number``, if given): such a player knows that seat's secrets, so never takes
    another seat of the match."""
    tenures = SeatTenure.objects.filter(match=match, user=user)
    if seat_number is not None:
        tenures = tenures.exclude(seat_number=seat_number)
    return tenures.exists()


def held_before_error() -> ServiceError:
    return ServiceError("held_before", _("You held a seat of this match before: you cannot "
                                         "take another seat in it."))


def seat_offer(*, match: Match, seat: Seat, now: datetime, ending: str) -> Seat:
    """Offer ``seat`` of the locked ``match`` in play (its player left it, or was removed) and
    save it: the tenure ends, and an autopilot owing a sheet in the open phase plays at once.
    A seat out of the match is refused (``seat_in_play_or_refuse``)."""
    game = game_for(match.game)
    seat_in_play_or_refuse(match=match, seat=seat, game=game)
    events = seat_vacate(match=match, seat=seat, game=game, now=now, ending=ending)
    seat.save(update_fields=list(VACATED_FIELDS))
    tenure_end(match_id=match.pk, seat_number=seat.number, at=now, ending=ending)
    events += votes_seat_changed(match=match, now=now)
    if (seat.bot and match.paused_at is None and match.phase_kind != PhaseKind.CONTINUOUS.value
            and seat.number in game.prompts(match.state)
            and not Submission.objects.filter(phase__match=match, phase__number=match.phase_number,
                                              phase__status=Phase.Status.OPEN,
                                              seat=seat).exists()):
        events.append(task_event("games.tasks.bot_submit", match.pk, match_id=match.pk,
                                 seat_number=seat.number, phase_number=match.phase_number))
    outbox_write(events)
    return seat


def _offered_seat(match: Match, token: str) -> Seat:
    """The seat ``token`` offers, read again under the match lock (taken meanwhile: gone)."""
    seat = Seat.objects.filter(match=match, offer_token=token).first()
    if seat is None:
        raise ServiceError("not_found", _("This seat is no longer looking for a commander."))
    return seat


def seat_offered(*, token: Any) -> Seat | None:
    """The seat offered by ``token`` (with its match), or None. No lock: for reading."""
    if not isinstance(token, str) or not 8 <= len(token) <= 64:
        return None
    return (Seat.objects.select_related("match").filter(offer_token=token)
            .defer("match__state").first())


@transaction.atomic
def seat_take(*, token: Any, user: AbstractBaseUser | None) -> Seat:
    """Take command of the seat offered by ``token``: the newcomer's own tenure begins, with a
    clean record; the seat's autopilot stops (a sheet it sealed for the open phase stands
    unless the newcomer replaces it). Refused for a player who has a seat in the match, or
    ever held another one (they know its secrets; their own seat they may take back), one a
    moderator removed from it, or one below the match's minimum reliability, and for a seat
    out of the match. Locks the match row."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to take a seat."))
    found = seat_offered(token=token)
    if found is None:
        raise ServiceError("not_found", _("This seat is no longer looking for a commander."))
    match = match_lock(found.match_id)
    seat = _offered_seat(match, token)
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("This match is no longer in play."))
    if Seat.objects.filter(match=match, user=user).exists():
        raise ServiceError("already_seated", _("You already have a seat in this match."))
    if ModerationEntry.objects.filter(match=match, kind=ModerationEntry.Kind.KICK,
                                      details__user_id=user.pk).exists():
        raise ServiceError("kicked", _("A moderator removed you from this match: you cannot "
                                       "take a seat in it again."))
    if held_before(match=match, user=user, seat_number=seat.number):
        raise held_before_error()
    seat_in_play_or_refuse(match=match, seat=seat, game=game_for(match.game))
    reliability_check(user=user, minimum=match.min_reliability, what=_("This match"))
    now = timezone.now()
    # A player still named on the seat (flagged before seats were vacated at once): ended.
    tenure_end(match_id=match.pk, seat_number=seat.number, at=seat.offered_at or now,
               ending=Ending.MISSED)
    seat.user, seat.bot, seat.status = user, "", Seat.Status.TAKEN
    seat.offer_token = seat.offered_at = None
    seat.joined_at = now
    seat.missed_in_row = 0
    seat.save(update_fields=list(VACATED_FIELDS))
    tenure_begin(match=match, seat=seat, at=now)
    outbox_write([signal_event("seat_changed", match.pk, match_id=match.pk,
                               seat_number=seat.number, change=TAKEN, user_id=user.pk,
                               ending="", at=now.isoformat())])
    return seat
