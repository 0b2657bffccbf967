"""Rulings: "Moves" and "Simultaneous movement resolution"."""

from __future__ import annotations


def test_moves_are_relative_to_the_facing(fa):
    """A move is stay, F, FL, FR, B, BL or BR relative to the facing; no sideways moves."""
    state = fa.start([fa.unit(1, "C", "e4", "E")])
    moves = {(m["move"], m["turn"]): m["to"] for m in fa.legal(state, 1)["units"]["C"]["moves"]}
    assert moves[("F", False)] == "f4"
    assert moves[("FL", False)] == "f5"
    assert moves[("FR", False)] == "f3"
    assert moves[("B", False)] == "d4"
    assert moves[("BL", False)] == "d5"
    assert moves[("BR", False)] == "d3"
    assert ("stay", False) in moves
    assert "e5" not in moves.values() and "e3" not in moves.values()
    assert fa.paths(state, 1, {"units": {"C": {"move": "L"}}}) == ["units.C.move"]


def test_turn_swings_the_hull_with_the_diagonal_move(fa):
    """FL + turn -> face left, FR + turn -> right, BL + turn -> right, BR + turn -> left."""
    expected = {"FL": ("d5", "W"), "FR": ("f5", "E"), "BL": ("d3", "E"), "BR": ("f3", "W")}
    for move, (to, facing) in expected.items():
        state = fa.start([fa.unit(1, "C", "e4", "N")])
        after = fa.play(state, {"units": {"C": {"move": move, "turn": True}}})
        assert (fa.at(after, 1, "C"), fa.seen(after, 1, "C")["facing"]) == (to, facing), move


def test_turn_with_straight_move_is_ignored_with_a_warning(fa):
    """A turn ordered with stay, F or B is ignored (the move happens, the turn does not) and the
    sheet gets a warning, never a silent change."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "c4", "N")])
    sheet = fa.validate(
        state, 1, {"units": {"C": {"move": "F", "turn": True}, "1": {"move": "stay", "turn": True}}}
    )
    warnings = fa.game.warnings(state, 1, sheet)
    assert sorted(w.path for w in warnings) == ["units.1.turn", "units.C.turn"]
    assert all("ignored" in w.message for w in warnings)
    after = fa.play(state, sheet)
    assert fa.at(after, 1, "C") == "e5"
    assert fa.seen(after, 1, "C")["facing"] == "N"
    assert (
        fa.game.warnings(
            state, 1, fa.validate(state, 1, {"units": {"C": {"move": "FL", "turn": True}}})
        )
        == []
    )


def test_moving_off_the_board_is_rejected(fa):
    """A move that leaves the board is illegal and rejected when the sheet is submitted."""
    state = fa.start([fa.unit(1, "C", "a4", "N")])
    assert fa.problems(state, 1, {"units": {"C": {"move": "FL"}}}) == [
        ("units.C.move", "Tank C cannot move FL: it would leave the board.")
    ]


def test_entering_a_swamp_is_rejected(fa, terrain):
    """A move that enters a swamp is illegal; the message names the unit, move and square."""
    state = fa.start([fa.unit(1, "1A", "f6", "N")], [terrain.swamp(2, "g7", "h7", "g8", "h8")])
    assert fa.problems(state, 1, {"units": {"1A": {"move": "FR"}}}) == [
        ("units.1A.move", "Tank 1A cannot move FR: g7 is a swamp.")
    ]


def test_minefield_only_through_the_passage_in_the_arrow_direction(fa, terrain):
    """Entering/leaving a minefield other than through its passage in the arrow's direction is
    illegal; the step into and the step out of the passage must both be the arrow direction."""
    field = terrain.minefield(2, ["b8", "c8", "d8"], "c8", "S")
    state = fa.start(
        [
            fa.unit(2, "C", "c9", "S"),
            fa.unit(2, "1", "d9", "S"),
            fa.unit(1, "C", "c7", "N"),
            fa.unit(2, "2", "b9", "E"),
        ],
        [field],
    )
    assert fa.validate(state, 2, {"units": {"C": {"move": "F"}}})  # c9 -> c8 heading S
    assert fa.paths(state, 2, {"units": {"1": {"move": "F"}}}) == [
        "units.1.move"
    ]  # d8 is not the passage
    assert fa.paths(state, 2, {"units": {"1": {"move": "FR"}}}) == [
        "units.1.move"
    ]  # diagonal into c8
    assert fa.paths(state, 1, {"units": {"C": {"move": "F"}}}) == [
        "units.C.move"
    ]  # against the arrow
    assert fa.paths(state, 2, {"units": {"2": {"move": "FR"}}}) == [
        "units.2.move"
    ]  # b9 E-facing FR -> c8
    after = fa.play(state, None, {"units": {"C": {"move": "F"}}})
    assert fa.at(after, 2, "C") == "c8"
    # Out of the passage: only heading S again (to c7 is held by Alpha C, so move Alpha away first).
    assert fa.paths(after, 2, {"units": {"C": {"move": "FL"}}}) == ["units.C.move"]
    assert fa.paths(after, 2, {"units": {"C": {"move": "B"}}}) == ["units.C.move"]
    moved = fa.play(after, {"units": {"C": {"move": "B"}}}, {"units": {"C": {"move": "F"}}})
    assert fa.at(moved, 2, "C") == "c7"


def test_berms_can_be_entered_and_left_freely(fa, terrain):
    """Berms can be entered and left freely."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "l12")], [terrain.berm(2, "e5", "f5")]
    )
    after = fa.play(state, {"units": {"C": {"move": "F"}}})
    assert fa.at(after, 1, "C") == "e5"
    after = fa.play(after, {"units": {"C": {"move": "FR"}}})
    assert fa.at(after, 1, "C") == "f6"


