"""Creating, joining, starting and aborting matches through the services."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match, MatchStatusChange, Phase, Seat
from games.services import ServiceError
from tests.outbox import promised

pytestmark = pytest.mark.django_db


def create(creator, seats, **kwargs):
    args = {"game": "toy-duel", "options": {}, "hours_per_phase": 24}
    args.update(kwargs)
    return services.match_create(creator=creator, seats=seats, **args)


def test_toy_game_is_registered_in_the_test_process():
    import engine

    assert engine.get("toy-duel").name == "Toy Duel"


def test_match_with_creator_and_bot_starts_at_once_and_queues_the_bot(
    make_user, django_capture_on_commit_callbacks
):
    alice = make_user("alice")
    with django_capture_on_commit_callbacks() as callbacks:
        match = create(alice, [{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.phase_number == 1 and match.phase_kind == "simultaneous"
    assert match.phase_name == "duel"
    assert abs(match.deadline - (timezone.now() + timedelta(hours=24))) < timedelta(minutes=1)
    phase = Phase.objects.get(match=match, number=1)
    assert phase.status == Phase.Status.OPEN and phase.state_before == match.state
    assert promised(match.pk, kind="task") == [
        ("games.tasks.bot_submit", {"match_id": match.pk, "seat_number": 2, "phase_number": 1})
    ]
    # Two dispatches: the bot's move on the lifecycle queue (taken first), the signals on the
    # default queue (their listeners write the notifications).
    queued = sorted((c.task_name, c.queue or "") for c in callbacks if hasattr(c, "task_name"))
    assert queued == [("durable.tasks.outbox_dispatch", ""),
                      ("durable.tasks.outbox_dispatch", "lifecycle")]
    changes = list(MatchStatusChange.objects.filter(match=match).values_list(
        "old_status", "new_status"))
    assert changes == [("", "open"), ("open", "active")]


def test_match_with_an_open_seat_waits_and_the_last_join_starts_it(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = create(alice, [{"kind": "human", "user": alice}, {"kind": "human", "user": None}])
    assert match.status == Match.Status.OPEN
    assert not Phase.objects.filter(match=match).exists()
    seat = services.seat_join(match_id=match.pk, user=bob)
    assert seat.number == 2 and seat.status == Seat.Status.TAKEN
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.phase_number == 1


def test_invalid_options_name_every_problem(make_user):
    alice = make_user("alice")
    with pytest.raises(ServiceError) as caught:
        create(alice, [{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}],
               options={"target": 42, "colour": "red"})
    assert caught.value.code == "invalid_options"
    assert sorted(p.path for p in caught.value.problems) == ["colour", "target"]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "seats, fragment",
    [
        ([{"kind": "human", "user": None}], "2 seats, not 1"),
        ([{"kind": "human", "user": None}] * 3, "2 seats, not 3"),
        ([{"kind": "human", "user": None}, {"kind": "bot", "bot": "genius"}], "no bot “genius”"),
        ([{"kind": "human", "user": None}, {"kind": "alien"}], "Some seats"),
        ("two please", "must be a list"),
    ],
)
def test_bad_seats_are_refused_with_a_clear_message(make_user, seats, fragment):
    with pytest.raises(ServiceError) as caught:
        create(make_user("alice"), seats)
    assert caught.value.code == "invalid_seats"
    text = caught.value.message + " ".join(p.message for p in caught.value.problems)
    assert fragment in text


def test_the_same_player_cannot_take_two_seats_at_creation(make_user):
    alice = make_user("alice")
    with pytest.raises(ServiceError) as caught:
        create(alice, [{"kind": "human", "user": alice}, {"kind": "human", "user": alice}])
    assert caught.value.problems[0].path == "seats.2"


@pytest.mark.parametrize("hours", [0, -1, "soon", 10**6, float("nan")])
def test_bad_time_control_is_refused(make_user, hours):
    with pytest.raises(ServiceError) as caught:
        create(make_user("alice"), [{"kind": "human", "user": None}] * 2, hours_per_phase=hours)
    assert caught.value.code == "invalid_options"


def test_unknown_game_is_refused(make_user):
    with pytest.raises(ServiceError) as caught:
        create(make_user("alice"), [], game="chess")
    assert caught.value.code == "unknown_game"


def test_seat_join_refusals(make_user):
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    match = create(alice, [{"kind": "human", "user": alice}, {"kind": "human", "user": None}])
    with pytest.raises(ServiceError) as caught:
        services.seat_join(match_id=match.pk, user=alice)
    assert caught.value.code == "already_seated"
    with pytest.raises(ServiceError) as caught:
        services.seat_join(match_id=match.pk, user=bob, seat_number=1)
    assert caught.value.code == "seat_taken"
    with pytest.raises(ServiceError) as caught:
        services.seat_join(match_id=match.pk, user=bob, seat_number=7)
    assert caught.value.code == "not_found"
    services.seat_join(match_id=match.pk, user=bob, seat_number=2)
    with pytest.raises(ServiceError) as caught:
        services.seat_join(match_id=match.pk, user=carol)
    assert caught.value.code == "not_open"
    with pytest.raises(ServiceError) as caught:
        services.seat_join(match_id=987654, user=dave)
    assert caught.value.code == "not_found"


def test_private_match_needs_its_invite_token(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = create(alice, [{"kind": "human", "user": alice}, {"kind": "human", "user": None}],
                   is_public=False)
    for token in (None, "wrong-token"):
        with pytest.raises(ServiceError) as caught:
            services.seat_join(match_id=match.pk, user=bob, invite_token=token)
        assert caught.value.code == "bad_invite"
    services.seat_join(match_id=match.pk, user=bob, invite_token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_seat_leave_opens_the_seat_while_open_and_hands_it_on_in_play(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = create(alice, [{"kind": "human", "user": alice}, {"kind": "human", "user": None},
                           ], game="toy-duel")
    seat = services.seat_leave(match_id=match.pk, user=alice)
    assert seat.status == Seat.Status.OPEN and seat.user is None
    with pytest.raises(ServiceError) as caught:
        services.seat_leave(match_id=match.pk, user=alice)
    assert caught.value.code == "not_your_seat"
    services.seat_join(match_id=match.pk, user=alice)
    services.seat_join(match_id=match.pk, user=bob)
    seat = services.seat_leave(match_id=match.pk, user=bob)  # in play: it seeks a commander
    assert (seat.status, seat.user, bool(seat.offer_token)) == (Seat.Status.FLAGGED, None, True)
    services.match_abort(match_id=match.pk, by=alice, note="test")
    with pytest.raises(ServiceError) as caught:
        services.seat_leave(match_id=match.pk, user=alice)
    assert caught.value.code == "not_open"


def test_match_set_status_refuses_transitions_not_in_the_table(toy_duel):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        services.match_set_status(match=match, new_status=Match.Status.OPEN)
    assert caught.value.code == "bad_transition"
    services.match_set_status(match=match, new_status=Match.Status.FINISHED, note="test")
    with pytest.raises(ServiceError):
        services.match_set_status(match=match, new_status=Match.Status.ACTIVE)
    assert match.status_changes.last().new_status == "finished"


def test_abort_by_creator_or_staff_only(toy_duel, make_user):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        services.match_abort(match_id=match.pk, by=match.bob, note="bored")
    assert caught.value.code == "not_allowed"
    with pytest.raises(ServiceError):
        services.match_abort(match_id=match.pk, by=match.alice, note=" ")
    services.match_abort(match_id=match.pk, by=make_user("mod", is_staff=True), note="cheating")
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.deadline is None
    assert match.status_changes.last().note == "cheating"


def test_creating_a_full_match_costs_a_bounded_number_of_queries(make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alice = make_user("alice")
    with CaptureQueriesContext(connection) as captured:
        match = create(alice, [{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    queries = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # The match, its seats, two audit rows, the players' active hours (a deadline may move out
    # of their night) and leave (a tournament may start a match while a player is away) in
    # one query, phase 1, the match's phase fields, the players' tenures, the outbox (on
    # PostgreSQL the writes of each step go as one string: fewer).
    assert len(queries) <= 9, "\n".join(q[:100] for q in queries)
    assert match.status == Match.Status.ACTIVE and match.phase_number == 1
