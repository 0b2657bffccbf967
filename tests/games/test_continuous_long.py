"""A Tank Game at the length of a real match: 2,000 actions through the services. The logbook
is the rows, the state stays small, replays from checkpoints give the live states, and striking
an early entry out rewrites the later entries exactly as a replay from the start gives them."""

import json
import random
import time
from datetime import timedelta

import pytest
from django.utils import timezone

import engine
import engine.tank_game  # noqa: F401  (registers "tank-game")
from games import services
from games.models import Action, Match
from games.services import ServiceError

pytestmark = pytest.mark.django_db

GAME = engine.get("tank-game")
ACTIONS = 2000
SEATS = 12


def peaceful_action(state, seat, rng):
    """A legal action that rarely shoots a living tank (so the match lasts): moves, gifts,
    purchases and Council votes first."""
    legal = GAME.legal_actions(state, seat)
    living = {t["at"] for t in state["tanks"].values() if t["status"] == "alive"}
    calm = [a for a in legal if a["type"] != "shoot" or a["at"] not in living]
    pool = legal if calm == [] or rng.random() < 0.05 else calm
    return rng.choice(pool) if pool else None


@pytest.fixture(scope="module")
def long_match(django_db_setup, django_db_blocker):
    """One 2,000-action match (kept for the module: it takes a while to play)."""
    from django.contrib.auth import get_user_model

    with django_db_blocker.unblock():
        users = [get_user_model().objects.create_user(f"long{n}") for n in range(1, SEATS + 1)]
        match = services.match_create(
            creator=users[0], game="tank-game", hours_per_phase=24,
            options={"map": "classic", "cooldown_minutes": 0, "armistice_limit": 100000,
                     "schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
            seats=[{"kind": "human", "user": u} for u in users])
        try:
            yield play(match, users)
        finally:  # not in a test's transaction: leave the database as it was
            Match.objects.filter(pk=match.pk).delete()
            get_user_model().objects.filter(pk__in=[u.pk for u in users]).delete()


def play(match, users):
    """Play the match to ACTIONS actions; the live state after some of them."""
    rng = random.Random(19)
    now = timezone.now()
    live: dict[int, dict] = {}  # seq -> the live state right after it, for some seqs
    applied = 0
    while applied < ACTIONS:
        match.refresh_from_db(fields=["state", "deadline", "status", "logbook_seq"])
        assert match.status == Match.Status.ACTIVE, "the match ended early"
        now += timedelta(seconds=60)  # 60 inputs per one-hour gameday
        if match.deadline is not None and match.deadline <= now:
            assert services.gameday_tick(match_id=match.pk, now=now)
            continue
        seat = rng.randint(1, SEATS)
        action = peaceful_action(match.state, seat, rng)
        if action is None:
            continue
        try:
            receipt = services.actions_apply(match_id=match.pk, seat_number=seat,
                                             user=users[seat - 1], action=action,
                                             source="api", now=now)
        except ServiceError:
            continue
        applied += 1
        if rng.random() < 0.01:
            match.refresh_from_db(fields=["state"])
            live[receipt.seq] = json.loads(json.dumps(match.state))
    match.refresh_from_db()
    return match, live


def from_scratch(match):
    """Each non-struck row with the state after it and its entries, replayed from the start."""
    rows = list(Action.objects.filter(match=match, struck=False).order_by("seq"))
    inputs = [{"seq": r.seq, "kind": r.kind, "seat": r.seat, "at": r.at.isoformat(),
               "action": r.data if r.kind == "action" else None} for r in rows]
    start = GAME.start(match.seats.count(), match.options, match.seed)
    return list(zip(rows, GAME.replay_steps(start, match.seed, inputs), strict=True))


@pytest.mark.long
def test_a_2000_action_match_replays_to_its_live_states(long_match):
    match, live = long_match
    assert Action.objects.filter(match=match, kind="action").count() == ACTIONS
    assert len(json.dumps(match.state)) < 10_000  # 12 seats: the state holds no history
    entries = [e for row in Action.objects.filter(match=match).order_by("seq")
               for e in row.events]
    assert [e["seq"] for e in entries] == list(range(1, match.state["entries"] + 1))
    assert GAME.replay(SEATS, match.options, match.seed,
                       [step[0] for _row, step in from_scratch(match)]) == match.state
    assert services.match_replay(match=match) == match.state
    assert len(live) >= 5
    for seq, state in live.items():
        assert services.match_replay(match=match, upto_seq=seq) == state


def test_striking_an_early_entry_of_a_long_match_rewrites_what_follows(long_match, make_user):
    match, _live = long_match
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    early = Action.objects.filter(match=match, kind="action").order_by("seq")[3]
    started = time.perf_counter()
    assert services.logbook_strike(action_id=early.pk, by=moderator, reason="test")
    print(f"strike-out of entry {early.seq} of {match.logbook_seq}: "
          f"{time.perf_counter() - started:.2f} s")
    match.refresh_from_db()
    replayed = from_scratch(match)
    assert replayed[-1][1][1] == match.state
    for row, (_entry, state, events) in replayed:
        assert row.events == (events or []), row.seq
        if row.kind == "tick":
            assert row.state_after == state, row.seq
    assert [e["seq"] for row, _step in replayed for e in row.events] == \
        list(range(1, match.state["entries"] + 1))
    for row, (_entry, state, _events) in replayed[::97]:  # the slider after the strike-out
        assert services.match_replay(match=match, upto_seq=row.seq) == state, row.seq
