"""Rulings, "Time": gameday schedule, the tick and its order, windows, cooldown, replay."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from engine.base import rng_for


def test_tick_runs_the_start_of_gameday_effects_in_order(h) -> None:
    """At the start of each gameday: every living tank +1 AP (max 5); gold mines pay out; mine
    remainders to the coffer; council income (1 per councillor, 3 per senator); armistice
    counter + number of council members; the daily allowances reset."""
    state = h.start(
        {1: "A1", 2: "B2", 3: "C3", 4: "J10", 5: "E5", 6: "F6"}, walls={}, mines=["C3", "C4", "B1"]
    )
    h.set(state, 1, ap=5)
    h.set(state, 3, at="C4")  # tanks 3 and 2 ... 3 in the two-square mine alone
    h.set(state, 2, at="J1")
    h.kill(state, 5)
    h.kill(state, 6, destroyed=True)
    state["allowances"] = {"bounty": 0, "grant_life": 0}
    before = state["coffer"]
    state = h.next_day(state)
    assert h.tank(state, 1)["ap"] == 5  # capped
    assert h.tank(state, 2)["ap"] == 2
    assert h.tank(state, 5)["ap"] == 0  # dead tanks gain no AP
    assert h.tank(state, 3)["gold"] == 2  # the C3-C4 mine pays 2 to its only tank
    # B1's mine has no tank: its 1 gold to the coffer; income 1 (councillor) + 3 (senator)
    assert state["coffer"] == before + 1 + 1 + 3
    assert state["armistice"] == 2
    assert state["allowances"] == {"bounty": 1, "grant_life": 1}
    assert h.log[-1]["kind"] == "tick"


RULE_BOOK = {"kind": "weekly", "weekdays": ["mon", "wed", "thu"], "open": "10:00",
             "close": "16:00", "time_zone": "UTC"}


def test_first_tick_only_opens_the_first_gameday(h) -> None:
    """Tanks start with 1 AP: the first gameday's tick opens the day without a second AP."""
    state = h.game.start(2, h.game.validate_options({"schedule": RULE_BOOK}), 1)
    now = datetime(2026, 1, 5, 11, 0, tzinfo=UTC)  # Monday 11:00 UTC, inside 10:00-16:00
    assert h.game.next_tick_at(state, now) == datetime(2026, 1, 5, 10, 0, tzinfo=UTC)
    state = h.game.tick(state, now, random.Random(0)).state
    assert state["gameday"] == "2026-01-05"
    assert all(t["ap"] == 1 for t in state["tanks"].values())


def test_actions_only_while_a_gameday_is_open(h) -> None:
    """Actions are accepted only while a gameday is open (rule book default: Monday, Wednesday,
    Thursday, 10:00-16:00, in the match's time zone)."""
    schedule = {
        "kind": "weekly",
        "weekdays": ["mon", "wed", "thu"],
        "open": "10:00",
        "close": "16:00",
        "time_zone": "Europe/Berlin",
    }
    state = h.game.start(2, h.game.validate_options({"schedule": schedule}), 1)
    monday = datetime(2026, 11, 23, 9, 30, tzinfo=UTC)  # 10:30 in Berlin
    state = h.game.tick(state, monday, random.Random(0)).state
    assert h.game.window_open(state, monday)
    assert h.game.gameday_key(state, monday) == "2026-11-23"
    move = h.game.legal_actions(state, 1)[0]
    h.game.apply(state, 1, move, monday, random.Random(0))
    evening = datetime(2026, 11, 23, 15, 0, tzinfo=UTC)  # 16:00 in Berlin: closed
    assert not h.game.window_open(state, evening)
    problems = h.game.action_problems(state, 1, move, evening)
    assert [p.path for p in problems] == ["window"]
    assert "Wed 25 Nov 10:00 Europe/Berlin" in problems[0].message
    tuesday = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
    assert h.game.gameday_key(state, tuesday) is None


def test_holidays_are_not_gamedays(h) -> None:
    """Optional holiday dates are skipped by the schedule."""
    schedule = {
        "kind": "weekly",
        "weekdays": ["mon", "wed"],
        "open": "10:00",
        "close": "16:00",
        "time_zone": "UTC",
        "holidays": ["2026-11-25"],
    }
    state = h.game.start(2, h.game.validate_options({"schedule": schedule}), 1)
    state = h.game.tick(state, datetime(2026, 11, 23, 11, tzinfo=UTC), random.Random(0)).state
    assert h.game.next_tick_at(state, datetime(2026, 11, 23, 12, tzinfo=UTC)) == datetime(
        2026, 11, 30, 10, tzinfo=UTC
    )


