"""One test per ruling of shared/rules/final-strategy.md; each docstring is the ruling."""

from __future__ import annotations

import pytest

from engine import OptionsError, RuleError
from engine.final_strategy import board
from tests.engine.final_strategy.helpers import GAME, piece_at, play, sides, start, types


def test_board_has_180_interior_edges_and_a_walled_border():
    """10 x 10 squares; the outer border is already walled; the 180 interior edges are where
    barriers go."""
    assert len(board.EDGES) == 180 == len(set(board.EDGE_NAMES))
    assert len(sides("a1")) == 2 and len(sides("a5")) == 3 and len(sides("e5")) == 4
    state = start(barriers=["a1-b1"])  # a1 has two border walls: one more barrier closes it
    state, events = play(state, {"barrier": "a1-a2"}, {"barrier": "h8-h9"})
    assert {"type": "close", "seat": 1, "squares": ["a1"]} in events


def test_pieces_per_player_follow_the_seeds_table():
    """2 players: 36 troops, 3 kidnappers, 1 bomb; 3 players: 22, 3, 1; 4 players: 16, 3, 1."""
    for seats, split in ((2, (36, 3, 1)), (3, (22, 3, 1)), (4, (16, 3, 1))):
        bunker = GAME.view(GAME.start(seats, {}, 1), 1)["bunkers"]["1"]
        assert (bunker["troops"], bunker["kidnappers"], bunker["bombs"]) == split


def test_bunker_counts_hidden_from_others():
    """Bunkers are hidden from the others: they see only counts (spectators too)."""
    state = GAME.start(3, {}, 1)
    own = GAME.view(state, 2)["bunkers"]
    assert own["2"] == {"count": 26, "troops": 22, "kidnappers": 3, "bombs": 1}
    assert own["1"] == {"count": 26} and own["3"] == {"count": 26}
    assert all(b == {"count": 26} for b in GAME.view(state, None)["bunkers"].values())


def test_a_barrier_closing_nothing_ends_the_turn():
    """A turn always ends with a barrier, a kidnapper or a bomb being placed; a barrier that
    closes nothing ends it and the move passes to the next seat."""
    state, events = play(start(), {"barrier": "e5-e6"})
    assert types(events) == ["barrier"] and state["to_move"] == 2 and state["turn"] == 2


def test_closing_a_square_occupies_it_and_the_player_must_place_again():
    """If a barrier closes the fourth side of a square, the player occupies it with a troop and
    must place again."""
    state = start(barriers=sides("c3")[1:])
    with pytest.raises(RuleError) as refused:
        GAME.validate(state, 1, {"steps": [{"barrier": sides("c3")[0]}]})
    assert refused.value.problems[0].path == "steps.1"
    state, events = play(state, {"barrier": sides("c3")[0]}, {"barrier": "h8-h9"})
    assert piece_at(state, "c3") == {"seat": 1, "kind": "troop", "at": "c3"}
    assert types(events) == ["barrier", "close", "occupy", "barrier"]


def test_chain_stops_when_a_closed_square_is_not_adjacent():
    """Each further square closed must be orthogonally adjacent to the last one closed; a closed
    square that is not adjacent stays formed and empty, and the turn ends."""
    c3, h8 = sides("c3"), sides("h8")
    state = start(barriers=c3[1:] + h8[1:])
    state, events = play(state, {"barrier": c3[0]}, {"barrier": h8[0]})
    assert piece_at(state, "c3") is not None and piece_at(state, "h8") is None
    assert "h8" in GAME.view(state, 1)["formed"] and state["to_move"] == 2


def test_chain_goes_on_with_an_adjacent_square():
    """A closed square adjacent to the last closed one is occupied at once and the chain goes
    on."""
    c3, c4 = sides("c3"), sides("c4")
    state = start(barriers=sorted(set(c3 + c4) - {"c3-d3", "c4-d4"}))
    state, events = play(state, {"barrier": "c3-d3"}, {"barrier": "c4-d4"}, {"barrier": "h8-h9"})
    assert piece_at(state, "c3")["seat"] == 1 and piece_at(state, "c4")["seat"] == 1


