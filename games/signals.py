"""Signals the turn lifecycle sends. Every one is promised inside the lifecycle transaction (an
outbox row) and sent after the commit by a worker, never inside the transaction."""

from collections.abc import Callable
from typing import Any

from django.dispatch import Signal

Payloads = list[dict[str, Any]]

# Sent after a phase opened (match start or after a resolution). kwargs: match_id, phase_number.
phase_opened = Signal()

# Sent after a phase's resolution committed. kwargs: match_id, phase_number, finished (bool).
phase_resolved = Signal()

# Sent after a match finished (by the rules, by forfeit or aborted). kwargs: match_id, status.
match_ended = Signal()

# Sent after a continuous match's gameday tick committed (once per gameday).
# kwargs: match_id, gameday (the game's gameday key).
gameday_opened = Signal()

# Sent after a player took leave (games.services.leave_take). kwargs: leave_id.
leave_taken = Signal()

# Sent after a vote to end a match changed (games.services.votes). kwargs: match_id, vote_id,
# what ("opened", "failed", "expired", "closed", "conceded"; a vote that passes ends the match,
# which ``match_ended`` tells).
vote_changed = Signal()
# Sent after a seat of a match in play changed hands (games.services.seeking). kwargs:
# match_id, seat_number, change ("offered": it seeks a new commander, its player having left,
# been flagged after missed deadlines or removed; "taken": a newcomer took it), user_id (the
# player who left it, or who took it; None if nobody held it), ending (why the player's
# command ended, a SeatTenure.Ending; "" for "taken"), at (when, ISO 8601).
seat_changed = Signal()

# The outbox carries signals by name (durable.outbox: ``send_by_name``).
BY_NAME = {
    "phase_opened": phase_opened,
    "phase_resolved": phase_resolved,
    "match_ended": match_ended,
    "gameday_opened": gameday_opened,
    "leave_taken": leave_taken,
    "vote_changed": vote_changed,
    "seat_changed": seat_changed,
}


def receiver_of_many(many: Callable[[Payloads], Any]) -> Callable[..., Any]:
    """A receiver (``receiver(sender, **payload)``) made of ``many``, a function that takes a
    list of payloads at once (a decorator: the receiver keeps its name): connected as any
    receiver, it hears one signal as a list of one; ``send_many`` hands it a whole batch (the
    outbox's rows of one signal)."""

    def receiver(sender: Any, **payload: Any) -> Any:
        payload.pop("signal", None)
        return many([payload])

    receiver.many = many  # type: ignore[attr-defined]
    receiver.__name__, receiver.__qualname__ = many.__name__, many.__qualname__
    receiver.__module__, receiver.__doc__ = many.__module__, many.__doc__
    return receiver


def send_many(signal: Signal, payloads: Payloads) -> None:
    """Send ``signal`` once for each of ``payloads``: a receiver made by ``receiver_of_many``
    takes them all in one call, any other one by one. The first failure is raised (the caller
    runs this in a savepoint and tries each payload on its own then)."""
    # (Django's own list of the live receivers: there is no public one)
    receivers, _async = signal._live_receivers(None)
    for receiver in receivers:
        many = getattr(receiver, "many", None)
        if many is not None:
            many(payloads)
        else:
            for payload in payloads:
                receiver(signal=signal, sender=None, **payload)


def send_by_name(name: str, payload: dict) -> None:
    """Send the signal ``name`` of ``BY_NAME`` with ``payload`` (an outbox row): a listener
    that fails makes it fail, so that the row is tried again."""
    for receiver, response in BY_NAME[name].send_robust(sender=None, **payload):
        if isinstance(response, Exception):
            raise RuntimeError(f"listener {receiver!r} failed") from response


def send_many_by_name(name: str, payloads: Payloads) -> bool:
    """``send_many`` for the signal ``name`` (a batch of outbox rows)."""
    send_many(BY_NAME[name], payloads)
    return True

