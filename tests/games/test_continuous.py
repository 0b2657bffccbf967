"""Continuous phases (Toy Race): actions applied at once in logbook order, cooldowns, the gameday
tick exactly once, DST-correct schedules, striking entries out, email-style text sheets."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model

import engine
from engine import rng_for
from games import services
from games.models import Action, LogbookStrike, Match, Phase
from games.services import ServiceError
from games.services.continuous import gamedays_due, logbook_inputs

pytestmark = pytest.mark.django_db

ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


@pytest.fixture
def race(make_user):
    def make(seats=3, **options):
        users = [make_user(f"runner{n}") for n in range(1, seats + 1)]
        options = {"schedule": ALWAYS_OPEN, **options}
        match = services.match_create(
            creator=users[0], game="toy-race", options=options, hours_per_phase=24,
            seats=[{"kind": "human", "user": u} for u in users])
        match.players = dict(enumerate(users, start=1))
        return match

    return make


def act(match, seat, now=None, action=None, user=None):
    return services.actions_apply(
        match_id=match.pk, seat_number=seat, user=user or match.players[seat],
        action=action or {"type": "step"}, source="web", now=now)


def test_a_continuous_match_opens_one_phase_whose_deadline_is_the_next_gameday(race):
    match = race()
    assert match.status == Match.Status.ACTIVE and match.phase_kind == "continuous"
    game = engine.get("toy-race")
    assert match.deadline == game.next_tick_at(match.state, match.started_at)
    assert match.deadline > match.started_at
    assert Phase.objects.get(match=match).deadline == match.deadline


def test_an_action_is_applied_at_once_with_the_dice_of_its_logbook_number(race):
    match = race()
    receipt = act(match, 2)
    match.refresh_from_db()
    row = Action.objects.get(match=match)
    assert (receipt.seq, row.seq, row.seat, row.data) == (1, 1, 2, {"type": "step"})
    die = rng_for(match.seed, 1).randint(1, 2)
    assert match.state["runners"]["2"]["at"] == die
    assert match.state["log"][-1]["dice"] == [die]


def test_a_second_action_within_the_cooldown_is_refused_with_the_time_left(race):
    match = race(cooldown_minutes=5)
    start = match.deadline - timedelta(minutes=30)  # well inside one gameday
    act(match, 1, now=start)
    with pytest.raises(ServiceError) as caught:
        act(match, 1, now=start + timedelta(seconds=90))
    assert caught.value.code == "cooldown"
    assert "3 min 30 s" in caught.value.message
    assert Action.objects.filter(match=match).count() == 1
    act(match, 1, now=start + timedelta(minutes=5))  # the cooldown is over
    act(match, 2, now=start + timedelta(seconds=91))  # other seats are not held up
    assert list(Action.objects.filter(match=match).values_list("seq", "seat")) == [
        (1, 1), (2, 1), (3, 2)]


def test_an_action_outside_the_gameday_window_is_refused(race):
    match = race(schedule={"kind": "every", "minutes": 60, "open_minutes": 10})
    closed = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)  # 30 minutes into a 10-minute window
    with pytest.raises(ServiceError) as caught:
        act(match, 1, now=closed)
    assert caught.value.code == "window_closed"
    act(match, 1, now=closed.replace(minute=5))  # the gamedays up to then are ticked first
    assert Action.objects.filter(match=match, kind="action").count() == 1


@pytest.mark.parametrize("bad", [None, "step", ["step"], {"type": "fly"}, {"type": "step", "x": 1},
                                 {"type": {1, 2}}])
def test_malformed_actions_are_refused_and_write_nothing(race, bad):
    match = race()
    with pytest.raises(ServiceError) as caught:
        act(match, 1, action=bad) if bad is not None else services.actions_apply(
            match_id=match.pk, seat_number=1, user=match.players[1], action=None, source="web")
    assert caught.value.code == "invalid" and caught.value.message
    assert not Action.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).state == match.state


def test_only_the_seats_player_may_act_for_it(race, make_user):
    match = race()
    stranger = make_user("stranger")
    for seat, user in ((1, match.players[2]), (1, stranger), ("x", match.players[1]),
                       (99, match.players[1])):
        with pytest.raises(ServiceError) as caught:
            act(match, seat, user=user)
        assert caught.value.code in {"not_your_seat", "not_found"}
    with pytest.raises(ServiceError) as caught:
        services.actions_apply(match_id="nope", seat_number=1, user=match.players[1],
                               action={"type": "step"}, source="web")
    assert caught.value.code == "not_found"
    with pytest.raises(ServiceError):
        act(match, 1, now=datetime(2026, 11, 23, 9, 0))  # a naive time
    assert not Action.objects.filter(match=match).exists()


def test_the_gameday_tick_is_applied_exactly_once_at_its_time(race):
    match = race()
    due = match.deadline
    assert not services.gameday_tick(match_id=match.pk, now=due - timedelta(seconds=1))
    assert match.pk not in gamedays_due(now=due - timedelta(seconds=1))
    assert match.pk in gamedays_due(now=due)
    assert services.gameday_tick(match_id=match.pk, now=due + timedelta(seconds=3))
    for _ in range(3):  # the sweeper fires again, a task is delivered twice
        assert not services.gameday_tick(match_id=match.pk, now=due + timedelta(seconds=4))
    ticks = Action.objects.filter(match=match, kind="tick")
    assert ticks.count() == 1 and ticks.get().at == due  # at the scheduled start, not late
    match.refresh_from_db()
    assert match.deadline == due + timedelta(hours=1)
    assert all(runner["ap"] == 4 for runner in match.state["runners"].values())
    assert match.pk not in gamedays_due(now=due + timedelta(minutes=59))


def test_the_sweeper_queues_the_tick_task_for_a_due_gameday(
        race, django_capture_on_commit_callbacks):
    match = race()
    with django_capture_on_commit_callbacks() as queued:
        services.deadlines_sweep(now=match.deadline)
    tasks = [(c.task_name, c.kwargs) for c in queued if hasattr(c, "task_name")]
    assert ("games.tasks.gameday_tick", {"match_id": match.pk}) in tasks
    assert not any(name == "games.tasks.resolve_phase" for name, _ in tasks)


def test_ticks_follow_the_local_time_across_both_dst_changes(race):
    berlin = ZoneInfo("Europe/Berlin")
    match = race(schedule={"kind": "weekly", "weekdays": ["sun"], "open": "10:00",
                           "close": "16:00", "time_zone": "Europe/Berlin"})
    seen = []
    while match.deadline < datetime(2027, 11, 8, tzinfo=UTC):
        due = match.deadline
        assert not services.gameday_tick(match_id=match.pk, now=due - timedelta(seconds=1))
        assert services.gameday_tick(match_id=match.pk, now=due)
        match.refresh_from_db()
        seen.append(due)
    local = [moment.astimezone(berlin) for moment in seen]
    assert all((m.hour, m.minute, m.weekday()) == (10, 0, 6) for m in local)
    by_date = {m.date().isoformat(): m.utcoffset() for m in local}
    assert by_date["2027-03-21"] == timedelta(hours=1)  # CET
    assert by_date["2027-03-28"] == timedelta(hours=2)  # the day summer time begins: CEST
    assert by_date["2027-10-24"] == timedelta(hours=2)
    assert by_date["2027-10-31"] == timedelta(hours=1)  # the day it ends: CET again
    assert [s.astimezone(UTC).hour for s in seen if s.date().isoformat() == "2027-03-28"] == [8]


def test_replaying_the_stored_inputs_reproduces_the_state(race):
    match = race(length=99)
    start = match.deadline - timedelta(minutes=30)  # the next gameday begins half-way through
    for minute in range(0, 60, 5):
        for seat in (1, 2, 3):
            try:
                act(match, seat, now=start + timedelta(minutes=minute, seconds=seat))
            except ServiceError as error:
                assert error.code == "invalid"  # out of AP
    assert Action.objects.filter(match=match, kind="tick").count() == 1
    match.refresh_from_db()
    assert services.match_replay(match=match) == match.state


def test_striking_an_entry_replays_the_match_without_it_and_keeps_others_dice(race, make_user):
    match = race(length=99)
    start = match.deadline - timedelta(minutes=30)  # well inside one gameday
    for seat in (1, 2, 3):
        act(match, seat, now=start + timedelta(seconds=seat))
    act(match, 1, now=start + timedelta(minutes=6))
    match.refresh_from_db()
    before = match.state["runners"]
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    second = Action.objects.get(match=match, seq=2)
    with pytest.raises(ServiceError):
        services.logbook_strike(action_id=second.pk, by=moderator, reason="  ")
    assert services.logbook_strike(action_id=second.pk, by=moderator, reason="cheating")
    assert not services.logbook_strike(action_id=second.pk, by=moderator, reason="again")
    match.refresh_from_db()
    after = match.state["runners"]
    assert after["2"]["at"] == 0 and after["2"]["ap"] == 3
    assert after["1"] == before["1"] and after["3"] == before["3"]
    assert [e["seq"] for e in logbook_inputs(match)] == [1, 3, 4]
    audit = LogbookStrike.objects.get()
    assert (audit.by, audit.reason, audit.entries_replayed) == (moderator, "cheating", 3)
    second.refresh_from_db()
    assert second.struck and second.struck_by == moderator
    with pytest.raises(ServiceError) as caught:
        services.logbook_strike(action_id="x", by=moderator, reason="r")
    assert caught.value.code == "not_found"


def test_a_text_sheet_applies_its_actions_in_order_under_the_same_rules(race):
    match = race(cooldown_minutes=5)
    receipt = services.sheet_submit(match_id=match.pk, seat_number=1, user=match.players[1],
                                    phase_number=match.phase_number, source="email",
                                    text="step\nstep\n")
    assert receipt.data == {"actions": [{"type": "step"}]}  # the second is in the cooldown
    assert [w.path for w in receipt.warnings] == ["actions.2"]
    assert "You can act again" in receipt.warnings[0].message
    with pytest.raises(ServiceError) as caught:
        services.sheet_submit(match_id=match.pk, seat_number=2, user=match.players[2],
                              phase_number=match.phase_number, source="email", text="jump")
    assert caught.value.code == "invalid" and caught.value.problems[0].path == "line 1"
    with pytest.raises(ServiceError) as caught:
        services.sheet_submit(match_id=match.pk, seat_number=1, user=match.players[1],
                              phase_number=match.phase_number, source="email", text="step")
    assert caught.value.code == "cooldown"
    with pytest.raises(ServiceError) as caught:  # the sealed entry point takes no actions
        services.orders_submit(match_id=match.pk, seat_number=1, user=match.players[1],
                               phase_number=match.phase_number, source="email", text="step")
    assert caught.value.code == "unsupported_phase"
    assert Action.objects.filter(match=match, kind="action").count() == 1


def test_the_winning_action_finishes_the_match(race):
    match = race(length=1)
    act(match, 3)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [3]
    assert match.deadline is None
    with pytest.raises(ServiceError) as caught:
        act(match, 1)
    assert caught.value.code == "not_active"
    assert not services.phase_resolve(match_id=match.pk, phase_number=1)


def test_an_action_after_the_gameday_began_ticks_first_when_the_sweeper_has_not(race):
    match = race()
    due = match.deadline
    act(match, 1, now=due + timedelta(seconds=5))
    rows = list(Action.objects.filter(match=match).values_list("seq", "kind", "at"))
    assert rows[0] == (1, "tick", due) and rows[1][:2] == (2, "action")
    assert not services.gameday_tick(match_id=match.pk, now=due + timedelta(seconds=6))


def test_a_refused_action_leaves_no_tick_behind(race):
    match = race()
    due = match.deadline
    with pytest.raises(ServiceError):
        act(match, 1, now=due + timedelta(seconds=5), action={"type": "jump"})
    assert not Action.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).deadline == due


def test_an_engine_failure_in_apply_refuses_the_action_and_writes_nothing(race):
    match = race(poison="apply")
    with pytest.raises(ServiceError) as caught:
        act(match, 1, now=match.deadline - timedelta(minutes=5))
    assert caught.value.code == "engine_error" and "nothing was changed" in caught.value.message
    assert not Action.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).state == match.state


def test_a_failing_tick_is_rolled_back_and_does_not_block_actions(race):
    match = race(poison="tick")
    due = match.deadline
    receipt = act(match, 1, now=due + timedelta(seconds=5))  # Toy Race takes it without a tick
    assert list(Action.objects.filter(match=match).values_list("seq", "kind")) == [
        (receipt.seq, "action")]
    assert receipt.seq == 1  # the failed tick's number was given back
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.deadline == due and fresh.logbook_seq == 1  # the sweeper retries the tick



def test_a_poison_tick_is_quarantined_after_a_few_attempts_and_retried_by_a_moderator(
        race, settings):
    match = race(poison="tick")
    due = match.deadline
    for attempt in range(1, settings.RESOLVE_MAX_ATTEMPTS + 1):
        assert not services.gameday_tick(match_id=match.pk, now=due + timedelta(seconds=6))
        phase = Phase.objects.get(match=match)
        assert phase.attempts == attempt and "poisoned: tick" in phase.last_error
    match.refresh_from_db()
    assert phase.status == Phase.Status.QUARANTINED and match.deadline is None
    assert match.pk not in gamedays_due(now=due + timedelta(days=1))  # parked
    moderator = get_user_model().objects.create_superuser("mod", "mod@example.com", "pw")
    assert services.phase_retry(phase_id=phase.pk, by=moderator, reason="tick fixed")
    match.refresh_from_db()
    assert match.deadline == due and Phase.objects.get(pk=phase.pk).status == "open"