def test_one_barrier_closing_two_squares_occupies_both():
    """A barrier can close two squares at once (the two squares of its edge); both are
    occupied."""
    state = start(barriers=sorted(set(sides("c3") + sides("c4")) - {"c3-c4"}))
    state, _ = play(state, {"barrier": "c3-c4"}, {"barrier": "h8-h9"})
    assert piece_at(state, "c3") and piece_at(state, "c4")


def test_one_troop_left_goes_on_the_lower_square_and_ends_the_turn():
    """When one barrier closes two squares and only one troop is left, the troop goes on the
    lower one in edge order and the turn ends."""
    state = start(barriers=sorted(set(sides("c3") + sides("c4")) - {"c3-c4"}),
                  bunkers={"1": {"troops": 1, "kidnappers": 1, "bombs": 0}})
    state, _ = play(state, {"barrier": "c3-c4"})
    assert piece_at(state, "c3") and piece_at(state, "c4") is None and state["to_move"] == 2


def test_barrier_closing_a_square_holding_a_kidnapper_ends_the_turn():
    """A barrier that closes a square holding a kidnapper or a bomb also ends the turn."""
    state = start(barriers=sides("c3")[1:],
                  pieces=[{"seat": 2, "kind": "kidnapper", "at": "c3", "corner": "ne"}])
    state, events = play(state, {"barrier": sides("c3")[0]})
    assert state["to_move"] == 2 and piece_at(state, "c3")["kind"] == "kidnapper"
    assert "occupy" not in types(events)


def test_no_troop_in_the_bunker_leaves_the_square_formed():
    """A player with no troop in the bunker cannot occupy: the square stays formed and empty and
    the turn ends."""
    state = start(barriers=sides("c3")[1:],
                  bunkers={"1": {"troops": 0, "kidnappers": 1, "bombs": 0}})
    state, _ = play(state, {"barrier": sides("c3")[0]})
    assert "c3" in GAME.view(state, 1)["formed"] and state["to_move"] == 2


def test_start_of_turn_occupation_only_before_the_first_placement():
    """The player may occupy one formed, unoccupied square at the start of the turn, only
    before the turn's first barrier, kidnapper or bomb; it does not start a chain."""
    state = start(barriers=sides("c3") + sides("h8"))
    state, events = play(state, {"occupy": "c3"}, {"barrier": "a9-a10"})
    assert piece_at(state, "c3")["seat"] == 1
    with pytest.raises(RuleError) as refused:
        GAME.validate(state, 2, {"steps": [{"barrier": "a8-a9"}, {"occupy": "h8"}]})
    assert refused.value.problems[0].path == "steps.1"
    with pytest.raises(RuleError):
        GAME.validate(state, 2, {"steps": [{"occupy": "h8"}, {"occupy": "c3"},
                                           {"barrier": "a8-a9"}]})


def test_kidnapper_captures_enemy_troops_in_its_capture_area():
    """A kidnapper names a corner; the 2 x 2 block is its capture area: every enemy troop there
    is captured (a prisoner of the kidnapper's owner), own troops go back to the bunker; the
    kidnapper stays."""
    state = start(pieces=[{"seat": 2, "kind": "troop", "at": "d4"},
                          {"seat": 1, "kind": "troop", "at": "c4"},
                          {"seat": 2, "kind": "troop", "at": "b2"}])
    state, events = play(state, {"kidnapper": "c3", "corner": "ne"})
    assert piece_at(state, "d4") is None and piece_at(state, "c4") is None
    assert state["prisoners"] == {"1": {"2": 1}}
    assert GAME.view(state, 1)["bunkers"]["1"]["troops"] == 36
    assert piece_at(state, "c3")["kind"] == "kidnapper" and state["to_move"] == 2
    assert {"capture", "return", "kidnapper"} <= set(types(events))


