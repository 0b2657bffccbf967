"""Every game says what a concession means (``Game.resign``): a two-seat game ends with the
other seat the winner; in a bigger game the seat leaves play (``seats_out``) and the others go
on, until one is left. The state stays plain JSON, the seat that conceded acts no more and
ranks below the others, a second concession of the same seat and one after the end are
refused, and a replayed logbook entry of kind "resign" (continuous games) does the same."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

import engine
from engine import RuleError, Text
from tests.engine.test_random_playout import _continuous_step, _submission

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
GAMES = ("final-act", "final-strategy", "panzer-squadron", "tank-game")


def _played(slug: str, seats: int, steps: int, seed: int = 3) -> dict:
    """A position after ``steps`` random legal steps (fewer if the game ends first)."""
    from engine import PhaseKind

    game = engine.get(slug)
    state = game.start(seats, game.validate_options(game.default_options()), seed)
    rng = random.Random(seed)
    now = NOW
    for _ in range(steps):
        prompts = game.prompts(state)
        if not prompts or game.result(state) is not None:
            break
        kinds = {p.kind for p in prompts.values()}
        if PhaseKind.SIMULTANEOUS in kinds:
            sheets = {s: game.validate(state, s, _submission(game, state, s, rng))
                      for s in prompts}
            outcome = game.resolve(state, sheets, rng)
        elif PhaseKind.SEQUENTIAL in kinds:
            seat = sorted(prompts)[0]
            outcome = game.apply(state, seat, game.validate(state, seat, _submission(
                game, state, seat, rng)), now, rng)
        else:
            outcome = _continuous_step(game, state, prompts, now, rng)
            if outcome is None:
                now += timedelta(days=1)
                outcome = game.tick(state, now, rng)
        state = outcome.state
        now += timedelta(minutes=10)
    return state


@pytest.mark.parametrize("steps", [0, 6])
@pytest.mark.parametrize("slug", GAMES)
def test_a_concession_in_a_two_seat_match_ends_it_won_by_the_other_seat(slug, steps):
    game = engine.get(slug)
    state = _played(slug, 2, steps)
    assert game.result(state) is None
    for seat, other in ((1, 2), (2, 1)):
        outcome = game.resign(state, seat, NOW)
        assert json.loads(json.dumps(outcome.state)) == outcome.state
        assert json.loads(json.dumps(outcome.events)) == outcome.events
        result = game.result(outcome.state)
        assert result is not None, f"{slug}: a conceded two-seat match must be over"
        assert result.ranking == ((other,), (seat,))
        assert result.winners == (other,)
        # its reason is English the game's phrasebook reads back, for the portal to translate
        assert isinstance(game.phrasebook.read(result.reason), Text), result.reason
        assert game.prompts(outcome.state) == {}
        with pytest.raises(RuleError):
            game.resign(outcome.state, other, NOW)
    assert game.result(state) is None, "resign changed the state it was given"


@pytest.mark.parametrize("slug", ["final-strategy", "tank-game"])
def test_in_a_bigger_match_the_seat_leaves_and_the_others_play_on(slug):
    game = engine.get(slug)
    state = _played(slug, 3, 4)
    to_move = set(game.prompts(state))
    outcome = game.resign(state, 2, NOW)
    after = outcome.state
    assert game.result(after) is None
    assert game.seats_out(after) == {2}
    assert 2 not in game.prompts(after)
    assert game.prompts(after), "the two others play on"
    if to_move == {2}:  # its turn passed on
        assert set(game.prompts(after)) <= {1, 3}
    with pytest.raises(RuleError):
        game.resign(after, 2, NOW)
    # The last but one concedes: the one left wins, the two who conceded rank below.
    last = game.resign(after, 3, NOW + timedelta(minutes=1)).state
    result = game.result(last)
    assert result is not None
    assert result.ranking[0] == (1,)
    assert {s for group in result.ranking for s in group} == {1, 2, 3}
    assert set(result.ranking[-1]) & {2, 3}


def test_final_strategy_keeps_the_troops_of_a_seat_that_conceded_as_obstacles():
    game = engine.get("final-strategy")
    state = _played("final-strategy", 3, 5)
    pieces = game.view(state, None)["pieces"]
    after = game.resign(state, 1, NOW).state
    view = game.view(after, None)
    assert view["removed"] == [1]
    assert view["pieces"] == pieces
    assert game.round_report(game.resign(state, 1, NOW).events, None)[0] == (
        "Seat 1 conceded and left the game.")


def test_tank_game_sends_the_gold_to_the_coffer_and_keeps_no_council_seat():
    game = engine.get("tank-game")
    state = _played("tank-game", 3, 0)
    state["tanks"]["2"]["gold"] = 4
    state["tanks"]["2"]["bounty"] = 2
    outcome = game.resign(state, 2, NOW)
    after = outcome.state
    tank = after["tanks"]["2"]
    assert (tank["status"], tank["at"], tank["gold"], tank["bounty"]) == (
        "resigned", None, 0, 0)
    assert after["coffer"] == state["coffer"] + 4
    assert all(m["seat"] != 2 for m in game.view(after, None)["council"]["members"])
    assert [e["kind"] for e in outcome.events] == ["resign"]
    assert "conceded" in outcome.events[0]["text"]
    # Replaying the logbook entry gives the same state.
    entry = {"seq": 1, "kind": "resign", "seat": 2, "action": None, "at": NOW.isoformat()}
    replayed = list(game.replay_steps(state, 5, [entry]))
    assert replayed[0][1] == after
    assert replayed[0][2] == outcome.events


def test_a_game_that_says_nothing_takes_no_concession():
    from engine.base import Game

    with pytest.raises(RuleError, match="takes no concessions"):
        Game().resign({}, 1, NOW)
    assert Game().seats_out({}) == frozenset()
