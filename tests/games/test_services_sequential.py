"""Sequential phases (one seat acts, applied at once): each action is its own phase record."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match, Phase, Seat
from games.services import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def count_match(make_user):
    a, b, c = make_user("ann"), make_user("ben"), make_user("cat")
    match = services.match_create(
        creator=a, game="toy-count", options={"target": 5}, hours_per_phase=12,
        seats=[{"kind": "human", "user": u} for u in (a, b, c)])
    match.players = {1: a, 2: b, 3: c}
    return match


def act(match, seat, add, phase):
    return services.orders_submit(match_id=match.pk, seat_number=seat,
                                  user=match.players[seat], phase_number=phase,
                                  data={"add": add}, source="web")


def test_a_sequential_action_is_applied_at_once_and_the_next_seat_is_prompted(count_match):
    act(count_match, 1, 3, phase=1)
    count_match.refresh_from_db()
    assert count_match.phase_number == 2 and count_match.state["counter"] == 3
    first = Phase.objects.get(match=count_match, number=1)
    assert first.status == "resolved" and first.kind == "sequential"
    assert first.revealed["1"]["data"] == {"add": 3}
    assert first.events == [{"type": "count", "seat": 1, "add": 3, "counter": 3}]
    with pytest.raises(ServiceError) as caught:
        act(count_match, 1, 1, phase=2)  # not seat 1's turn
    assert caught.value.code == "not_your_turn"


def test_a_sequential_game_finishes_on_the_winning_action(count_match):
    act(count_match, 1, 3, phase=1)
    act(count_match, 2, 2, phase=2)
    count_match.refresh_from_db()
    assert count_match.status == Match.Status.FINISHED
    assert count_match.result["winners"] == [2]


def test_a_missed_sequential_turn_plays_the_default_at_the_deadline(count_match):
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=count_match.pk).update(deadline=past)
    Phase.objects.filter(match=count_match).update(deadline=past)
    assert services.phase_resolve(match_id=count_match.pk, phase_number=1)
    count_match.refresh_from_db()
    assert count_match.state["counter"] == 1 and count_match.state["turn"] == 2
    assert Seat.objects.get(match=count_match, number=1).missed_in_row == 1


def test_an_invalid_action_changes_nothing(count_match):
    with pytest.raises(ServiceError) as caught:
        act(count_match, 1, 7, phase=1)
    assert caught.value.code == "invalid" and caught.value.problems[0].path == "add"
    count_match.refresh_from_db()
    assert count_match.phase_number == 1 and count_match.state["counter"] == 0
