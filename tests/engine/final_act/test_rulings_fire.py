"""Rulings: "Fire" — shells land after movement, hits, damage and outs."""

from __future__ import annotations


def test_fire_cone_and_line_of_fire_use_the_start_of_round_position(fa):
    """Shells are aimed from the position and facing at the start of the round."""
    state = fa.start([fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "l9", "S")])
    # C moves FL+turn (now facing W at d5) but still fires along its old cone: e10 is f = 6.
    sheet = {"units": {"C": {"move": "FL", "turn": True, "fire": ["e10"]}}}
    assert fa.validate(state, 1, sheet)["units"]["C"]["fire"] == ["e10"]
    # a8 is in the cone it will have after the turn, not in the one it has now.
    assert fa.paths(state, 1, {"units": {"C": {"move": "FL", "turn": True, "fire": ["a6"]}}}) == [
        "units.C.fire.0"
    ]


def test_units_moving_into_a_shelled_square_are_hit(fa):
    """After movement, every enemy unit standing on a shelled square takes one hit."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f9", "S")])
    outcome = fa.resolve(
        state, {"units": {"C": {"fire": ["f8"]}}}, {"units": {"2A": {"move": "F"}}}
    )
    assert fa.seen(outcome.state, 2, "2A") | {} == {
        "seat": 2,
        "name": "2A",
        "kind": "tank",
        "at": "f8",
        "facing": "S",
        "hits": 1,
        "status": "damaged",
    }
    texts = fa.texts(outcome)
    assert texts.index("Delta 2A moved f9 -> f8.") < texts.index("Alpha C fired at f8.")
    assert "Alpha C's shell hit Delta 2A at f8: damaged." in texts


def test_units_leaving_a_shelled_square_are_not_hit(fa):
    """Shells land on squares, not on units: a tank that moves away is safe."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f9", "S")])
    after = fa.play(state, {"units": {"C": {"fire": ["f9"]}}}, {"units": {"2A": {"move": "F"}}})
    assert fa.seen(after, 2, "2A")["hits"] == 0


def test_second_hit_puts_a_tank_out(fa):
    """Tanks: first hit = damaged, second hit = out (removed without the wrecks rule)."""
    state = fa.start(
        [fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f8", "S", hits=1), fa.unit(2, "C", "l12")]
    )
    outcome = fa.resolve(state, {"units": {"C": {"fire": ["f8"]}}})
    unit = fa.seen(outcome.state, 2, "2A")
    assert (unit["status"], unit["hits"], unit["at"]) == ("out", 2, None)
    assert "Alpha C's shell hit Delta 2A at f8: out." in fa.texts(outcome)


def test_two_shells_on_one_square_give_two_hits(fa):
    """Every enemy unit on a shelled square takes one hit per shell that landed there."""
    state = fa.start(
        [
            fa.unit(1, "C", "f4", "N"),
            fa.unit(1, "1", "g4", "N"),
            fa.unit(2, "2A", "f8", "S"),
            fa.unit(2, "C", "l12"),
        ]
    )
    after = fa.play(state, {"units": {"C": {"fire": ["f8"]}, "1": {"fire": ["f8"]}}})
    assert fa.seen(after, 2, "2A")["status"] == "out"


def test_each_tank_fires_at_most_one_shell(fa):
    """Each operational tank may fire one shell per round."""
    state = fa.start([fa.unit(1, "C", "f4", "N")])
    problems = fa.problems(state, 1, {"units": {"C": {"fire": ["f8", "f7"]}}})
    assert [p for p, _ in problems] == ["units.C.fire"]


def test_damaged_tanks_move_and_fire_normally(fa):
    """Damaged tanks move and fire normally."""
    state = fa.start([fa.unit(1, "C", "f4", "N", hits=1), fa.unit(2, "2A", "f8", "S")])
    after = fa.play(state, {"units": {"C": {"move": "F", "fire": ["f8"]}}})
    assert fa.at(after, 1, "C") == "f5"
    assert fa.seen(after, 2, "2A")["hits"] == 1


def test_a_tank_on_a_berm_can_be_hit(fa, terrain):
    """A tank on a berm can be hit."""
    state = fa.start(
        [fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f8", "S")], [terrain.berm(2, "f8")]
    )
    after = fa.play(state, {"units": {"C": {"fire": ["f8"]}}})
    assert fa.seen(after, 2, "2A")["hits"] == 1


def test_both_sides_fire_simultaneously(fa):
    """Sheets are resolved together: a tank put out this round still fires its shell."""
    state = fa.start(
        [
            fa.unit(1, "C", "f4", "N", hits=1),
            fa.unit(2, "C", "f8", "S", hits=1),
            fa.unit(1, "1", "a1"),
            fa.unit(2, "1", "a12"),
        ]
    )
    after = fa.play(state, {"units": {"C": {"fire": ["f8"]}}}, {"units": {"C": {"fire": ["f4"]}}})
    assert fa.seen(after, 1, "C")["status"] == "out"
    assert fa.seen(after, 2, "C")["status"] == "out"