def test_two_units_intending_the_same_square_both_stay(fa):
    """If two or more units (either side) intend the same square, none of them moves."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "e6", "S"), fa.unit(1, "1", "d4", "N")]
    )
    outcome = fa.resolve(
        state, {"units": {"C": {"move": "F"}, "1": {"move": "FR"}}}, {"units": {"C": {"move": "F"}}}
    )
    after = outcome.state
    assert (fa.at(after, 1, "C"), fa.at(after, 2, "C"), fa.at(after, 1, "1")) == ("e4", "e6", "d4")
    bounces = [e for e in outcome.events if e["type"] == "bounce"]
    assert {(e["seat"], e["unit"], e["to"]) for e in bounces} == {
        (1, "C", "e5"),
        (2, "C", "e5"),
        (1, "1", "e5"),
    }
    assert all(e["text"].endswith(".") and "e5" in e["text"] for e in bounces)


def test_moving_into_a_square_whose_unit_stays_bounces(fa):
    """A unit whose destination holds a unit that ends the round there does not move."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "e5", "S")])
    after = fa.play(state, {"units": {"C": {"move": "F"}}})
    assert fa.at(after, 1, "C") == "e4"


def test_following_a_unit_that_moves_away_succeeds(fa):
    """A unit may enter a square its occupant leaves this round."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "e5", "N")])
    after = fa.play(state, {"units": {"C": {"move": "F"}, "1": {"move": "F"}}})
    assert (fa.at(after, 1, "C"), fa.at(after, 1, "1")) == ("e5", "e6")


def test_bounces_cascade(fa):
    """Repeat until nothing changes: a bounce can cause further bounces."""
    state = fa.start(
        [
            fa.unit(1, "C", "e4", "N"),
            fa.unit(1, "1", "e5", "N"),
            fa.unit(2, "C", "e7", "S"),
            fa.unit(1, "2", "e3", "N"),
        ]
    )
    # 1 and Delta C both intend e6 -> both stay; so C (into e5) stays; so 2 (into e4) stays.
    after = fa.play(
        state,
        {"units": {"C": {"move": "F"}, "1": {"move": "F"}, "2": {"move": "F"}}},
        {"units": {"C": {"move": "F"}}},
    )
    assert [fa.at(after, 1, n) for n in ("2", "C", "1")] == ["e3", "e4", "e5"]
    assert fa.at(after, 2, "C") == "e7"


def test_two_units_trading_squares_neither_moves(fa):
    """Two units trading squares: neither moves."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "e5", "S")])
    after = fa.play(state, {"units": {"C": {"move": "F"}}}, {"units": {"C": {"move": "F"}}})
    assert (fa.at(after, 1, "C"), fa.at(after, 2, "C")) == ("e4", "e5")


def test_three_cycle_none_moves(fa):
    """Any longer cycle of units moving into each other's squares: none of them moves."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "e5", "E"), fa.unit(1, "2", "f5", "S")]
    state = fa.start(units)
    # C e4 -> e5, 1 e5 -> f5 (F facing E), 2 f5 -> e4 (FR facing S).
    after = fa.play(state, {"units": {"C": {"move": "F"}, "1": {"move": "F"}, "2": {"move": "FR"}}})
    assert [fa.at(after, 1, n) for n in ("C", "1", "2")] == ["e4", "e5", "f5"]
    # Without the closing move it is a chain and everybody moves.
    chain = fa.play(state, {"units": {"C": {"move": "F"}, "1": {"move": "F"}, "2": {"move": "F"}}})
    assert [fa.at(chain, 1, n) for n in ("C", "1", "2")] == ["e5", "f5", "f4"]


def test_a_bounced_tank_does_not_turn(fa):
    """The turn is part of the diagonal move: a tank that does not move keeps its facing."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "d5", "S")])
    after = fa.play(state, {"units": {"C": {"move": "FL", "turn": True}}})
    assert (fa.at(after, 1, "C"), fa.seen(after, 1, "C")["facing"]) == ("e4", "N")


def test_move_events_are_readable(fa):
    """The round report has a sentence for every move."""
    state = fa.start([fa.unit(2, "2A", "f9", "S")])
    outcome = fa.resolve(state, None, {"units": {"2A": {"move": "F"}}})
    assert "Delta 2A moved f9 -> f8." in fa.texts(outcome)
