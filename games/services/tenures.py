"""Seat tenures (``SeatTenure``): who commanded a seat of a match in play, from when to when,
and why their command ended. A tenure begins when the match starts with the player seated, or
when a player takes a seat of a match in play (a join by invitation, a takeover, a moderator's
replacement); it ends when the seat is handed on (left, flagged after missed deadlines, removed
or replaced by a moderator, forfeited) or with the match (``tenures_close``). Reliability and
ladders read tenures, never the seat's own counters: a newcomer starts clean."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from games.models import Match, Seat, SeatTenure

Ending = SeatTenure.Ending


def tenure_rows(*, match: Match, seats: Iterable[Seat], at: datetime) -> list[SeatTenure]:
    """Unsaved tenures of the seats of ``seats`` that a player holds, begun ``at`` (the caller
    inserts them with its other rows)."""
    return [SeatTenure(match=match, seat_number=seat.number, user_id=seat.user_id, started_at=at)
            for seat in seats if seat.user_id is not None]


def tenure_begin(*, match: Match, seat: Seat, at: datetime) -> SeatTenure:
    """``seat``'s player (just seated, the caller holds the match lock) begins a tenure."""
    return SeatTenure.objects.create(match=match, seat_number=seat.number, user_id=seat.user_id,
                                     started_at=at)


def tenure_end(*, match_id: Any, seat_number: int, at: datetime, ending: str) -> int:
    """End the seat's tenure in progress (if any): how many ended, 0 or 1."""
    return SeatTenure.objects.filter(match_id=match_id, seat_number=seat_number,
                                     ended_at__isnull=True).update(ended_at=at, ending=ending)


def tenures_close(*, match: Match, at: datetime) -> int:
    """The match ended: every tenure still in progress was held to the end."""
    return SeatTenure.objects.filter(match=match, ended_at__isnull=True).update(
        ended_at=at, ending=Ending.END)
