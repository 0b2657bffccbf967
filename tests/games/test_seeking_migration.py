"""The data migration of the one missed-turn policy (games/0024): Final Strategy matches lose
the engine's own miss counter and option (and a removal the engine made becomes the phase's
input), matches get their players' tenures, a seat flagged the old way is offered, and the
matches play on."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.utils import timezone

from games import services
from games.models import DeadlineMiss, Match, Phase, Seat, SeatTenure
from games.services.common import removed_seats
from tests.games.test_seeking import alice_misses_her_turn, dispatch, duel, final_strategy

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("games.migrations.0024_one_missed_turn_policy")


def as_before(match: Match) -> None:
    """``match`` as the old engine and lifecycle left it: the option and the counter in its
    options and states, and no tenures."""
    options = {**match.options, "miss_limit": 3}
    state = {**match.state, "options": {**match.state["options"], "miss_limit": 3},
             "misses": {"1": 2, "2": 0, "3": 0}}
    Match.objects.filter(pk=match.pk).update(options=options, state=state)
    for phase in Phase.objects.filter(match=match):
        phase.state_before = {**phase.state_before, "misses": {"1": 0, "2": 0, "3": 0},
                              "options": {**phase.state_before["options"], "miss_limit": 3}}
        phase.save(update_fields=["state_before"])
    SeatTenure.objects.filter(match=match).delete()


def test_a_final_strategy_match_loses_the_engines_counter_and_plays_on(make_user):
    alice = make_user("alice")
    match = final_strategy(alice, miss_policy="forfeit", miss_limit=5)
    alice_misses_her_turn(match)
    dispatch()
    as_before(match)
    # A removal the old engine made itself, in its turn's events.
    removal = Phase.objects.filter(match=match, status="resolved").order_by("number").first()
    removal.events = [*removal.events, {"type": "remove", "seat": removal.state_before[
        "to_move"]}]
    removal.save(update_fields=["events"])

    MIGRATION.forwards(apps, None)
    match.refresh_from_db()
    assert "miss_limit" not in match.options and "miss_limit" not in match.state["options"]
    assert "misses" not in match.state
    assert not any("misses" in p.state_before or "miss_limit" in p.state_before["options"]
                   for p in Phase.objects.filter(match=match))
    removal.refresh_from_db()
    assert removed_seats(removal.revealed) == [removal.state_before["to_move"]]
    assert list(SeatTenure.objects.filter(match=match).values_list("user", "ending")) == [
        (alice.pk, "")]
    MIGRATION.forwards(apps, None)  # again: nothing changes
    assert SeatTenure.objects.filter(match=match).count() == 1
    for _ in range(2):  # the match plays on under the match's policy alone
        alice_misses_her_turn(match)
    match.refresh_from_db()
    assert match.state["removed"] == [] and match.status == Match.Status.ACTIVE


def test_a_seat_flagged_the_old_way_is_offered_and_its_player_replaced_by_misses(make_user):
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    match = duel(alice, bob)
    # Before: a flagged player kept the seat, and a replaced one was known by misses only.
    Seat.objects.filter(match=match, number=2).update(status=Seat.Status.FLAGGED)
    missed_at = timezone.now() - timedelta(hours=1)
    DeadlineMiss.objects.create(match=match, phase_number=1, seat_number=1, user=dave,
                                missed_at=missed_at)
    SeatTenure.objects.filter(match=match).delete()

    MIGRATION.forwards(apps, None)
    flagged = Seat.objects.get(match=match, number=2)
    assert flagged.offer_token and flagged.user == bob
    tenures = {t.user.username: t for t in SeatTenure.objects.filter(match=match)}
    assert (tenures["bob"].ended_at, tenures["alice"].ended_at) == (None, None)
    assert (tenures["dave"].ending, tenures["dave"].ended_at) == ("missed", missed_at)

    services.seat_take(token=flagged.offer_token, user=carol)
    tenures = {t.user.username: t for t in SeatTenure.objects.filter(match=match)}
    assert tenures["bob"].ending == "missed" and tenures["carol"].ended_at is None
