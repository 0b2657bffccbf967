"""Rulings, "End" and "Logbook"."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.tank_game import schedule


def _hit(h, state, shooter: int, at: str):
    for seed in range(100):
        outcome = h.game.apply(
            state, shooter, {"type": "shoot", "at": at}, h.now, random.Random(seed)
        )
        if any(e["text"].endswith("(hit)") for e in outcome.events):
            return outcome
    raise AssertionError("no hit in 100 seeds")


def test_last_living_tank_wins_and_the_fallen_rank_by_order_of_death(h) -> None:
    """Last living tank wins (Last Man Standing); the result lists every player's final rank,
    by order of death for the fallen (the latest death ranks highest)."""
    state = h.start({1: "C3", 2: "C4", 3: "D3", 4: "J10"}, walls={}, mines=[])
    h.kill(state, 4)  # died first
    h.set(state, 2, lives=1)
    h.set(state, 3, lives=1)
    h.set(state, 1, ap=2)
    state = _hit(h, state, 1, "C4").state  # seat 2 dies second
    assert state["over"] is None
    h.now = h.now.replace(hour=h.now.hour + 1)
    outcome = _hit(h, state, 1, "D3")
    state = outcome.state
    assert state["over"]["reason"] == "last-man-standing"
    assert outcome.events[-1]["text"] == "Seat 1 is the Last Man Standing"
    result = h.game.result(state)
    assert result.ranking == ((1,), (3,), (2,), (4,))
    assert result.winners == (1,)


def test_logbook_in_the_rule_books_style_in_the_match_time_zone(h) -> None:
    """The logbook is readable as text in the rule book's style ("2026-11-23 10:04 — Corey —
    Shot at G4 (hit)"), every entry in the order applied."""
    weekly = {
        "kind": "weekly",
        "weekdays": ["mon"],
        "open": "10:00",
        "close": "16:00",
        "time_zone": "Europe/Berlin",
    }
    options = h.game.validate_options({"schedule": weekly, "names": {"1": "Corey", "2": "Bryan"}})
    state = h.game.start(2, options, 1)
    state["walls"], state["mines"] = {}, []
    h.set(state, 1, at="F3")
    h.set(state, 2, at="G4")
    monday = datetime(2026, 11, 23, 9, 4, tzinfo=UTC)  # 10:04 in Berlin
    ticked = h.game.tick(state, monday, random.Random(0))
    state = ticked.state
    for seed in range(50):
        outcome = h.game.apply(state, 1, {"type": "shoot", "at": "G4"}, monday, random.Random(seed))
        if outcome.events[-1]["text"].endswith("(hit)"):
            break
    log = [*ticked.events, *outcome.events]
    text = h.game.log_text(outcome.state, None, log)
    assert text.splitlines()[-1] == "2026-11-23 10:04 — Corey — Shot at G4 (hit)"
    assert text.splitlines()[-2] == "2026-11-23 10:00 — Gameday 1 (2026-11-23) opened"
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert outcome.state["entries"] == len(log)  # the state counts its entries, keeps none
    assert schedule.local_stamp(weekly, "2026-07-01T08:00:00+00:00") == "2026-07-01 10:00"


def test_every_kill_and_decree_is_in_the_logbook(h) -> None:
    """Every accepted action with its timestamp, actor, target and dice, every tick, every kill
    and decree, in the order applied."""
    state = h.start({1: "C3", 2: "C4", 3: "J10"}, walls={}, mines=[])
    h.set(state, 2, lives=1)
    outcome = _hit(h, state, 1, "C4")
    kinds = [e["kind"] for e in outcome.events]
    assert kinds[:2] == ["action", "kill"]
    shot = outcome.events[0]
    assert shot["seat"] == 1 and shot["action"] == {"type": "shoot", "at": "C4"} and shot["dice"]


def test_struck_out_entry_replays_the_match_without_it(h) -> None:
    """An admin may strike out an entry: the match is re-played from the start without it
    (deterministic from the stored entries and seed; the other entries keep their dice)."""
    options = h.game.validate_options({"schedule": {"kind": "every", "minutes": 1440}})
    start = h.game.start(2, options, 5)
    first = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    opened = h.game.tick(start, first, random.Random(0)).state
    one, two = opened["tanks"]["1"]["at"], opened["tanks"]["2"]["at"]
    move = next(a for a in h.game.legal_actions(opened, 1) if a["type"] == "move")
    shoot = next(a for a in h.game.legal_actions(opened, 2) if a["type"] == "shoot")

    def at(minutes: int) -> str:
        return (first + timedelta(minutes=minutes)).isoformat()

    inputs = [
        {"seq": 1, "kind": "tick", "seat": None, "action": None, "at": first.isoformat()},
        {"seq": 2, "kind": "action", "seat": 1, "action": move, "at": at(1)},
        {"seq": 3, "kind": "action", "seat": 2, "action": shoot, "at": at(2)},
    ]
    full = h.game.replay(2, options, 5, inputs)
    assert full["tanks"]["1"]["at"] == move["to"] and full["tanks"]["2"]["ap"] == 0
    struck = h.game.replay(2, options, 5, [inputs[0], inputs[2]])
    assert struck["tanks"]["1"]["at"] == one and struck["tanks"]["2"]["at"] == two

    def logbook(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for _, _, events in h.game.replay_steps(start, 5, entries) for e in events or []]

    full_log, struck_log = logbook(inputs), logbook([inputs[0], inputs[2]])
    assert [e["text"] for e in struck_log] == [full_log[0]["text"], full_log[2]["text"]]
    assert struck_log[1]["dice"] == full_log[2]["dice"]  # same seq, same dice
    assert struck_log[1]["seq"] == 2  # the entries are numbered again
    assert h.game.replay(2, options, 5, inputs) == full  # deterministic
