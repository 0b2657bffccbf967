"""The turn lifecycle end to end: real PostgreSQL, Redis, Celery worker and beat processes."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match, Phase, Seat, Submission
from tests.helpers import submit
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def duel(make_user, name: str, **kwargs) -> Match:
    alice, bob = make_user(f"{name}-a"), make_user(f"{name}-b")
    args = {"options": {}, "hours_per_phase": 24}
    args.update(kwargs)
    match = services.match_create(
        creator=alice, game="toy-duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}], **args)
    match.alice, match.bob = alice, bob
    return match


def resolved(match_id: int, number: int) -> bool:
    return Phase.objects.filter(match_id=match_id, number=number, status="resolved").exists()


def test_both_seats_submit_and_the_worker_resolves_then_bots_play(stack, make_user):
    stack.worker()
    match = duel(make_user, "happy")
    submit(match, match.alice, 1, 5, phase=1)
    submit(match, match.bob, 2, 3, phase=1)
    wait_until(lambda: resolved(match.pk, 1), 30, "the worker to resolve phase 1")
    match.refresh_from_db()
    assert match.phase_number == 2 and match.state["scores"] == {"1": 1, "2": 0}
    assert Phase.objects.get(match=match, number=2).status == "open"

    # A bot seat: its sheet is queued on commit of every phase opening and submitted by the worker.
    human = make_user("human")
    bot_match = services.match_create(
        creator=human, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": human}, {"kind": "bot", "bot": "random"}])
    wait_until(lambda: Submission.objects.filter(phase__match=bot_match, source="bot").exists(),
               30, "the bot's phase 1 sheet")
    services.orders_submit(match_id=bot_match.pk, seat_number=1, user=human, phase_number=1,
                           data={"number": 4}, source="web")
    wait_until(lambda: Submission.objects.filter(phase__match=bot_match, phase__number=2,
                                                 source="bot").exists(),
               30, "resolution of phase 1 and the bot's phase 2 sheet")
    assert resolved(bot_match.pk, 1)


def test_deadline_passes_and_beat_sweeps_it_with_the_default_and_a_miss(stack, make_user):
    stack.worker()
    stack.beat()
    match = duel(make_user, "late", hours_per_phase=0.001)  # a 3.6-second phase
    submit(match, match.alice, 1, 4, phase=1)
    wait_until(lambda: resolved(match.pk, 1), 40, "the sweeper to resolve the late phase")
    phase = Phase.objects.get(match=match, number=1)
    assert phase.revealed["1"]["source"] == "web"
    assert phase.revealed["2"] == {**phase.revealed["2"], "source": "default",
                                   "data": {"number": 1}}
    late_seat = Seat.objects.get(match=match, number=2)
    assert (late_seat.missed_in_row, late_seat.missed_total) == (1, 1)
    assert Seat.objects.get(match=match, number=1).missed_in_row == 0


def test_a_poison_phase_is_quarantined_and_does_not_block_other_matches(stack, make_user):
    stack.worker(RESOLVE_MAX_ATTEMPTS="2")
    stack.beat()  # re-queues the failing phase (complete but unresolved) until quarantined
    poison = duel(make_user, "poison", options={"poison_round": 1})
    submit(poison, poison.alice, 1, 5, phase=1)
    submit(poison, poison.bob, 2, 2, phase=1)
    wait_until(lambda: Phase.objects.filter(match=poison, status="quarantined").exists(), 40,
               "the poison phase to be quarantined")
    phase = Phase.objects.get(match=poison, number=1)
    assert phase.attempts == 2 and "poisoned at round 1" in phase.last_error
    healthy = duel(make_user, "healthy")
    submit(healthy, healthy.alice, 1, 1, phase=1)
    submit(healthy, healthy.bob, 2, 4, phase=1)
    wait_until(lambda: resolved(healthy.pk, 1), 30, "a healthy match to resolve meanwhile")
    assert Phase.objects.get(pk=phase.pk).status == "quarantined"


def test_resolutions_are_taken_before_a_backlog_of_notifications(stack, make_user):
    """Resolutions go to the lifecycle queue, which a worker empties first (Redis "priority"
    order), so a backlog of mail never holds up the next phase: five resolutions queued after
    thirty notification dispatches all run before any of them (with one queue, all thirty
    would run first: checked by removing the routes)."""
    from django.utils import timezone

    from durable.models import OutboxEvent
    from durable.worker import Enqueue

    matches = [duel(make_user, f"m{n}") for n in range(5)]
    backlog = OutboxEvent.objects.bulk_create([
        OutboxEvent(kind="signal", name="phase_resolved", created_at=timezone.now(),
                    payload={"match_id": 0, "phase_number": 0, "finished": False})
        for _ in range(30)])
    for row in backlog:  # the worker is not running yet: they wait in the default queue
        assert Enqueue("durable.tasks.outbox_dispatch", ids=[row.pk])()
    for match in matches:
        submit(match, match.alice, 1, 5, phase=1)
        submit(match, match.bob, 2, 3, phase=1)  # on commit: its resolution, on the lifecycle queue
    stack.worker(concurrency=1, pool="solo")
    wait_until(lambda: not OutboxEvent.objects.filter(pk__in=[r.pk for r in backlog],
                                                      done_at__isnull=True).exists(),
               60, "the worker to carry out the backlog")
    resolved_at = list(Phase.objects.filter(match__in=matches, number=1)
                       .values_list("resolved_at", flat=True))
    first_done = min(OutboxEvent.objects.filter(pk__in=[r.pk for r in backlog])
                     .values_list("done_at", flat=True))
    assert None not in resolved_at and max(resolved_at) < first_done
