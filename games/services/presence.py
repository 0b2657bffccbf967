"""Whether a player is at the match page now: the page's poll (every few seconds while a
phase is open) records it on the player's seat (``seat_seen``, at most once a minute per player
and match, so that the poll stays one query), and ``at_the_page`` tells the mail who need not
be told "your move": against a bot that answers in seconds, a player at the page would
otherwise get a mail for every turn."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.utils import timezone

from games.models import Seat

# A record of presence is written at most this often per player and match.
SEEN_EVERY = timedelta(minutes=1)
# A player seen this recently is at the page (the page polls every few seconds while open).
PRESENT_FOR = timedelta(minutes=5)
# ... unless the deadline is this close: then the mail goes anyway, in case they just left.
DEADLINE_SOON = timedelta(hours=1)


def seat_seen(*, match_id: int, user_id: int, now: datetime | None = None) -> None:
    """Record that ``user_id`` has match ``match_id``'s page open (on their seat, if any)."""
    if not cache.add(f"seat-seen:{match_id}:{user_id}", 1, int(SEEN_EVERY.total_seconds())):
        return  # recorded less than a minute ago
    Seat.objects.filter(match_id=match_id, user_id=user_id).update(
        seen_at=now or timezone.now())


def at_the_page(seat: Seat, deadline: datetime | None, now: datetime) -> bool:
    """Whether ``seat``'s player is at the match page now and the deadline ``deadline`` (None:
    none) is far enough away that a "your move" mail can be left out."""
    return (seat.seen_at is not None and now - seat.seen_at <= PRESENT_FOR
            and (deadline is None or deadline - now > DEADLINE_SOON))

