"""The plain-text grammar for email: one action per line."""

from __future__ import annotations

import pytest

from engine.base import TextError


def test_every_action_reads_and_writes_back(h) -> None:
    """parse_text(format_text(x)) == x for every kind of input."""
    state = h.start(
        {1: "A1", 2: "C3", 3: "E5", 4: "G7"},
        walls={},
        mines=[],
        names={"1": "Corey", "2": "Bryan Friestad", "3": "B4"},
    )
    actions = [
        {"type": "move", "to": "B4"},
        {"type": "shoot", "at": "C5"},
        {"type": "give", "to": "C3", "gold": 3},
        {"type": "give", "seat": 2, "gold": 1},
        {"type": "give", "seat": 3, "gold": 1},  # named like a square: written "seat 3"
        {"type": "buy_ap"},
        {"type": "upgrade_range"},
        {"type": "open_ballot", "decree": "stimulus", "target": 1},
        {"type": "open_ballot", "decree": "bounty", "target": 2, "gold": 3},
        {"type": "open_ballot", "decree": "grant_life", "target": 4},
        {"type": "vote", "ballot": 7, "target": 1},
        {"type": "vote", "ballot": 7, "target": 2, "gold": 5},
    ]
    text = h.game.format_text(state, 1, {"actions": actions})
    assert "give 1 to Bryan Friestad" in text and "give 1 to seat 3" in text
    assert h.game.parse_text(state, 1, text) == {"actions": actions}


def test_grammar_examples_from_the_help(h) -> None:
    """move B4, give 3 to Corey, bounty 3 on Corey, grant life Corey, vote 7 Corey; names are
    case-insensitive, squares name the tank standing there."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[], names={"2": "Corey"})
    parsed = h.game.parse_text(
        state,
        1,
        "Move b4\n\n> quoted old mail\ngive 3 to corey\nbounty 3 on C3\n"
        "grant life seat 2\nvote 7 Corey\nshoot at c3\n-- \nsignature move A2\n",
    )
    assert parsed["actions"] == [
        {"type": "move", "to": "B4"},
        {"type": "give", "seat": 2, "gold": 3},
        {"type": "open_ballot", "decree": "bounty", "gold": 3, "target": 2},
        {"type": "open_ballot", "decree": "grant_life", "target": 2},
        {"type": "vote", "ballot": 7, "target": 2},
        {"type": "shoot", "at": "C3"},
    ]


def test_errors_name_the_line(h) -> None:
    """A line that cannot be read is reported with its number; all bad lines at once."""
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    with pytest.raises(TextError) as caught:
        h.game.parse_text(state, 1, "move B4\nfly to the moon\nshoot Z99\nstimulus Nobody\n")
    paths = [p.path for p in caught.value.problems]
    assert paths == ["line 2", "line 3", "line 4"]
    assert "Z99 is not a square" in caught.value.problems[1].message
    with pytest.raises(TextError):
        h.game.parse_text(state, 1, "\n\n")
    with pytest.raises(TextError):
        h.game.parse_text(state, 1, None)  # type: ignore[arg-type]


def test_board_text_and_help(h) -> None:
    """A monospace board for email: walls with durability, mines, tanks; and the grammar."""
    state = h.start({1: "A1", 2: "C3"}, walls={"B2": 4}, mines=["D4"])
    board = h.game.board_text(state, 1)
    row2 = next(line for line in board.splitlines() if line.startswith("   2"))
    assert "#4" in row2
    assert "$" in board and "*1" in board
    assert "vote 7 Corey" in h.game.text_help(state, 1)
