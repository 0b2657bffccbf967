"""Rulings: "Extra Forces" — AT units, the R unit, stacking, running over, repairs."""

from __future__ import annotations

EF = {"extra_forces": True}


def rank_run(rank: int, files: str) -> set[str]:
    return {f"{f}{rank}" for f in files}


def test_at_unit_moves_or_fires_never_both(fa):
    """AT units each round either move or fire, never both."""
    state = fa.start(
        [fa.unit(1, "AT1", "e4", "N"), fa.unit(1, "C", "a1"), fa.unit(2, "C", "l12")], **EF
    )
    problems = fa.problems(state, 1, {"units": {"AT1": {"move": "N", "fire": ["e7"]}}})
    assert problems == [("units.AT1", "AT unit AT1 may either move or fire in a round, not both.")]
    assert fa.validate(state, 1, {"units": {"AT1": {"fire": ["e7"], "face": "E"}}})


def test_at_unit_steps_to_any_neighbour_and_faces_any_direction(fa):
    """Move: to any of the 8 neighbouring squares or stay; facing may change to any of the 4
    directions in the same order, with or without a move."""
    state = fa.start(
        [fa.unit(1, "AT1", "e4", "N"), fa.unit(1, "C", "a1"), fa.unit(2, "C", "l12")], **EF
    )
    legal = fa.legal(state, 1)["units"]["AT1"]
    assert {m["to"] for m in legal["moves"]} == {
        "e4",
        "d3",
        "d4",
        "d5",
        "e3",
        "e5",
        "f3",
        "f4",
        "f5",
    }
    assert legal["faces"] == ["N", "E", "S", "W"]
    after = fa.play(state, {"units": {"AT1": {"move": "SW", "face": "S"}}})
    assert (fa.at(after, 1, "AT1"), fa.seen(after, 1, "AT1")["facing"]) == ("d3", "S")


def test_at_cone_is_four_ahead_and_does_not_grow_on_a_berm(fa, terrain):
    """AT cone: f >= 1 and |s| + |f - 2| <= 2 (4 ahead). On a berm an AT unit ignores
    line-of-fire blocking but does not gain range."""
    expected = rank_run(5, "def") | rank_run(6, "cdefg") | rank_run(7, "def") | {"e8"}
    flat = fa.start([fa.unit(1, "AT1", "e4", "N"), fa.unit(2, "C", "l12")], **EF)
    assert fa.fire_squares(flat, 1, "AT1") == expected
    blocked = fa.start(
        [fa.unit(1, "AT1", "e4", "N"), fa.unit(1, "C", "e5"), fa.unit(2, "C", "l12")], **EF
    )
    assert "e6" not in fa.fire_squares(blocked, 1, "AT1")
    on_berm = fa.start(
        [fa.unit(1, "AT1", "e4", "N"), fa.unit(1, "C", "e5"), fa.unit(2, "C", "l12")],
        [terrain.berm(1, "e4")],
        **EF,
    )
    assert fa.fire_squares(on_berm, 1, "AT1") == expected


def test_at_units_never_block_line_of_fire(fa):
    """AT units never block anyone's line of fire."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "AT1", "e5", "S"), fa.unit(2, "C", "l12")], **EF
    )
    assert {"e6", "e10"} <= fa.fire_squares(state, 1, "C")


def test_one_hit_puts_an_at_unit_out(fa):
    """One hit puts an AT unit out."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "AT1", "e7", "S"), fa.unit(2, "C", "l12")], **EF
    )
    after = fa.play(state, {"units": {"C": {"fire": ["e7"]}}})
    assert fa.seen(after, 2, "AT1")["status"] == "out"


def test_stacking_tank_and_at_or_two_ats_but_never_tank_and_two_ats(fa):
    """Stacking: one own tank + one own AT, or two own ATs, or the R unit + one own AT may share a
    square; never two tanks, never a tank + two ATs."""
    units = [
        fa.unit(1, "C", "e4", "N"),
        fa.unit(1, "AT1", "e3", "N"),
        fa.unit(1, "AT2", "d4", "N"),
        fa.unit(1, "R", "f3", "N"),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, **EF)
    after = fa.play(state, {"units": {"AT1": {"move": "N"}, "AT2": {"move": "E"}}})
    assert (fa.at(after, 1, "AT1"), fa.at(after, 1, "AT2")) == (
        "e3",
        "d4",
    )  # tank + 2 ATs: none moves
    after = fa.play(state, {"units": {"AT1": {"move": "N"}}})
    assert fa.at(after, 1, "AT1") == "e4"  # tank + AT
    after = fa.play(state, {"units": {"AT1": {"move": "E"}}})
    assert fa.at(after, 1, "AT1") == "f3"  # R + AT
    after = fa.play(state, {"units": {"AT1": {"move": "NW"}, "AT2": {"move": "S"}}})
    assert (fa.at(after, 1, "AT1"), fa.at(after, 1, "AT2")) == ("d4", "d3")  # AT1 follows AT2
    two_ats = fa.play(state, {"units": {"AT1": {"move": "W"}, "AT2": {"move": "S"}}})
    assert (fa.at(two_ats, 1, "AT1"), fa.at(two_ats, 1, "AT2")) == ("d3", "d3")  # two ATs


