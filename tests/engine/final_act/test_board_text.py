"""Final Act as email text: the board diagram and the order help show only the seat's view."""

from __future__ import annotations

import engine
from engine.final_act.board_text import board_text, diagram, text_help

GAME = engine.get("final-act")


def start(**options):
    scenario = {
        "round": 3,
        "units": [
            {"seat": 1, "name": "1A", "at": "e9", "facing": "N", "hits": 1},
            {"seat": 2, "name": "AT1", "at": "a5", "facing": "W", "hits": 0},
        ],
        "terrain": [
            {"kind": "berm", "owner": 1, "squares": ["c3", "d3"]},
            {"kind": "minefield", "owner": 2, "squares": ["b8", "c8", "d8"], "passage": "c8",
             "arrow": "S"},
        ],
    }
    opts = GAME.validate_options({"scenario": scenario, "extra_forces": True, **options})
    return GAME.start(2, opts, 1)


def test_the_diagram_puts_units_and_terrain_on_their_squares():
    lines = board_text(start(), 1).split("\n")
    rank9 = next(line for line in lines if line.startswith("  9 "))
    rank5 = next(line for line in lines if line.startswith("  5 "))
    rank8 = next(line for line in lines if line.startswith("  8 "))
    rank3 = next(line for line in lines if line.startswith("  3 "))
    assert rank9.split() == ["9", ".", ".", ".", ".", "1A^", *["."] * 7, "9"]
    assert rank5.split()[1] == "at1<"  # Delta in lower case, facing W
    assert rank8.split()[2:5] == ["x", "o", "x"]  # minefield with its passage
    assert rank3.split()[3:5] == ["=", "="]
    assert "  Alpha 1A: at e9 facing N, 1 hit(s), damaged" in lines
    assert lines[0].startswith("Round 3 of")


def test_the_grammar_help_lists_the_seats_own_units_and_legal_moves():
    help_text = text_help(start(), 1)
    assert "1A: stay, F->e10" in help_text
    assert "AT1" not in help_text.split("Your units")[1]  # Delta's unit is not Alpha's to move
    assert "AT1: stay" in text_help(start(), 2)


def test_nothing_of_a_hidden_setup_is_drawn():
    state = GAME.start(2, GAME.default_options(), 5)
    for seat in (1, 2, None):
        text = board_text(state, seat)
        assert "Nothing is on the board yet" in text
        assert diagram(GAME.view(state, seat)).count(" . ") > 100
    assert "They may start on:" in text_help(state, 1)


def test_the_other_sides_tokens_are_not_named():
    for seed in range(50):
        opts = GAME.validate_options({"tokens": {"mode": "random-k", "k": 2}})
        state = GAME.start(2, opts, seed)
        only_delta = set(state["tokens"]["2"]) - set(state["tokens"]["1"])
        if only_delta:
            break
    state = {**state, "phase": "orders"}
    text = board_text(state, 1)
    assert "Your unused tokens" in text
    for token in only_delta:
        assert token.replace("_", " ") not in text


def test_the_game_delegates_to_the_text_module():
    state = start()
    assert GAME.board_text(state, 2) == board_text(state, 2)
    assert GAME.text_help(state, 2) == text_help(state, 2)
