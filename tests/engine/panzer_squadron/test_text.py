"""The plain-text grammar: every kind of submission reads back to itself."""

from __future__ import annotations

import random

import pytest

from engine.base import TextError

from .conftest import GAME, play, start, tank


def test_activation_path_and_reactions_read_as_written():
    s = start([tank("M1", "c2", 12, card="light", state="moving"),
               tank("H1", "c9", 6, seat=2, card="heavy")], dice=[4, 4])
    assert GAME.parse_text(s, 1, "activate m1 move-fire") == {"activate": "M1",
                                                              "action": "move-fire"}
    assert GAME.parse_text(s, 1, "Activate M1 fire c9") == {"activate": "M1", "action": "fire",
                                                            "target": "c9"}
    assert GAME.parse_text(s, 2, "reaction H1 side-rear max 6\nreaction H1 hold") == {
        "reactions": {"H1": {"mode": "hold", "max_range": None}}}
    s = play(s, 1, {"activate": "M1", "action": "move-fire"}).state
    sub = GAME.parse_text(s, 1, "path c3 12, turn 2, d4 2; fire c9\n")
    assert sub == {"path": [{"move": "c3", "face": 12}, {"turn": 2}, {"move": "d4", "face": 2}],
                   "target": "c9", "end": "stopped"}
    assert GAME.parse_text(s, 1, "path none") == {"path": [], "target": None, "end": "stopped"}
    assert GAME.parse_text(s, 1, "path reverse c1 12; end moving")["path"] == [
        {"reverse": "c1", "face": 12}]


@pytest.mark.parametrize("bad", ["", "hello", "activate M1", "path c3", "reaction H1",
                                 "activate M1 move\nreaction M1 hold"])
def test_unreadable_text_names_the_clause(bad):
    s = start([tank("M1", "c2", 12), tank("H1", "c9", 6, seat=2)])
    with pytest.raises(TextError):
        GAME.parse_text(s, 1, bad)


@pytest.mark.parametrize("seed", range(5))
def test_every_legal_action_round_trips_through_text(seed):
    s = GAME.start(2, GAME.default_options(), seed)
    rng = random.Random(seed)
    for _ in range(60):
        if GAME.result(s) is not None:
            break
        seat = s["to_move"]
        for action in GAME.legal_actions(s, seat)[:40]:
            checked = GAME.validate(s, seat, action)
            assert GAME.validate(s, seat, GAME.parse_text(
                s, seat, GAME.format_text(s, seat, checked))) == checked
        s = GAME.apply(s, seat, GAME.bot_submission(s, seat, "random", rng), None, rng).state
    reactions = {"reactions": {"L3": {"mode": "side-rear", "max_range": 6}}}
    assert GAME.parse_text(s, 2, GAME.format_text(s, 2, reactions)) == reactions


def test_board_text_shows_offset_rows_and_the_roll():
    s = start([tank("M1", "c2", 12), tank("H1", "c9", 6, seat=2)], dice=[3], woods=("e5",))
    s = play(s, 1, {"activate": "M1", "action": "move"}).state
    text = GAME.board_text(s, 1)
    lines = text.splitlines()
    row2 = next(line for line in lines if line.startswith(" 2"))
    row1 = next(line for line in lines if line.startswith(" 1"))
    assert row2.index(".") > row1.index(".")  # even rows sit half a hex east
    assert "M1" in row2 and "##" in text and "rolled 3 = 2 points" in text