def test_tick_at_the_right_local_time_across_dst(h) -> None:
    """The gameday schedule is in the match's own time zone: 10:00 local on both sides of a
    daylight-saving change."""
    schedule = {
        "kind": "weekly",
        "weekdays": ["sat", "sun", "mon"],
        "open": "10:00",
        "close": "16:00",
        "time_zone": "Europe/Berlin",
    }
    state = h.game.start(2, h.game.validate_options({"schedule": schedule}), 1)
    saturday = datetime(2026, 3, 28, 9, 30, tzinfo=UTC)  # 10:30 CET
    state = h.game.tick(state, saturday, random.Random(0)).state
    assert h.game.next_tick_at(state, saturday) == datetime(2026, 3, 29, 8, 0, tzinfo=UTC)  # CEST
    state = h.game.tick(state, datetime(2026, 3, 29, 8, 0, tzinfo=UTC), random.Random(0)).state
    assert state["gameday"] == "2026-03-29"
    october = h.game.start(2, h.game.validate_options({"schedule": schedule}), 1)
    october = h.game.tick(
        october, datetime(2026, 10, 24, 8, 30, tzinfo=UTC), random.Random(0)
    ).state
    assert h.game.next_tick_at(october, datetime(2026, 10, 24, 9, 0, tzinfo=UTC)) == datetime(
        2026,
        10,
        25,
        9,
        0,
        tzinfo=UTC,  # 10:00 CET after the clocks went back
    )


def test_accelerated_schedule_every_n_minutes(h) -> None:
    """An accelerated schedule (a gameday every N minutes) exists for quick games and tests."""
    options = h.game.validate_options(
        {"schedule": {"kind": "every", "minutes": 30, "open_minutes": 20}}
    )
    state = h.game.start(2, options, 1)
    now = datetime(2026, 1, 5, 12, 5, tzinfo=UTC)
    state = h.game.tick(state, now, random.Random(0)).state
    assert h.game.window_open(state, now)
    assert not h.game.window_open(state, now + timedelta(minutes=16))  # 12:21: closed
    assert h.game.next_tick_at(state, now) == datetime(2026, 1, 5, 12, 30, tzinfo=UTC)
    key = h.game.gameday_key(state, now)
    assert key is not None and int(key) + 1 == int(
        h.game.gameday_key(state, now + timedelta(minutes=30))
    )


def test_tick_is_applied_once_per_gameday(h) -> None:
    """A tick is applied exactly once however often it is triggered."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    later = h.next_day(state)
    again = h.game.tick(later, h.now + timedelta(minutes=5), random.Random(0))
    assert again.state is later and again.events == []
    assert h.tank(later, 1)["ap"] == 2


def test_missed_gamedays_are_caught_up_in_order(h) -> None:
    """Downtime: every gameday that started gets its own tick, in order."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    three_days_later = h.now + timedelta(days=3, hours=1)
    ticks = 0
    while h.game.next_tick_at(state, three_days_later) <= three_days_later:
        state = h.game.tick(state, three_days_later, random.Random(0)).state
        ticks += 1
    assert ticks == 3
    assert h.tank(state, 1)["ap"] == 4


def test_actions_wait_for_the_gameday_tick(h) -> None:
    """Actions in a new gameday are refused until its tick has run (the AP come first)."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    tomorrow = h.now + timedelta(days=1)
    problems = h.game.action_problems(state, 1, {"type": "move", "to": "A2"}, tomorrow)
    assert [p.path for p in problems] == ["window"]


def test_cooldown_after_every_action(h) -> None:
    """Each player has a cooldown after every action: 5 minutes by default."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    h.set(state, 1, ap=3)
    state = h.game.apply(state, 1, {"type": "move", "to": "A2"}, h.now, random.Random(0)).state
    soon = h.now + timedelta(minutes=1, seconds=48)
    problems = h.game.action_problems(state, 1, {"type": "move", "to": "A3"}, soon)
    assert [(p.path, p.message) for p in problems] == [
        ("cooldown", "You can act again in 3 min 12 s.")
    ]
    assert h.game.action_problems(state, 2, {"type": "move", "to": "C4"}, soon) == []
    assert (
        h.game.action_problems(state, 1, {"type": "move", "to": "A3"}, h.now + timedelta(minutes=5))
        == []
    )


