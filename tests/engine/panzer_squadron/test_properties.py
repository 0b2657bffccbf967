"""Properties: every legal action is accepted; dice come only from the option and the
phase's seeded random, so the same inputs replay to the same state; greedy beats random."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import rng_for

from .conftest import GAME


def playout(seed: int, bots=("random", "random"), steps: int = 400):
    """A bot game where phase n's dice come from ``rng_for(seed, n)`` like the portal's."""
    state = GAME.start(2, GAME.default_options(), seed)
    inputs = []
    for number in range(1, steps + 1):
        if GAME.result(state) is not None:
            break
        seat = state["to_move"]
        sub = GAME.bot_submission(state, seat, bots[seat - 1], random.Random(seed * 1000 + number))
        inputs.append((seat, sub))
        state = GAME.apply(state, seat, sub, None, rng_for(seed, number)).state
    return state, inputs


def replay(seed: int, inputs):
    state = GAME.start(2, GAME.default_options(), seed)
    events = []
    for number, (seat, sub) in enumerate(inputs, start=1):
        out = GAME.apply(state, seat, sub, None, rng_for(seed, number))
        state, events = out.state, events + out.events
    return state, events


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_the_same_inputs_replay_to_the_same_state(seed):
    state, inputs = playout(seed, steps=80)
    again, events = replay(seed, inputs)
    assert again == state
    assert json.loads(json.dumps(state)) == state
    rolls = [e for e in events if e["type"] in ("roll", "fire")]
    assert all(("dice" in e) or ("roll" in e) for e in rolls)


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_every_legal_action_is_accepted(seed):
    state, _ = playout(seed, steps=seed % 50)
    if GAME.result(state) is None:
        seat = state["to_move"]
        actions = GAME.legal_actions(state, seat)
        assert actions, "a seat to move always has something to do"
        for action in actions:
            GAME.validate(state, seat, action)
        GAME.validate(state, seat, GAME.default_submission(state, seat))
        assert GAME.legal_actions(state, 3 - seat) == []


@pytest.mark.long
def test_greedy_beats_random_in_at_least_80_percent_of_200_seeded_games():
    wins = 0
    for seed in range(200):
        greedy = 1 + seed % 2
        bots = ("greedy", "random") if greedy == 1 else ("random", "greedy")
        state, _ = playout(seed, bots)
        result = GAME.result(state)
        assert result is not None
        wins += result.winners == (greedy,)
    assert wins >= 160, wins
