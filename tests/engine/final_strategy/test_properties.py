"""Hypothesis properties and random playouts for 2, 3 and 4 seats."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.final_strategy import board
from engine.final_strategy.position import Position
from tests.engine.final_strategy.helpers import GAME, NOW


def _troops_accounted(state, seats):
    """Troops on the board + in bunkers + held as prisoners, per seat."""
    pos = Position.from_state(state)
    total = {s: pos.bunkers[s][0] for s in range(1, seats + 1)}
    for piece in pos.pieces.values():
        if piece["kind"] == "troop":
            total[piece["seat"]] += 1
    for by in pos.prisoners.values():
        for victim, n in by.items():
            total[victim] += n
    return total


def _playout(seats, seed, bot="random", cap=2000):
    rng = random.Random(seed)
    state = GAME.start(seats, {}, seed)
    states = [state]
    for _ in range(cap):
        if GAME.result(state) is not None:
            break
        seat = state["to_move"]
        action = GAME.validate(state, seat, GAME.bot_submission(state, seat, bot, rng))
        state = GAME.apply(state, seat, action, NOW, rng).state
        states.append(state)
    return states


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_edges_never_duplicated_and_troops_conserved(seats, seed):
    """Barriers are never duplicated; troops are conserved between board, bunkers and
    prisoners; kidnappers and bombs are conserved between board and bunkers."""
    allot = board.ALLOTMENT[seats]
    for state in _playout(seats, seed, cap=60):
        assert len(state["barriers"]) == len(set(state["barriers"]))
        assert all(e in board.EDGE_INDEX for e in state["barriers"])
        assert _troops_accounted(state, seats) == {s: allot[0] for s in range(1, seats + 1)}
        squares = [p["at"] for p in state["pieces"]]
        assert len(squares) == len(set(squares))
        for s in range(1, seats + 1):
            for slot, kind in ((1, "kidnapper"), (2, "bomb")):
                placed = sum(1 for p in state["pieces"] if p["seat"] == s and p["kind"] == kind)
                assert placed + state["bunkers"][str(s)][("troops", "kidnappers", "bombs")[slot]] \
                    == allot[slot]


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.one_of(
    st.builds(lambda e: {"barrier": board.EDGE_NAMES[e]}, st.sampled_from(board.EDGES)),
    st.builds(lambda s: {"occupy": board.SQUARE_NAMES[s]}, st.sampled_from(board.SQUARES)),
    st.builds(lambda s: {"bomb": board.SQUARE_NAMES[s]}, st.sampled_from(board.SQUARES)),
    st.builds(lambda s, c: {"kidnapper": board.SQUARE_NAMES[s], "corner": c},
              st.sampled_from(board.SQUARES), st.sampled_from(board.CORNERS)),
    st.builds(lambda s, c: {"swap": board.SQUARE_NAMES[s], "for": "kidnapper", "corner": c},
              st.sampled_from(board.SQUARES), st.sampled_from(board.CORNERS)),
    st.builds(lambda s: {"swap": board.SQUARE_NAMES[s], "for": "bomb"},
              st.sampled_from(board.SQUARES))), min_size=1, max_size=6))
def test_text_grammar_round_trips(steps):
    """parse_text(format_text(x)) == x for every turn."""
    state = GAME.start(2, {}, 1)
    turn = {"steps": steps}
    assert GAME.parse_text(state, 1, GAME.format_text(state, 1, turn)) == turn


def test_text_grammar_reads_the_issues_example_and_french_words():
    """The grammar of the issue: ``occupy e5; wall e5-e6; wall e6-f6; kidnapper c3 ne``."""
    state = GAME.start(2, {}, 1)
    assert GAME.parse_text(state, 1, "occupy e5; wall e6-e5\nwall e6-f6; kidnapper c3 ne") == {
        "steps": [{"occupy": "e5"}, {"barrier": "e5-e6"}, {"barrier": "e6-f6"},
                  {"kidnapper": "c3", "corner": "ne"}]}
    assert GAME.parse_text(state, 1, "mur e5-e6; ravisseur c3 no") == {
        "steps": [{"barrier": "e5-e6"}, {"kidnapper": "c3", "corner": "nw"}]}
    from engine import TextError
    with pytest.raises(TextError) as refused:
        GAME.parse_text(state, 1, "wall e5-e7\nfly b2")
    assert [p.path for p in refused.value.problems] == ["line 1", "line 2"]


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_playout_to_the_end(seats, seed):
    """Random games for 2, 3 and 4 seats end with a result ranking every seat; state and views
    stay plain JSON; the hidden bunker split never reaches another seat."""
    states = _playout(seats, seed)
    final = states[-1]
    result = GAME.result(final)
    assert result is not None
    assert sorted(s for group in result.ranking for s in group) == list(range(1, seats + 1))
    for state in states[:: max(1, len(states) // 20)] + [final]:
        assert json.loads(json.dumps(state)) == state
        for viewer in (None, *range(1, seats + 1)):
            v = GAME.view(state, viewer)
            assert json.loads(json.dumps(v)) == v
            for s, bunker in v["bunkers"].items():
                assert ("troops" in bunker) == (viewer is not None and s == str(viewer))


def test_default_move_playout_ends():
    """Games of default moves only (every seat missing every deadline: the engine takes no
    seat out by itself) are legal turns to the end."""
    state = GAME.start(3, {}, 5)
    for _ in range(3000):
        if GAME.result(state) is not None:
            break
        seat = state["to_move"]
        sub = GAME.default_submission(state, seat)
        GAME.validate(state, seat, sub)
        state = GAME.apply(state, seat, sub, NOW, random.Random(0)).state
    assert GAME.result(state) is not None


@pytest.mark.long
def test_greedy_beats_random_in_90_percent_of_200_seeded_games():
    """greedy beats random in >= 90 % of 200 seeded 2-player games (seats alternate)."""
    wins = 0
    for seed in range(200):
        greedy = 1 + seed % 2
        rng = random.Random(seed)
        state = GAME.start(2, {}, seed)
        while GAME.result(state) is None:
            seat = state["to_move"]
            bot = "greedy" if seat == greedy else "random"
            action = GAME.validate(state, seat, GAME.bot_submission(state, seat, bot, rng))
            state = GAME.apply(state, seat, action, NOW, rng).state
        result = GAME.result(state)
        wins += result.ranking[0] == (greedy,)
    assert wins >= 180, wins