def test_cooldown_is_a_match_option(h) -> None:
    """The cooldown length is a match option."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[], cooldown_minutes=30)
    h.set(state, 1, ap=3)
    state = h.game.apply(state, 1, {"type": "move", "to": "A2"}, h.now, random.Random(0)).state
    later = h.now + timedelta(minutes=29)
    assert [
        p.path for p in h.game.action_problems(state, 1, {"type": "move", "to": "A3"}, later)
    ] == ["cooldown"]


def test_council_decrees_do_not_trigger_the_cooldown(h) -> None:
    """Council decrees do not trigger the cooldown."""
    state = h.start({1: "A1", 2: "C3", 3: "E5"}, walls={}, mines=[])
    h.kill(state, 3)
    vote = {"type": "open_ballot", "decree": "stimulus", "target": 1}
    state = h.game.apply(state, 3, vote, h.now, random.Random(0)).state
    again = {"type": "vote", "ballot": 1, "target": 2}
    assert h.game.action_problems(state, 3, again, h.now) == []
    assert h.tank(state, 3)["cooldown_until"] is None


def test_every_action_stores_its_timestamp_so_replay_is_exact(h) -> None:
    """The server's clock decides; every action stores its timestamp, so replay is exact."""
    options = h.game.validate_options({"schedule": {"kind": "every", "minutes": 60}})
    live = h.game.start(4, options, 9)
    now = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    inputs = [{"seq": 1, "kind": "tick", "seat": None, "action": None, "at": now.isoformat()}]
    live = h.game.tick(live, now, rng_for(9, 1)).state
    bot = random.Random(3)
    for seq in range(2, 14):
        now += timedelta(minutes=2, seconds=seq)
        seat = (seq % 4) + 1
        action = h.game.bot_submission(live, seat, "random", bot)
        if h.game.action_problems(live, seat, action, now):
            continue
        outcome = h.game.apply(live, seat, action, now, rng_for(9, seq))
        live = outcome.state
        assert outcome.events[0]["at"] == now.isoformat()
        inputs.append(
            {"seq": seq, "kind": "action", "seat": seat, "action": action, "at": now.isoformat()}
        )
    assert len(inputs) > 4
    assert h.game.replay(4, options, 9, inputs) == live


PARIS = ZoneInfo("Europe/Paris")


def test_the_first_gameday_opens_when_the_match_starts_at_any_hour(h) -> None:
    """Our ruling: a match's first gameday opens when it starts (the default), whatever the
    hour, and lasts until that day's closing time; later gamedays follow the daily schedule in
    the match's time zone. Here a match started at 03:00 on a Tuesday in Paris."""
    schedule = dict(h.game.default_options()["schedule"], time_zone="Europe/Paris")
    state = h.game.start(2, h.game.validate_options({"schedule": schedule}), 1)
    start = datetime(2026, 11, 24, 3, 0, tzinfo=PARIS)
    assert h.game.window_open(state, start)
    assert h.game.next_tick_at(state, start) == start  # due at once: the portal ticks first
    assert h.game.gameday_key(state, start) == "2026-11-24"
    state = h.game.tick(state, start, random.Random(0)).state
    assert state["gameday"] == "2026-11-24"
    move = h.game.legal_actions(state, 1)[0]
    later = start + timedelta(seconds=1)
    assert h.game.action_problems(state, 1, move, later) == []
    h.game.apply(state, 1, move, later, random.Random(0))
    assert h.game.window_open(state, datetime(2026, 11, 24, 21, 59, tzinfo=PARIS))
    assert not h.game.window_open(state, datetime(2026, 11, 24, 22, 0, tzinfo=PARIS))
    assert h.game.next_tick_at(state, later) == datetime(2026, 11, 25, 10, 0, tzinfo=PARIS)


def test_a_first_gameday_started_after_closing_time_lasts_until_the_next_opens(h) -> None:
    """Started after the day's closing time (or on a day without a gameday), the first gameday
    stays open until the next one opens."""
    schedule = dict(RULE_BOOK, first_gameday_at_start=True)  # Mon, Wed, Thu 10:00-16:00 UTC
    state = h.game.start(2, h.game.validate_options({"schedule": schedule}), 1)
    tuesday = datetime(2026, 11, 24, 17, 0, tzinfo=UTC)  # no gameday on Tuesdays
    state = h.game.tick(state, tuesday, random.Random(0)).state
    assert h.game.window_open(state, datetime(2026, 11, 25, 9, 59, tzinfo=UTC))
    wednesday = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    assert h.game.next_tick_at(state, tuesday) == wednesday
    move = h.game.legal_actions(state, 1)[0]
    assert [p.path for p in h.game.action_problems(state, 1, move, wednesday)] == ["window"]
    state = h.game.tick(state, wednesday, random.Random(0)).state
    assert state["gameday"] == "2026-11-25" and h.game.action_problems(state, 1, move,
                                                                       wednesday) == []


def test_the_first_gameday_opened_at_the_start_replays_the_same(h) -> None:
    """The first gameday's window comes from its tick's time, so a replay rebuilds it."""
    options = h.game.validate_options({})
    start = datetime(2026, 11, 24, 3, 0, tzinfo=UTC)
    state = h.game.start(2, options, 1)
    state = h.game.tick(state, start, rng_for(1, 1)).state
    move = h.game.legal_actions(state, 1)[0]
    at = start + timedelta(minutes=1)
    state = h.game.apply(state, 1, move, at, rng_for(1, 2)).state
    inputs = [{"seq": 1, "kind": "tick", "seat": None, "action": None, "at": start.isoformat()},
              {"seq": 2, "kind": "action", "seat": 1, "action": move, "at": at.isoformat()}]
    assert h.game.replay(2, options, 1, inputs) == state
