"""The data migration that moves Tank Game logbooks out of the match state (state version 1,
``state["log"]``, as the engine wrote it until now) into the Action rows, and back."""

import copy
import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

import engine
import engine.tank_game  # noqa: F401  (registers "tank-game")
from games import services
from games.models import Action, Match

pytestmark = pytest.mark.django_db

# A gameday a day, always open: the test's ticks are the only ones unless it runs across
# midnight UTC (with an hourly one, a run across any full hour saw a third gameday open).
ALWAYS_OPEN = {"kind": "every", "minutes": 1440, "open_minutes": 1440}
MIGRATION = importlib.import_module("games.migrations.0008_tank_game_logbook_out_of_state")
GAME = engine.get("tank-game")


def test_the_migration_is_applied_after_the_checkpoints_column():
    executor = MigrationExecutor(connection)
    applied = executor.loader.applied_migrations
    assert ("games", "0008_tank_game_logbook_out_of_state") in applied
    assert MIGRATION.Migration.dependencies == [("games", "0007_action_state_after")]


def played_match(make_user) -> Match:
    """Two gamedays of moves and shots, and a struck-out entry, played through the services."""
    users = [make_user(f"old{n}") for n in (1, 2, 3, 4)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN, "cooldown_minutes": 0},
        seats=[{"kind": "human", "user": u} for u in users])
    now = timezone.now()
    services.gameday_tick(match_id=match.pk, now=now)
    for day in (1, 2):
        for seat in (1, 2, 3, 4):
            now += timedelta(seconds=5)
            match.refresh_from_db()
            legal = GAME.legal_actions(match.state, seat)
            kind = "shoot" if day == 2 and seat == 3 else "move"
            action = next(a for a in legal if a["type"] == kind)
            services.actions_apply(match_id=match.pk, seat_number=seat, user=users[seat - 1],
                                   action=action, source="web", now=now)
        match.refresh_from_db()
        if day == 1:
            now = match.deadline
            services.gameday_tick(match_id=match.pk, now=now)
    second = Action.objects.get(match=match, seq=3)
    assert services.logbook_strike(action_id=second.pk, by=make_user("mod", is_superuser=True),
                                   reason="misclick")
    match.refresh_from_db()
    assert services.match_replay(match=match) == match.state
    return match


def test_a_match_made_with_the_old_format_migrates_both_ways(make_user):
    match = played_match(make_user)
    current = copy.deepcopy(match.state)
    rows = list(Action.objects.filter(match=match).order_by("seq"))
    log = [e for row in rows if not row.struck for e in row.events]
    assert current["entries"] == len(log) and "log" not in current

    MIGRATION.backward(apps, None)  # the log goes back into the state
    match.refresh_from_db()
    assert match.state["version"] == 1 and "entries" not in match.state
    assert match.state["log"] == log
    assert not Action.objects.filter(match=match, state_after__isnull=False).exists()
    # Today's format kept every ballot, finished ones of earlier gamedays too: put one back,
    # and make the rows' entries stale as rows written before a strike-out were.
    old = match.state
    old["ballots"].append({"id": 99, "decree": "bounty", "opened_by": 4, "gameday": "0",
                           "opened_at": old["log"][0]["at"], "status": "closed", "votes": {},
                           "passed": None})
    Match.objects.filter(pk=match.pk).update(state=old)
    stale = rows[-1]
    Action.objects.filter(pk=stale.pk).update(events=[{**e, "seq": e["seq"] + 1}
                                                      for e in stale.events])

    MIGRATION.forward(apps, None)
    match.refresh_from_db()
    assert match.state == current
    assert [e for row in Action.objects.filter(match=match, struck=False).order_by("seq")
            for e in row.events] == log  # the stale row has its replayed entries again
    ticks = Action.objects.filter(match=match, kind="tick").order_by("seq")
    assert ticks.count() == 2 and all(t.state_after is not None for t in ticks)
    assert services.match_replay(match=match) == current  # from the last checkpoint
    assert services.match_replay(match=match, upto_seq=ticks[1].seq) == ticks[1].state_after


def test_a_logbook_that_matches_neither_the_rows_nor_their_replay_stops_the_migration(
        make_user):
    match = played_match(make_user)
    old = dict(match.state, version=1, log=[{"seq": 1, "text": "something else"}])
    del old["entries"]
    Match.objects.filter(pk=match.pk).update(state=old)
    with pytest.raises(RuntimeError, match=f"Match {match.pk}: its logbook"):
        MIGRATION.forward(apps, None)
    match.refresh_from_db()
    assert match.state == old  # nothing written


def test_a_migrated_state_is_left_alone(make_user):
    match = played_match(make_user)
    before = copy.deepcopy(match.state)
    MIGRATION.forward(apps, None)
    match.refresh_from_db()
    assert match.state == before