@pytest.mark.parametrize(("square", "corner", "area"), [
    ("a1", "sw", {"a1"}), ("a1", "ne", {"a1", "a2", "b1", "b2"}),
    ("j1", "se", {"j1"}), ("j1", "nw", {"i1", "i2", "j1", "j2"}),
    ("a10", "nw", {"a10"}), ("a10", "se", {"a9", "a10", "b9", "b10"}),
    ("j10", "ne", {"j10"}), ("j10", "sw", {"i9", "i10", "j9", "j10"}),
    ("c1", "se", {"c1", "d1"}), ("a4", "nw", {"a4", "a5"}), ("d10", "ne", {"d10", "e10"}),
])
def test_capture_areas_at_every_corner_and_at_the_boards_edge(square, corner, area):
    """Capture areas are cut at the board's edge (squares off the board do not exist)."""
    got = board.capture_area(board.SQUARE_INDEX[square], corner)
    assert {board.SQUARE_NAMES[s] for s in got} == area


def test_safe_and_neutral_squares_untouched():
    """Troops on safe or neutral squares — anyone's, the placer's own included — are never
    captured, bombed or sent back."""
    pieces = [{"seat": 2, "kind": "troop", "at": "e5"}, {"seat": 1, "kind": "troop", "at": "f6"},
              {"seat": 2, "kind": "troop", "at": "a1"}, {"seat": 2, "kind": "troop", "at": "a2"}]
    state = start(pieces=pieces)
    state, _ = play(state, {"kidnapper": "e6", "corner": "se"})  # e5, e6, f5, f6
    assert piece_at(state, "e5") and piece_at(state, "f6")
    state, _ = play(state, {"barrier": "h8-h9"})
    state, _ = play(state, {"bomb": "b1"})  # a1 (neutral) and a2 in the block
    assert piece_at(state, "a1") and piece_at(state, "a2") is None


def test_bomb_removes_exactly_the_12_inner_edges_of_its_block():
    """A bomb clears the 3 x 3 block centred on it: troops go back to their owners' bunkers and
    every barrier on the 12 edges inside the block is removed; its outer border stays."""
    inner = [board.EDGE_NAMES[e] for e in board.BOMB_EDGES[board.SQUARE_INDEX["d4"]]]
    assert len(inner) == 12
    outer = ["c2-c3", "b3-c3", "e5-e6", "e5-f5"]
    state = start(barriers=inner + outer, pieces=[{"seat": 2, "kind": "troop", "at": "c3"}])
    state, events = play(state, {"bomb": "d4"})
    assert state["barriers"] == sorted(outer, key=lambda e: board.EDGE_ORDER[board.EDGE_INDEX[e]])
    assert piece_at(state, "c3") is None
    assert GAME.view(state, 2)["bunkers"]["2"]["troops"] == 36
    assert next(e for e in events if e["type"] == "clear")["edges"] == sorted(
        inner, key=lambda e: board.EDGE_ORDER[board.EDGE_INDEX[e]])


def test_bomb_at_the_edge_clears_the_cut_block():
    """A bomb on a5 clears the 7 interior edges among a4-b6."""
    assert len(board.BOMB_EDGES[board.SQUARE_INDEX["a5"]]) == 7


def test_kidnappers_and_bombs_are_never_captured():
    """Kidnappers and bombs are never captured; other bombs and kidnappers stay."""
    state = start(pieces=[{"seat": 2, "kind": "kidnapper", "at": "d4", "corner": "ne"},
                          {"seat": 2, "kind": "bomb", "at": "c4"}])
    state, _ = play(state, {"bomb": "c3"})
    assert piece_at(state, "d4") and piece_at(state, "c4")