def test_r_unit_shares_with_an_undamaged_tank_never(fa):
    """The R unit shares a square with a tank only while repairing it."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(1, "R", "e3", "N"), fa.unit(2, "C", "l12")]
    after = fa.play(fa.start(units, **EF), {"units": {"R": {"move": "F"}}})
    assert fa.at(after, 1, "R") == "e3"


def test_hits_on_a_shared_square(fa):
    """Tank + AT: the tank takes the hit; if it is the tank's second hit both are out.
    Two ATs: one is out (the lower-numbered one)."""
    units = [
        fa.unit(1, "C", "e4", "N"),
        fa.unit(1, "1", "c4", "N"),
        fa.unit(2, "C", "e7", "S"),
        fa.unit(2, "AT1", "e7", "S"),
    ]
    units += [fa.unit(2, "AT2", "c7", "S"), fa.unit(2, "1", "l12")]
    state = fa.start(units, **EF)
    after = fa.play(state, {"units": {"C": {"fire": ["e7"]}}})
    assert fa.seen(after, 2, "C")["hits"] == 1 and fa.seen(after, 2, "AT1")["status"] == "ok"
    after = fa.play(after, {"units": {"C": {"fire": ["e7"]}}})
    assert fa.seen(after, 2, "C")["status"] == "out" and fa.seen(after, 2, "AT1")["status"] == "out"
    two = fa.start(
        [
            fa.unit(1, "C", "e4", "N"),
            fa.unit(2, "AT1", "e7", "S"),
            fa.unit(2, "AT2", "e7", "S"),
            fa.unit(2, "C", "l12"),
        ],
        **EF,
    )
    after = fa.play(two, {"units": {"C": {"fire": ["e7"]}}})
    assert (fa.seen(after, 2, "AT1")["status"], fa.seen(after, 2, "AT2")["status"]) == ("out", "ok")


def test_enemy_tank_runs_over_an_at_unit(fa):
    """Enemy tank and AT on the same square after movement (either moved in): the AT is out, the
    tank is unharmed. This is an exception to "none of them moves"."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(2, "AT1", "e5", "S"), fa.unit(2, "C", "l12")]
    outcome = fa.resolve(fa.start(units, **EF), {"units": {"C": {"move": "F"}}})
    assert fa.at(outcome.state, 1, "C") == "e5" and fa.seen(outcome.state, 1, "C")["hits"] == 0
    assert fa.seen(outcome.state, 2, "AT1")["status"] == "out"
    assert "Delta AT1 was run over by Alpha C at e5: out." in fa.texts(outcome)
    # Both heading for the same empty square.
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(2, "AT1", "e6", "S"), fa.unit(2, "C", "l12")]
    after = fa.play(
        fa.start(units, **EF), {"units": {"C": {"move": "F"}}}, {"units": {"AT1": {"move": "S"}}}
    )
    assert fa.at(after, 1, "C") == "e5" and fa.seen(after, 2, "AT1")["status"] == "out"
    # The AT walking onto a tank that stays.
    units = [fa.unit(1, "C", "e5", "N"), fa.unit(2, "AT1", "e6", "S"), fa.unit(2, "C", "l12")]
    after = fa.play(fa.start(units, **EF), None, {"units": {"AT1": {"move": "S"}}})
    assert fa.seen(after, 2, "AT1")["status"] == "out" and fa.at(after, 1, "C") == "e5"


def test_r_unit_moves_like_a_tank_never_fires_and_blocks(fa):
    """R unit: moves like a tank (no sideways moves), never fires, blocks line of fire, one hit
    puts it out."""
    units = [
        fa.unit(1, "R", "e4", "N"),
        fa.unit(1, "C", "e3", "N"),
        fa.unit(2, "C", "e8", "S"),
        fa.unit(2, "1", "l12"),
    ]
    state = fa.start(units, **EF)
    legal = fa.legal(state, 1)["units"]["R"]
    assert legal["shells"] == 0 and legal["fire"] == []
    assert {m["to"] for m in legal["moves"]} == {"e4", "e5", "d5", "f5", "e3", "d3", "f3"}
    assert fa.paths(state, 1, {"units": {"R": {"move": "F", "fire": ["e6"]}}}) == ["units.R.fire"]
    assert fa.paths(state, 1, {"units": {"R": {"move": "FL", "turn": True}}}) == ["units.R.turn"]
    assert "e5" not in fa.fire_squares(state, 1, "C")
    after = fa.play(state, None, {"units": {"C": {"fire": ["e4"]}}})
    assert fa.seen(after, 1, "R")["status"] == "out"


