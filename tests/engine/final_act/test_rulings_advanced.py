"""Rulings: "Advanced rules" — wrecks, officer loss, double shot, repair."""

from __future__ import annotations

ALL = ["wrecks", "officer_loss", "double_shot", "repair"]


def test_wrecks_stay_and_block_movement_and_fire(fa):
    """1. Wrecks: an out tank stays on its square as a wreck (blocks movement and line of fire)."""
    units = [
        fa.unit(1, "C", "f4", "N"),
        fa.unit(1, "1", "f7", "N"),
        fa.unit(2, "2A", "f8", "S", hits=1),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, advanced=["wrecks"])
    after = fa.play(state, {"units": {"1": {"fire": ["f8"]}}})
    wreck = fa.seen(after, 2, "2A")
    assert (wreck["status"], wreck["at"]) == ("wreck", "f8")
    assert fa.problems(after, 1, {"units": {"1": {"move": "F"}}}) == [
        ("units.1.move", "Tank 1 cannot move F: there is a wreck on f8.")
    ]
    # Alpha 1 moves aside; the wreck still blocks C's fire beyond f8.
    after = fa.play(after, {"units": {"1": {"move": "FL"}}})
    assert "f8" in fa.fire_squares(after, 1, "C")
    assert "f9" not in fa.fire_squares(after, 1, "C")


def test_without_wrecks_out_tanks_leave_the_board(fa):
    """Without advanced rule 1 an out tank is removed and blocks nothing."""
    units = [
        fa.unit(1, "C", "f4", "N"),
        fa.unit(1, "1", "f7", "N"),
        fa.unit(2, "2A", "f8", "S", hits=1),
        fa.unit(2, "C", "l12"),
    ]
    after = fa.play(fa.start(units), {"units": {"1": {"fire": ["f8"]}}})
    assert fa.seen(after, 2, "2A")["at"] is None
    assert fa.at(fa.play(after, {"units": {"1": {"move": "F"}}}), 1, "1") == "f8"


def test_officer_loss_costs_one_shell_next_round(fa):
    """2. Officer loss: in the round after C, 1 or 2 goes out, that side may fire one shell fewer
    than its operational tanks, applied only while the side has at least 3 tanks left."""
    delta = [
        fa.unit(2, n, f"{f}9", "S", hits=int(n == "C"))
        for n, f in (("C", "c"), ("1A", "e"), ("1B", "g"), ("2A", "i"))
    ]
    state = fa.start(
        [fa.unit(1, "C", "c5", "N", hits=0), fa.unit(1, "2", "l1")] + delta,
        advanced=["officer_loss"],
    )
    after = fa.play(state, {"units": {"C": {"fire": ["c9"]}}})
    assert fa.seen(after, 2, "C")["status"] == "out"
    four = {"units": {n: {"fire": [t]} for n, t in (("1A", "e6"), ("1B", "g6"), ("2A", "i6"))}}
    problems = fa.problems(after, 2, four)
    assert [p for p, _ in problems] == ["units"]
    assert "at most 2 shells" in problems[0][1]
    assert fa.legal(after, 2)["shell_limit"] == 2
    two = {"units": {n: {"fire": [t]} for n, t in (("1A", "e6"), ("1B", "g6"))}}
    after = fa.play(after, None, two)
    # The round after that, all three fire again.
    assert fa.validate(after, 2, four)


def test_officer_loss_needs_three_tanks_left(fa):
    """Officer loss is not applied when the side has fewer than 3 tanks left."""
    units = [
        fa.unit(1, "C", "c5", "N"),
        fa.unit(2, "C", "c9", "S", hits=1),
        fa.unit(2, "1A", "e9", "S"),
        fa.unit(2, "1B", "g9", "S"),
    ]
    state = fa.start(units, advanced=["officer_loss"])
    after = fa.play(state, {"units": {"C": {"fire": ["c9"]}}})
    assert fa.validate(after, 2, {"units": {"1A": {"fire": ["e6"]}, "1B": {"fire": ["g6"]}}})


def test_officer_loss_off_by_default(fa):
    """Advanced rules are options, all off by default."""
    delta = [
        fa.unit(2, n, f"{f}9", "S", hits=int(n == "C"))
        for n, f in (("C", "c"), ("1A", "e"), ("1B", "g"), ("2A", "i"))
    ]
    state = fa.start([fa.unit(1, "C", "c5", "N"), fa.unit(1, "2", "l1")] + delta)
    after = fa.play(state, {"units": {"C": {"fire": ["c9"]}}})
    assert fa.validate(
        after,
        2,
        {"units": {n: {"fire": [t]} for n, t in (("1A", "e6"), ("1B", "g6"), ("2A", "i6"))}},
    )