def test_swap_on_a_safe_square_once_per_turn():
    """Once a turn, the player's troop on a safe square goes back to the bunker and a kidnapper
    or bomb takes the square and acts at once; the swap does not end the turn."""
    state = start(pieces=[{"seat": 1, "kind": "troop", "at": "b2"},
                          {"seat": 2, "kind": "troop", "at": "c3"},
                          {"seat": 1, "kind": "troop", "at": "e5"}])
    state2, events = play(state, {"swap": "b2", "for": "kidnapper", "corner": "ne"},
                          {"barrier": "h8-h9"})
    assert piece_at(state2, "b2")["kind"] == "kidnapper" and piece_at(state2, "c3") is None
    assert state2["prisoners"] == {"1": {"2": 1}}
    with pytest.raises(RuleError) as refused:
        GAME.validate(state, 1, {"steps": [{"swap": "b2", "for": "bomb"},
                                           {"swap": "e5", "for": "kidnapper", "corner": "sw"},
                                           {"barrier": "h8-h9"}]})
    assert refused.value.problems[0].path == "steps.1"
    with pytest.raises(RuleError):
        GAME.validate(state, 1, {"steps": [{"swap": "c3", "for": "bomb"}, {"barrier": "h8-h9"}]})


def test_steps_after_the_end_are_refused():
    """A turn ends exactly at its last step; steps after the end are refused at steps.N."""
    with pytest.raises(RuleError) as refused:
        GAME.validate(start(), 1, {"steps": [{"barrier": "d3-d4"}, {"barrier": "e3-e4"}]})
    assert [p.path for p in refused.value.problems] == ["steps.1"]


def test_scoring_and_shared_ranks():
    """Score = prisoners taken − pieces left in the bunker; equal scores share the rank."""
    state = start(3, bunkers={"1": {"troops": 1, "kidnappers": 0, "bombs": 0},
                              "2": {"troops": 3, "kidnappers": 0, "bombs": 0},
                              "3": {"troops": 3, "kidnappers": 0, "bombs": 0}},
                  prisoners={"1": {"2": 2}}, barriers=sides("c3")[1:])
    state, events = play(state, {"barrier": sides("c3")[0]}, {"barrier": "h8-h9"})
    assert state["over"] and events[-1]["type"] == "end"
    result = GAME.result(state)
    assert result.ranking == ((1,), (2, 3)) and result.scores[1] == 2.0
    assert GAME.view(state, None)["scores"] == {"1": 2, "2": -3, "3": -3}


def test_end_when_a_bunker_empties():
    """The game ends at the end of the turn in which a player's bunker becomes empty."""
    state = start(bunkers={"1": {"troops": 1, "kidnappers": 0, "bombs": 0}},
                  barriers=sides("c3")[1:])
    state, _ = play(state, {"barrier": sides("c3")[0]}, {"barrier": "h8-h9"})
    assert state["over"] and state["to_move"] is None
    assert GAME.view(state, 1)["phase"] == "over" and GAME.prompts(state) == {}


def test_player_who_cannot_move_is_skipped():
    """A player with no legal turn is skipped (a pass event); when every remaining player would
    be skipped, the game ends."""
    state = start(3, barriers=list(board.EDGE_NAMES),
                  bunkers={"1": {"troops": 5, "kidnappers": 2, "bombs": 0},
                           "2": {"troops": 5, "kidnappers": 0, "bombs": 0},
                           "3": {"troops": 5, "kidnappers": 1, "bombs": 0}})
    state, events = play(state, {"kidnapper": "c3", "corner": "ne"})
    assert {"type": "pass", "seat": 2} in events and state["to_move"] == 3
    assert state["turn"] == 2
    state, events = play(state, {"kidnapper": "h3", "corner": "ne"})
    assert state["to_move"] == 1 and state["turn"] == 3
    state, events = play(state, {"kidnapper": "h7", "corner": "ne"})
    assert state["over"] and events[-1]["reason"] == "no player can move"


