"""A seat that finds a new commander, end to end: real PostgreSQL, Redis, Celery worker and
beat. Bob's deadline passes and beat's sweeper has the worker resolve it: the match's policy
flags his seat, the outbox relay has the worker play it with the bot; Carol takes it over
through its link; the match ends; Bob's record keeps his miss, Carol's starts clean."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import DeadlineMiss, Match, Phase, Reliability, Seat, SeatTenure, Submission
from tests.helpers import submit
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def resolved(match_id: int, number: int) -> bool:
    return Phase.objects.filter(match_id=match_id, number=number, status="resolved").exists()


def test_a_flagged_seat_is_played_by_the_bot_then_taken_over_through_its_link(stack,
                                                                               make_user):
    stack.worker()
    stack.beat()
    alice, bob, carol = make_user("sk-alice"), make_user("sk-bob"), make_user("sk-carol")
    match = services.match_create(
        creator=alice, game="toy-duel", options={"target": 2}, hours_per_phase=24,
        miss_limit=1, autopilot=True, title="Taken over",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    submit(match, alice, 1, 5)
    past = timezone.now() - timedelta(seconds=1)  # Bob lets phase 1's deadline pass
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, number=1).update(deadline=past)
    wait_until(lambda: resolved(match.pk, 1), 40, "the sweeper to resolve the late phase")
    flagged = Seat.objects.get(match=match, number=2)
    assert (flagged.user, flagged.status, flagged.bot) == (None, "flagged", "random")
    # The worker plays the seat with the bot as each phase opens.
    wait_until(lambda: Submission.objects.filter(phase__match=match, phase__number=2,
                                                 seat__number=2, source="bot").exists(),
               30, "the bot's phase 2 sheet for the flagged seat")
    submit(match, alice, 1, 1)
    wait_until(lambda: resolved(match.pk, 2), 30, "the worker to resolve phase 2")
    assert Phase.objects.get(match=match, number=2).revealed["2"]["source"] == "bot"
    # Carol takes command through the seat's link (the web's part: this process).
    client = Client()
    client.force_login(carol)
    answer = client.post(reverse("games:seat_take", args=[flagged.offer_token]),
                         {"confirm": "on"})
    assert answer.status_code == 302
    assert Seat.objects.get(match=match, number=2).user == carol
    while Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE:
        submit(match, carol, 2, 5)
        phase = match.phase_number  # (read again by submit)
        submit(match, alice, 1, 1)
        wait_until(lambda phase=phase: resolved(match.pk, phase), 30,
                   f"the worker to resolve phase {phase}")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [2]
    wait_until(lambda: Reliability.objects.filter(user=carol).exists(), 30,
               "the worker to count the match in the players' records")
    bob_record, carol_record = (Reliability.objects.get(user=u) for u in (bob, carol))
    assert (bob_record.matches_abandoned, bob_record.deadlines_missed) == (1, 1)
    assert (carol_record.matches_finished, carol_record.deadlines_missed,
            carol_record.score) == (1, 0, 100)
    assert list(DeadlineMiss.objects.filter(match=match).values_list("user", flat=True)) == [
        bob.pk]
    assert sorted(SeatTenure.objects.filter(match=match).values_list("ending", flat=True)) == [
        "end", "end", "missed"]