def test_double_shot_after_a_tank_is_out_once_per_game(fa):
    """3. Double shot: once per game, after at least one own tank is out, one tank fires two
    shells this round."""
    units = [
        fa.unit(1, "C", "f4", "N"),
        fa.unit(1, "1", None, hits=2),
        fa.unit(2, "C", "f8", "S"),
        fa.unit(2, "1", "g8", "S"),
    ]
    state = fa.start(units, advanced=["double_shot"])
    sheet = {"units": {"C": {"fire": ["f8", "g8"]}}, "declare": {"double_shot": "C"}}
    after = fa.play(state, sheet)
    assert fa.seen(after, 2, "C")["hits"] == 1 and fa.seen(after, 2, "1")["hits"] == 1
    assert sorted(fa.paths(after, 1, sheet)) == ["declare.double_shot", "units.C.fire"]  # used
    assert fa.legal(after, 1)["declare"]["double_shot"] == []


def test_double_shot_needs_an_out_tank(fa):
    """Double shot is only allowed after one of the side's tanks is out."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(2, "C", "f8", "S"), fa.unit(2, "1", "g8", "S")]
    state = fa.start(units, advanced=["double_shot"])
    sheet = {"units": {"C": {"fire": ["f8", "g8"]}}, "declare": {"double_shot": "C"}}
    assert "declare.double_shot" in fa.paths(state, 1, sheet)
    assert fa.legal(state, 1)["declare"]["double_shot"] == []


def test_repair_behind_own_berm(fa, terrain):
    """4. Repair: a damaged tank in the own half directly behind an own berm may declare repair:
    it stays, does not fire, and its damage is removed at the end of the round if not hit."""
    units = [fa.unit(1, "1A", "d3", "N", hits=1), fa.unit(2, "C", "l12")]
    state = fa.start(units, [terrain.berm(1, "d4")], advanced=["repair"])
    assert fa.legal(state, 1)["declare"]["repair"] == ["1A"]
    assert "units.1A" in fa.paths(
        state, 1, {"units": {"1A": {"move": "F"}}, "declare": {"repair": "1A"}}
    )
    outcome = fa.resolve(state, {"declare": {"repair": "1A"}})
    assert fa.seen(outcome.state, 1, "1A")["hits"] == 0
    assert any(e["type"] == "repair" for e in outcome.events)
    shooter = [fa.unit(1, "1A", "d3", "N", hits=1), fa.unit(2, "C", "b3", "E")]
    state = fa.start(shooter, [terrain.berm(1, "d4")], advanced=["repair"])
    repaired = fa.play(state, {"declare": {"repair": "1A"}})
    damaged = fa.play(repaired, None, {"units": {"C": {"fire": ["d3"]}}})
    assert fa.seen(damaged, 1, "1A")["hits"] == 1
    assert fa.paths(damaged, 1, {"declare": {"repair": "1A"}}) == ["declare.repair"]  # once only


def test_repair_fails_when_hit(fa, terrain):
    """A tank hit during its repair round is not repaired (here: its second hit puts it out)."""
    units = [fa.unit(1, "1A", "d3", "N", hits=1), fa.unit(1, "C", "a1"), fa.unit(2, "C", "b3", "E")]
    state = fa.start(units, [terrain.berm(1, "d4")], advanced=["repair"])
    after = fa.play(state, {"declare": {"repair": "1A"}}, {"units": {"C": {"fire": ["d3"]}}})
    assert fa.seen(after, 1, "1A")["status"] == "out"


def test_repair_needs_the_berm_on_the_enemy_side_in_the_own_half(fa, terrain):
    """The berm must be the adjacent square on the enemy's side, same file; own half only."""
    units = [
        fa.unit(1, "1A", "d3", "N", hits=1),
        fa.unit(1, "1B", "g7", "N", hits=1),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, [terrain.berm(1, "d2"), terrain.berm(1, "g8")], advanced=["repair"])
    assert fa.paths(state, 1, {"declare": {"repair": "1A"}}) == ["declare.repair"]
    assert fa.paths(state, 1, {"declare": {"repair": "1B"}}) == ["declare.repair"]
    assert fa.legal(state, 1)["declare"]["repair"] == []


def test_every_advanced_rule_together(fa, terrain):
    """All advanced rules can be on at once."""
    opts = fa.game.validate_options({"advanced": ALL})
    assert opts["advanced"] == ALL
