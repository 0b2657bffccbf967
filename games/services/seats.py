"""Joining and leaving seats: of an open match, and of a match in play (by invitation to a
seat a moderator opened; leaving hands the seat to a new commander)."""

from __future__ import annotations

import hmac
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, ModerationEntry, Seat
from games.services.common import match_lock
from games.services.errors import ServiceError
from games.services.match import match_start
from games.services.reliability import reliability_check
from games.services.seeking import held_before, held_before_error, seat_offer
from games.services.tenures import Ending, tenure_begin


def _require_user(user: AbstractBaseUser | None) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to take a seat."))


@transaction.atomic
def seat_join(
    *,
    match_id: Any,
    user: AbstractBaseUser,
    seat_number: int | None = None,
    invite_token: str | None = None,
) -> Seat:
    """Take an open seat (the first one unless ``seat_number``); the last one starts the match.

    Private matches need the match's invite token, and so does a seat a moderator opened in a
    match in play (``seat_moderate_replace``). Locks the match row.
    """
    _require_user(user)
    match = match_lock(match_id)
    # Compared as bytes: compare_digest refuses text with non-ASCII characters (a TypeError).
    with_invite = bool(invite_token) and hmac.compare_digest(str(invite_token).encode(),
                                                              match.invite_token.encode())
    if not match.is_public and not with_invite:
        raise ServiceError("bad_invite", _("This match is private: you need its invitation link."))
    # A seat a moderator opened in a match in play is taken with the invite link only.
    if match.status != Match.Status.OPEN and not (match.status == Match.Status.ACTIVE
                                                  and with_invite):
        raise ServiceError("not_open", _("This match is no longer taking players."))
    seats = list(match.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise ServiceError("already_seated", _("You already have a seat in this match."))
    if match.status == Match.Status.ACTIVE and ModerationEntry.objects.filter(
            match=match, kind=ModerationEntry.Kind.KICK, details__user_id=user.pk).exists():
        raise ServiceError("kicked", _("A moderator removed you from this match: you cannot "
                           "take a seat in it again."))
    reliability_check(user=user, minimum=match.min_reliability, what=_("This match"))
    if seat_number is None:
        seat = next((s for s in seats if s.status == Seat.Status.OPEN), None)
        if seat is None:
            raise ServiceError("no_open_seat", _("There is no open seat in this match."))
    else:
        seat = next((s for s in seats if str(s.number) == str(seat_number).strip()), None)
        if seat is None:
            raise ServiceError("not_found", _("This match has no seat %(number)s.")
                               % {"number": seat_number})
        if seat.status != Seat.Status.OPEN:
            raise ServiceError("seat_taken", _("Seat %(number)s is already taken.")
                               % {"number": seat_number})
    # Who held another seat of a match in play knows its secrets: never a second seat.
    if match.status == Match.Status.ACTIVE and held_before(match=match, user=user,
                                                           seat_number=seat.number):
        raise held_before_error()
    seat.user = user
    seat.status = Seat.Status.TAKEN
    seat.joined_at = timezone.now()
    seat.save(update_fields=["user", "status", "joined_at"])
    if match.status == Match.Status.ACTIVE:  # a seat a moderator opened: a tenure begins
        tenure_begin(match=match, seat=seat, at=seat.joined_at)
    if match.status == Match.Status.OPEN and not any(s.status == Seat.Status.OPEN
                                                     for s in seats):
        match_start(match_id=match.pk, by=user)
    return seat


@transaction.atomic
def seat_leave(*, match_id: Any, user: AbstractBaseUser) -> Seat:
    """Give up one's seat: while the match is open it is open again (the creator may leave
    too); in a match in play it seeks a new commander (``games.services.seeking``: offered in
    the lobby and by its link, played by the bot meanwhile if the match allows), and the
    player's tenure ends as left, which their reliability counts as abandoned. Locks the
    match row."""
    _require_user(user)
    match = match_lock(match_id)
    if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
        raise ServiceError("not_open", _("This match is over: there is no seat to leave."))
    seat = match.seats.filter(user=user).first()
    if seat is None:
        raise ServiceError("not_your_seat", _("You have no seat in this match."))
    if match.status == Match.Status.ACTIVE:  # (a seat out of the match is refused)
        return seat_offer(match=match, seat=seat, now=timezone.now(), ending=Ending.LEFT)
    seat.user = None
    seat.status = Seat.Status.OPEN
    seat.joined_at = None
    seat.save(update_fields=["user", "status", "joined_at"])
    return seat
