"""Continuous phases end to end on PostgreSQL: cooldown refusals, 30 players acting at once,
the gameday tick through the real beat + worker, and ticks across DST changes.

Runs on Tank Game V4 when its engine is registered, else on the toy continuous game.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.utils import timezone

import engine
import engine.tank_game  # noqa: F401  (registers "tank-game" if BUILTIN_GAMES does not yet)
from games import services
from games.models import Action, Match
from games.services import ServiceError
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GAME = "tank-game" if "tank-game" in engine.games() else "toy-race"
ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


def continuous_match(make_user, name: str, seats: int, **options) -> Match:
    users = [make_user(f"{name}{n}") for n in range(1, seats + 1)]
    options = {"schedule": ALWAYS_OPEN, "cooldown_minutes": 5, **options}
    if GAME == "tank-game" and seats > 16:
        options.setdefault("map", "big")
    match = services.match_create(creator=users[0], game=GAME, options=options,
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    return match


def _square(name: str) -> tuple[int, int]:
    return ord(name[0].upper()), int(name[1:])


def _footprint(origin: str | None, to: str | None) -> set[str]:
    """The squares a move needs free: its target, and for a diagonal both squares beside it
    (the rules want one of them free, so keeping both clear keeps the move legal)."""
    if not origin or not to:
        return {to} if to else set()
    (ox, oy), (tx, ty) = _square(origin), _square(to)
    if ox != tx and oy != ty:
        return {to, f"{chr(tx)}{oy}", f"{chr(ox)}{ty}"}
    return {to}


def two_actions(match_id: int, seat: int, claimed: dict | None = None) -> list[dict]:
    """Two legal actions for ``seat`` now (moves if there are: they never end the game).

    Spawns are drawn from the match's random seed, so tanks may start next to each other. With
    ``claimed`` (shared between the seats' calls) the first move is one no other seat's first
    move can make illegal: its footprint holds no other seat's target, and its target is in no
    other seat's footprint; else two players acting at once could block each other.
    """
    match = Match.objects.get(pk=match_id)
    legal = list(engine.get(match.game).legal_actions(match.state, seat))
    moves = [a for a in legal if a.get("type") in ("move", "step")]
    if claimed is not None:
        targets, needed = claimed.setdefault("targets", set()), claimed.setdefault("needed", set())
        origin = match.state.get("tanks", {}).get(str(seat), {}).get("at")
        safe = [a for a in moves if not _footprint(origin, a.get("to")) & targets
                and a.get("to") not in needed]
        assert safe, f"seat {seat} has no move that the other seats' first moves leave legal"
        moves = safe + [a for a in moves if a not in safe]
        targets.add(moves[0].get("to"))
        needed.update(_footprint(origin, moves[0].get("to")))
    return ((moves or legal) * 2)[:2]


def test_a_second_action_within_the_cooldown_is_refused_with_the_time_left(make_user):
    match = continuous_match(make_user, "cool", 2)
    start = timezone.now()
    one, two = two_actions(match.pk, 1)
    first = services.actions_apply(match_id=match.pk, seat_number=1, user=match.players[1],
                                   action=one, source="web", now=start)
    with pytest.raises(ServiceError) as caught:
        services.actions_apply(match_id=match.pk, seat_number=1, user=match.players[1],
                               action=two, source="web",
                               now=start + timedelta(minutes=2, seconds=15))
    assert caught.value.code == "cooldown"
    assert "2 min 45 s" in caught.value.message
    assert "cooldown" in [p.path for p in caught.value.problems]
    logged = Action.objects.filter(match=match, kind="action")  # (a first tick may precede)
    assert list(logged.values_list("seq", flat=True)) == [first.seq]


def test_thirty_players_acting_at_once_are_logged_exactly_once_in_commit_order(make_user):
    match = continuous_match(make_user, "crowd", 30)
    claimed: dict = {}
    actions = {seat: two_actions(match.pk, seat, claimed) for seat in range(1, 31)}
    barrier = threading.Barrier(30)
    accepted: dict[int, list[int]] = {}
    refused: dict[int, list[str]] = {}
    crashed: list[BaseException] = []

    def play(seat: int) -> None:
        try:
            barrier.wait(30)
            for attempt in range(2):  # the second one is inside the cooldown
                try:
                    receipt = services.actions_apply(
                        match_id=match.pk, seat_number=seat, user=match.players[seat],
                        action=actions[seat][attempt],
                        source="api")
                    accepted.setdefault(seat, []).append(receipt.seq)
                except ServiceError as error:
                    refused.setdefault(seat, []).append(error.code)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            crashed.append(error)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=play, args=(seat,)) for seat in range(1, 31)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not crashed, crashed
    assert sorted(accepted) == list(range(1, 31))  # every first action was accepted
    assert all(len(seqs) == 1 for seqs in accepted.values())
    assert all(codes == ["cooldown"] for codes in refused.values()) and len(refused) == 30, \
        refused

    everything = list(Action.objects.filter(match=match).values_list("seq", flat=True))
    assert everything == list(range(1, len(everything) + 1))  # no gap, no duplicate
    rows = list(Action.objects.filter(match=match, kind="action").order_by("seq"))
    assert len(rows) == 30
    assert sorted(seq for seqs in accepted.values() for seq in seqs) == [r.seq for r in rows]
    assert {row.seq: row.seat for row in rows} == {seqs[0]: s for s, seqs in accepted.items()}
    match.refresh_from_db()
    # The state was built action by action under the lock, in the order of the seq numbers:
    # a lost update would leave a tank where it was, and the state's count of logbook entries
    # short of the entries stored in the rows.
    for row in rows:
        assert match.state["tanks"][str(row.seat)]["at"] == row.data["to"]
    stored = [e for row in Action.objects.filter(match=match).order_by("seq") for e in row.events]
    assert [e["seq"] for e in stored] == list(range(1, match.state["entries"] + 1))
    assert [e["seat"] for e in stored if e["kind"] == "action"] == [row.seat for row in rows]
    assert services.match_replay(match=match) == match.state


@pytest.mark.long
def test_beat_and_the_worker_start_the_gameday_exactly_once(stack, make_user):
    match = continuous_match(make_user, "tick", 3)
    stack.worker()
    stack.beat()
    due = timezone.now() + timedelta(seconds=2)
    Match.objects.filter(pk=match.pk).update(deadline=due)
    wait_until(lambda: Action.objects.filter(match=match, kind="tick").exists(), 40,
               "the sweeper and worker to tick the gameday")
    tick = Action.objects.get(match=match, kind="tick")
    assert tick.at == due
    wait_until(lambda: Match.objects.get(pk=match.pk).deadline != due, 10, "the next deadline")
    # The sweeper keeps running (every second): still exactly one tick for this gameday.
    import time

    time.sleep(3)
    assert Action.objects.filter(match=match, kind="tick").count() == 1
    match.refresh_from_db()
    assert match.deadline > due and match.status == Match.Status.ACTIVE


def test_the_tick_across_a_dst_change_happens_at_the_local_opening_time(make_user):
    berlin = ZoneInfo("Europe/Berlin")
    match = continuous_match(make_user, "dst", 2, schedule={
        "kind": "weekly", "weekdays": ["sun"], "open": "10:00", "close": "16:00",
        "time_zone": "Europe/Berlin", "holidays": []})
    seen = []
    while match.deadline < datetime(2027, 11, 1, tzinfo=UTC):
        due = match.deadline
        # The sweeper's view one second early and at the time: only then is it due.
        assert match.pk not in services.continuous.gamedays_due(now=due - timedelta(seconds=1))
        assert match.pk in services.continuous.gamedays_due(now=due)
        assert services.gameday_tick(match_id=match.pk, now=due)
        assert not services.gameday_tick(match_id=match.pk, now=due)
        match.refresh_from_db()
        seen.append(due)
    spring = [s for s in seen if s.astimezone(berlin).date().isoformat() == "2027-03-28"]
    autumn = [s for s in seen if s.astimezone(berlin).date().isoformat() == "2027-10-31"]
    assert spring == [datetime(2027, 3, 28, 8, 0, tzinfo=UTC)]  # 10:00 CEST
    assert autumn == [datetime(2027, 10, 31, 9, 0, tzinfo=UTC)]  # 10:00 CET
    assert all(s.astimezone(berlin).strftime("%a %H:%M") == "Sun 10:00" for s in seen)
    stored = list(Action.objects.filter(match=match, kind="tick").values_list("at", flat=True))
    assert stored == seen
