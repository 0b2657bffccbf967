"""Rulings on the turn: activations, actions, dice, initiative, the end and the turn limit
(shared/rules/panzer-squadron.md), one test each."""

from __future__ import annotations

import pytest

from engine.base import RuleError

from .conftest import GAME, find, of_type, play, start, tank


def test_initiative_seat_1_on_odd_turns_seat_2_on_even_turns():
    """Initiative: seat 1 on odd turns, seat 2 on even turns; a scenario's initiative holds
    for its starting turn only."""
    s = start([tank("A", "c2", 12), tank("B", "c9", 6, seat=2)], turn=1, initiative=2)
    assert GAME.view(s, None)["to_move"] == 2
    s = play(s, 2, {"activate": "B", "action": "ambush"}).state
    out = play(s, 1, {"activate": "A", "action": "ambush"})
    view = GAME.view(out.state, None)
    assert (view["turn"], view["initiative"], view["to_move"]) == (2, 2, 2)
    assert of_type(out.events, "turn_end")[0]["turn"] == 1
    s = play(out.state, 2, {"activate": "B", "action": "ambush"}).state
    s = play(s, 1, {"activate": "A", "action": "ambush"}).state
    assert (s["turn"], s["initiative"], s["to_move"]) == (3, 1, 1)


def test_players_alternate_and_the_other_activates_the_rest():
    """Players alternate activating one not-yet-activated tank each; when one has none left
    the other activates the rest, then every tank is ready again."""
    s = start([tank("A", "c2", 12), tank("B", "e2", 12), tank("C", "g2", 12),
               tank("X", "c9", 6, seat=2)])
    order = []
    for _ in range(4):
        seat = s["to_move"]
        name = next(t["name"] for t in s["tanks"] if t["seat"] == seat and not t["activated"])
        order.append(name)
        s = play(s, seat, {"activate": name, "action": "ambush"}).state
    assert order == ["A", "X", "B", "C"]
    assert s["turn"] == 2 and not any(t["activated"] for t in s["tanks"])


def test_an_activated_tank_cannot_be_activated_again():
    s = start([tank("A", "c2", 12), tank("B", "e2", 12), tank("X", "c9", 6, seat=2,
                                                              activated=True)])
    s = play(s, 1, {"activate": "A", "action": "ambush"}).state
    assert s["to_move"] == 1  # seat 2 has nothing left to activate
    with pytest.raises(RuleError) as error:
        GAME.validate(s, 1, {"activate": "A", "action": "ambush"})
    assert error.value.problems[0].path == "activate"


def test_only_the_seat_to_move_activates():
    s = start([tank("A", "c2", 12), tank("X", "c9", 6, seat=2)])
    with pytest.raises(RuleError) as error:
        GAME.validate(s, 2, {"activate": "X", "action": "ambush"})
    assert error.value.problems[0].path == "seat"


@pytest.mark.parametrize("state,allowed", [
    ("stationary", {"move", "move-fire", "fire", "ambush"}),
    ("ambush", {"move", "move-fire", "fire", "ambush"}),
    ("moving", {"move", "move-fire"}),
])
def test_what_a_tank_may_do_depends_on_how_it_starts(state, allowed):
    """A stationary tank (or one in ambush) may fire, move, move and fire or ambush; a tank in
    movement may only move or move and fire."""
    s = start([tank("A", "c2", 12, state=state), tank("X", "c9", 6, seat=2)])
    offered = {a["action"] for a in GAME.legal_actions(s, 1)}
    assert offered == allowed
    for action in {"move", "move-fire", "fire", "ambush"} - allowed:
        with pytest.raises(RuleError):
            GAME.validate(s, 1, {"activate": "A", "action": action, "target": "c9"}
                          if action == "fire" else {"activate": "A", "action": action})


@pytest.mark.parametrize("state,card,dice,points", [
    ("stationary", "light", [3], 3),
    ("stationary", "medium", [3], 2),
    ("moving", "light", [3, 4], 7),
    ("moving", "heavy", [3, 4], 6),
    ("stationary", "heavy", [1], 0),  # never below 0
])
def test_movement_points_are_the_dice_plus_the_card_modifier(state, card, dice, points):
    """Stationary start: 1D4; in movement: 2D4; the card's modifier is added, never below 0.
    The server rolls when the action is chosen and shows the points (phase "path")."""
    s = start([tank("A", "c2", 12, card=card, state=state), tank("X", "c9", 6, seat=2)],
              dice=dice)
    out = play(s, 1, {"activate": "A", "action": "move"})
    roll = of_type(out.events, "roll")[0]
    assert (roll["dice"], roll["points"]) == (dice, points)
    view = GAME.view(out.state, 1)
    assert view["phase"] == "path" and view["to_move"] == 1
    assert view["pending"] == {"tank": "A", "action": "move", "dice": dice, "points": points}