def test_turn_limit_ends_the_game():
    """With the turn_limit option, the game ends when that many turns have been played."""
    state = start(turn_limit=1)
    state, events = play(state, {"barrier": "e5-e6"})
    assert state["over"] and GAME.result(state) is not None


def test_default_move_prefers_a_quiet_edge():
    """The default move is a barrier on an edge that gives no one a closable square, chosen
    with the match's seeded random."""
    state = start(barriers=sides("c3")[1:])
    sub = GAME.default_submission(state, 1)
    assert sub["default"] is True and len(sub["steps"]) == 1
    edge = board.EDGE_INDEX[sub["steps"][0]["barrier"]]
    assert sub == GAME.default_submission(state, 1)
    state2, _ = play(state, *sub["steps"])
    assert not any(board.SQUARE_NAMES[sq] in GAME.view(state2, 1)["formed"]
                   for sq in board.EDGE_SQUARES[edge])
    from engine.final_strategy.bots import walls
    from engine.final_strategy.position import Position
    pos = Position.from_state(state)
    assert all(walls(pos, sq) <= 1 for sq in board.EDGE_SQUARES[edge])


def test_seat_removed_after_its_limit_of_misses_troops_stay_neutral():
    """After the match's limit of missed turns in a row the seat is removed (the match's
    policy takes it out: ``remove_seats``); its troops stay as neutral obstacles (never
    captured), it ranks last, its bunker no longer ends the game."""
    state = start(3, pieces=[{"seat": 1, "kind": "troop", "at": "d4"}])
    state, _ = play(state, *GAME.default_submission(state, 1)["steps"], default=True)
    outcome = GAME.remove_seats(state, [1])
    state = outcome.state
    assert outcome.events == [{"type": "remove", "seat": 1}]
    assert state["removed"] == [1] and state["to_move"] == 2
    assert 1 not in GAME.prompts(state)
    state, _ = play(state, {"barrier": "h8-h9"})
    assert state["to_move"] == 3
    state, _ = play(state, {"barrier": "a8-a9"})
    assert state["to_move"] == 2  # seat 1 is skipped
    state, _ = play(state, {"kidnapper": "c3", "corner": "ne"})
    assert piece_at(state, "d4")["seat"] == 1
    assert GAME.remove_seats(state, [1]).state == state  # out already: no change


def test_a_seat_removed_on_its_turn_passes_the_move_and_two_left_end_the_game():
    """A seat taken out while it is to move passes the move on; with fewer than two seats
    left the game ends, the removed seat ranked last."""
    state = start(3)
    outcome = GAME.remove_seats(state, [1])
    assert outcome.state["to_move"] == 2 and outcome.state["over"] is False
    outcome = GAME.remove_seats(outcome.state, [3])
    assert outcome.state["over"] is True
    assert [e["type"] for e in outcome.events] == ["remove", "end"]
    assert GAME.result(outcome.state).ranking == ((2,), (1, 3))
    # Two out at once: both rank last together, whichever the game would have ended on.
    both = GAME.remove_seats(state, [3, 1])
    assert [e["type"] for e in both.events] == ["remove", "remove", "end"]
    assert GAME.result(both.state).ranking == ((2,), (1, 3))
    with pytest.raises(RuleError):
        GAME.remove_seats(state, [5])


def test_the_engine_counts_no_missed_turns():
    """Missed turns are the match's to count (its missed-deadline policy, whatever its limit):
    default moves, however many in a row, never take a seat out by themselves, and the
    engine's options have no limit of their own."""
    state = start()
    for _ in range(8):
        seat = state["to_move"]
        state, events = play(state, *GAME.default_submission(state, seat)["steps"],
                             default=True)
        assert "remove" not in types(events)
    assert state["removed"] == [] and "misses" not in state
    with pytest.raises(OptionsError) as refused:
        GAME.validate_options({"miss_limit": 3})
    assert refused.value.problems[0].path == "miss_limit"
    assert "missed-deadline policy" in refused.value.problems[0].message


