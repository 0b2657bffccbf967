"""Helpers for the competitions' tests: matches are finished through the real services."""

from __future__ import annotations

import pytest

from games import services


def run_signals(callbacks) -> None:
    """Deliver the signals a transaction promised in its outbox (what the worker's
    ``outbox_dispatch`` does after the commit), raising (not logging) any listener's error.
    Called again, it delivers them again, as a duplicate would."""
    from durable.models import OutboxEvent
    from games.signals import BY_NAME

    for callback in callbacks:
        if getattr(callback, "task_name", "") == "durable.tasks.outbox_dispatch":
            rows = OutboxEvent.objects.filter(pk__in=callback.kwargs["ids"], kind="signal")
            for row in rows.order_by("pk"):
                BY_NAME[row.name].send(sender=None, **row.payload)


@pytest.fixture
def finish(django_capture_on_commit_callbacks):
    """finish(match, winner_seat): a toy-duel match (target 1) won by ``winner_seat``, with the
    on-commit signals delivered (``times`` > 1 re-delivers them, as a duplicate would)."""

    def play(match, winner_seat: int, times: int = 1):
        match.refresh_from_db()
        users = {s.number: s.user for s in match.seats.all()}
        with django_capture_on_commit_callbacks() as callbacks:
            for seat, number in ((winner_seat, 5), (3 - winner_seat, 1)):
                services.orders_submit(match_id=match.pk, seat_number=seat, user=users[seat],
                                       phase_number=match.phase_number,
                                       data={"number": number}, source="web")
            assert services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
        for _ in range(times):
            run_signals(callbacks)
        match.refresh_from_db()
        return match

    return play


@pytest.fixture
def players(make_user):
    """players(n, prefix) -> n saved users."""

    def make(n: int, prefix: str = "p"):
        return [make_user(f"{prefix}{i}") for i in range(1, n + 1)]

    return make