def test_dice_come_from_the_seeded_random_after_the_option_runs_out():
    """Every die comes from the dice option first, then from the phase's seeded random."""
    s = start([tank("A", "c2", 12, card="light", state="moving"), tank("X", "c9", 6, seat=2)],
              dice=[2])
    rolls = {tuple(of_type(play(s, 1, {"activate": "A", "action": "move"}, seed=seed).events,
                           "roll")[0]["dice"]) for seed in range(20)}
    assert all(r[0] == 2 and 1 <= r[1] <= 4 for r in rolls) and len(rolls) > 1


def test_ambush_and_fire_end_the_activation_stationary():
    """After firing the tank is stationary; ambush waits (it may still react this turn)."""
    s = start([tank("A", "c2", 12, state="moving"), tank("B", "e2", 12),
               tank("X", "c9", 6, seat=2), tank("Y", "f9", 6, seat=2)], dice=[1])
    s = play(s, 1, {"activate": "B", "action": "fire", "target": "c9"}).state
    assert find(s, "B")["state"] == "stationary" and find(s, "B")["activated"]
    s = play(s, 2, {"activate": "X", "action": "ambush"}).state
    assert find(s, "X")["state"] == "ambush" and s["phase"] == "activate"


def test_a_player_with_no_tanks_left_loses():
    s = start([tank("A", "c2", 12, card="heavy"), tank("X", "c5", 6, seat=2, card="light")],
              dice=[100])
    out = play(s, 1, {"activate": "A", "action": "fire", "target": "c5"})
    result = GAME.result(out.state)
    assert result is not None and result.ranking == ((1,), (2,))
    assert GAME.prompts(out.state) == {} and out.events[-1]["type"] == "end"
    assert GAME.view(out.state, 1)["phase"] == "over"


@pytest.mark.parametrize("destroyed,ranking", [
    ({"1": 2, "2": 1}, ((1,), (2,))),
    ({"1": 0, "2": 1}, ((2,), (1,))),
    ({"1": 1, "2": 1}, ((1, 2),)),
])
def test_turn_limit_the_side_that_destroyed_more_wins_equal_draws(destroyed, ranking):
    """Turn limit (option, default 12): then the side that destroyed more tanks wins; equal
    counts draw."""
    s = start([tank("A", "c2", 12), tank("X", "c9", 6, seat=2)], turn=3, initiative=1,
              turn_limit=3, destroyed=destroyed)
    s = play(s, 1, {"activate": "A", "action": "ambush"}).state
    assert GAME.result(s) is None
    s = play(s, 2, {"activate": "X", "action": "ambush"}).state
    result = GAME.result(s)
    assert result is not None and result.ranking == ranking


def test_the_default_turn_limit_is_12():
    assert GAME.validate_options({})["turn_limit"] == 12
    s = GAME.start(2, GAME.default_options(), 1)
    assert s["turn_limit"] == 12 and len(s["tanks"]) == 10


def test_default_scenario_five_tanks_a_side_on_opposite_edges():
    """Default scenario: 5 tanks per side (2 light, 2 medium, 1 heavy) on opposite edges."""
    for name in ("default", "river"):
        s = GAME.start(2, {"map": name}, 1)
        for seat, row in ((1, "1"), (2, "11")):
            mine = [t for t in s["tanks"] if t["seat"] == seat]
            assert sorted(t["card"] for t in mine) == ["heavy", "light", "light", "medium",
                                                       "medium"]
            assert all(t["at"][1:] == row for t in mine)


def test_missed_activation_defaults_to_ambush_or_move():
    """Missed deadline: the seat's first ready tank (by name) ambushes if it may; a tank in
    movement gets move instead."""
    s = start([tank("B", "e2", 12), tank("A", "c2", 12, state="moving"),
               tank("X", "c9", 6, seat=2)])
    assert GAME.default_submission(s, 1) == {"activate": "A", "action": "move"}
    s2 = start([tank("B", "e2", 12), tank("A", "c2", 12, state="ambush"),
                tank("X", "c9", 6, seat=2)])
    assert GAME.default_submission(s2, 1) == {"activate": "A", "action": "ambush"}