def test_r_unit_repairs_a_damaged_tank_over_one_round(fa):
    """Repair by R: at the end of a round R and a damaged own tank share a square -> the next
    round both must stay and the tank does not fire; at the end of that round it is undamaged."""
    units = [
        fa.unit(1, "1A", "e4", "N", hits=1),
        fa.unit(1, "R", "e3", "N"),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, **EF)
    outcome = fa.resolve(state, {"units": {"R": {"move": "F"}}})
    after = outcome.state
    assert fa.at(after, 1, "R") == "e4"
    assert fa.seen(after, 1, "1A")["status"] == "repairing"
    assert fa.seen(after, 1, "R")["status"] == "repairing"
    assert fa.paths(after, 1, {"units": {"1A": {"move": "F"}}}) == ["units.1A"]
    assert fa.paths(after, 1, {"units": {"R": {"move": "F"}}}) == ["units.R.move"]
    assert fa.paths(after, 1, {"units": {"1A": {"fire": ["e7"]}}}) == ["units.1A"]
    assert fa.legal(after, 1)["units"]["1A"]["shells"] == 0
    after = fa.play(after)
    unit = fa.seen(after, 1, "1A")
    assert (unit["hits"], unit["status"]) == (0, "ok")
    assert fa.validate(after, 1, {"units": {"1A": {"move": "F"}}})


def test_hit_during_r_repair_puts_both_out(fa):
    """If the square is hit during the repair round, both are out."""
    units = [
        fa.unit(1, "1A", "e4", "N", hits=1),
        fa.unit(1, "R", "e3", "N"),
        fa.unit(1, "C", "a1"),
        fa.unit(2, "C", "e8", "S"),
    ]
    state = fa.start(units, **EF)
    after = fa.play(state, {"units": {"R": {"move": "F"}}})
    after = fa.play(after, None, {"units": {"C": {"fire": ["e4"]}}})
    assert fa.seen(after, 1, "1A")["status"] == "out" and fa.seen(after, 1, "R")["status"] == "out"


def test_at_most_two_r_repairs_per_game(fa):
    """At most 2 repairs per game."""
    units = [
        fa.unit(1, "1A", "e4", "N", hits=1),
        fa.unit(1, "1B", "g4", "N", hits=1),
        fa.unit(1, "2A", "i4", "N", hits=1),
        fa.unit(1, "R", "e3", "N"),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, **EF)
    state = fa.play(state, {"units": {"R": {"move": "F"}}})  # starts repair 1 (1A)
    state = fa.play(state)  # 1A repaired
    state = fa.play(state, {"units": {"R": {"move": "B"}}})
    state = fa.play(state, {"units": {"R": {"move": "FR"}}})  # f4
    state = fa.play(state, {"units": {"R": {"move": "BR"}}})  # g3
    state = fa.play(state, {"units": {"R": {"move": "F"}}})  # g4: repair 2 (1B) starts
    assert fa.seen(state, 1, "1B")["status"] == "repairing"
    state = fa.play(state)
    assert fa.seen(state, 1, "1B")["hits"] == 0
    state = fa.play(state, {"units": {"R": {"move": "B"}}})
    state = fa.play(state, {"units": {"R": {"move": "FR"}}})  # h4
    state = fa.play(state, {"units": {"R": {"move": "BR"}}})  # i3
    state = fa.play(
        state, {"units": {"R": {"move": "F"}}}
    )  # i4 with 2A: a third repair is not allowed
    assert fa.at(state, 1, "R") == "i4"
    assert fa.seen(state, 1, "2A")["status"] == "damaged"
    assert fa.game.view(state, 1)["used"]["1"]["r_repairs"] == 2


def test_at_unit_turns_even_when_its_step_is_blocked(fa):
    """AT facing may change with or without a move: a blocked AT still takes its new facing."""
    units = [
        fa.unit(1, "AT1", "e4", "N"),
        fa.unit(1, "1", "d5", "N"),
        fa.unit(1, "AT2", "d5", "N"),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, extra_forces=True)
    # d5 already holds a tank and an AT: a third unit may not join them.
    after = fa.play(state, {"units": {"AT1": {"move": "NW", "face": "W"}}})
    assert fa.at(after, 1, "AT1") == "e4"
    assert fa.seen(after, 1, "AT1")["facing"] == "W"