def test_scenario_refuses_impossible_positions():
    """A scenario that is not a possible position is refused naming each problem."""
    with pytest.raises(OptionsError) as refused:
        GAME.validate_options({"scenario": {"pieces": [
            {"seat": 5, "kind": "troop", "at": "c3"}, {"seat": 1, "kind": "troop", "at": "k3"},
            {"seat": 1, "kind": "troop", "at": "c3"}, {"seat": 2, "kind": "troop", "at": "c3"}],
            "bunkers": {"1": {"troops": -1}}}})
    paths = {p.path for p in refused.value.problems}
    assert {"scenario.pieces.0.seat", "scenario.pieces.1.at", "scenario.pieces.3.at",
            "scenario.bunkers.1.troops"} <= paths
    with pytest.raises(OptionsError):
        GAME.start(2, {"scenario": {"to_move": 3}}, 1)


@pytest.mark.parametrize("field, value, path", [
    ("to_move", "1", "scenario.to_move"),
    ("to_move", 1.0, "scenario.to_move"),
    ("to_move", True, "scenario.to_move"),
    ("pieces", [{"seat": "2", "kind": "troop", "at": "c3"}], "scenario.pieces.0.seat"),
    ("removed", ["2"], "scenario.removed.0"),
    ("bunkers", {"²": {"troops": 1}}, "scenario.bunkers.²"),
])
def test_scenario_refuses_a_seat_written_as_anything_but_a_whole_number(field, value, path):
    """A seat given as text ("1"), a float or a boolean is refused, never read as that seat
    (only an object's keys, which JSON writes as text, name seats as "1" to "4")."""
    with pytest.raises(OptionsError) as refused:
        GAME.validate_options({"scenario": {field: value}})
    assert path in {p.path for p in refused.value.problems}


def test_scenario_bunkers_default_to_the_allotment_less_pieces_and_prisoners():
    """A seat missing from bunkers gets its allotment less its pieces on the board and its
    troops held as prisoners."""
    state = start(pieces=[{"seat": 2, "kind": "troop", "at": "h8"},
                          {"seat": 2, "kind": "bomb", "at": "h2"}], prisoners={"1": {"2": 3}})
    assert GAME.view(state, 2)["bunkers"]["2"] == {"count": 35, "troops": 32, "kidnappers": 3,
                                                   "bombs": 0}


def test_board_text_draws_barriers_pieces_and_hides_other_bunkers():
    """The board as text for e-mail: barriers drawn with ASCII, pieces, whose turn it is; the
    bunker split only for the reader's own seat."""
    state = start(barriers=["c3-c4", "c3-d3"],
                  pieces=[{"seat": 2, "kind": "kidnapper", "at": "d7", "corner": "ne"},
                          {"seat": 1, "kind": "troop", "at": "a1"}])
    text = GAME.board_text(state, 1)
    lines = text.splitlines()
    row3 = next(line for line in lines if line.startswith("  3 |"))
    assert row3[4 + 3 * 4] == "|"  # the barrier east of c3
    above3 = lines[lines.index(row3) - 1]
    assert above3[5 + 2 * 4: 8 + 2 * 4] == "---"  # the barrier north of c3
    assert " 1 " in next(line for line in lines if line.startswith("  1 |"))
    assert "K2" in next(line for line in lines if line.startswith("  7 |"))
    assert "Kidnappers (square, corner): d7 ne" in text
    assert "seat 1: bunker 39 (35 troops, 3 kidnappers, 1 bombs)" in text
    assert "seat 2: bunker 39, score -39" in text and "Turn 1: seat 1 to move." in text
    assert "(" not in GAME.board_text(state, None).split("seat 1: bunker")[1].split("\n")[0]
