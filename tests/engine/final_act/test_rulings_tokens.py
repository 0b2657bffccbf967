"""Rulings: "Action tokens" — the seven tokens and the three distribution modes."""

from __future__ import annotations

import random

ALL_TOKENS = [
    "air_strike",
    "full_throttle",
    "quick_shot",
    "mine_clearing",
    "smoke",
    "quick_sand",
    "red_cross",
]


def test_air_strike_two_shells_in_the_file_paid_by_out_tank_and_idle_tank(fa):
    """Air strike: choose a square of the own last line; up to 2 extra shells anywhere in that
    file except that square. Each extra shell is paid by an out tank's shell or by an
    operational tank that then fires nothing this round."""
    units = [
        fa.unit(1, "C", "h4", "N"),
        fa.unit(1, "1B", "d2", "N"),
        fa.unit(1, "1", None, hits=2),
        fa.unit(2, "2A", "c9", "S"),
        fa.unit(2, "2B", "c10", "S"),
    ]
    state = fa.start(units, tokens={"1": ["air_strike"], "2": []})
    strike = {"at": "c1", "fire": ["c9", "c10"], "paid_by": ["1B"]}
    outcome = fa.resolve(state, {"tokens": {"air_strike": strike}})
    assert (
        fa.seen(outcome.state, 2, "2A")["hits"] == 1
        and fa.seen(outcome.state, 2, "2B")["hits"] == 1
    )
    assert any(e["type"] == "shell" and e.get("air_strike") for e in outcome.events)
    assert fa.game.view(outcome.state, 1)["tokens"]["1"] == []  # used once per game
    assert fa.paths(outcome.state, 1, {"tokens": {"air_strike": strike}}) == ["tokens.air_strike"]


def test_air_strike_restrictions(fa):
    """The airfield square and other files are excluded; a paying tank fires nothing; without
    out tanks every air strike shell must be paid by a tank."""
    units = [fa.unit(1, "C", "h4", "N"), fa.unit(1, "1B", "d2", "N"), fa.unit(2, "2A", "c9", "S")]
    state = fa.start(units, tokens={"1": ["air_strike"], "2": []})
    assert fa.paths(
        state, 1, {"tokens": {"air_strike": {"at": "c1", "fire": ["c1"], "paid_by": ["1B"]}}}
    ) == ["tokens.air_strike.fire.0"]
    assert fa.paths(
        state, 1, {"tokens": {"air_strike": {"at": "c1", "fire": ["d9"], "paid_by": ["1B"]}}}
    ) == ["tokens.air_strike.fire.0"]
    assert fa.paths(
        state, 1, {"tokens": {"air_strike": {"at": "c2", "fire": ["c9"], "paid_by": ["1B"]}}}
    ) == ["tokens.air_strike.at"]
    assert fa.paths(state, 1, {"tokens": {"air_strike": {"at": "c1", "fire": ["c9"]}}}) == [
        "tokens.air_strike.paid_by"
    ]
    paid_and_fires = {
        "units": {"1B": {"fire": ["d5"]}},
        "tokens": {"air_strike": {"at": "c1", "fire": ["c9"], "paid_by": ["1B"]}},
    }
    assert fa.paths(state, 1, paid_and_fires) == ["units.1B.fire"]
    assert fa.validate(
        state, 1, {"tokens": {"air_strike": {"at": "c1", "fire": ["c9"], "paid_by": ["1B"]}}}
    )


def test_full_throttle_moves_two_squares(fa):
    """Full throttle: one tank moves 2 squares in its ordered direction (no turn)."""
    state = fa.start(
        [fa.unit(1, "1A", "e4", "N"), fa.unit(2, "C", "l12")],
        tokens={"1": ["full_throttle"], "2": []},
    )
    sheet = {"units": {"1A": {"move": "FR"}}, "tokens": {"full_throttle": {"unit": "1A"}}}
    outcome = fa.resolve(state, sheet)
    assert fa.at(outcome.state, 1, "1A") == "g6"
    assert "Alpha 1A moved at full throttle e4 -> g6." in fa.texts(outcome)
    with_turn = {
        "units": {"1A": {"move": "FR", "turn": True}},
        "tokens": {"full_throttle": {"unit": "1A"}},
    }
    assert fa.paths(state, 1, with_turn) == ["units.1A.turn"]
    moves = fa.legal(state, 1)["tokens"]["full_throttle"]["moves"]["1A"]
    assert {"move": "F", "to": "e6"} in moves


def test_full_throttle_blocked_intermediate_square(fa, terrain):
    """The intermediate square must be passable and not end the round occupied; otherwise the
    tank does not move."""
    state = fa.start(
        [fa.unit(1, "1A", "e4", "N"), fa.unit(2, "C", "d6", "S")],
        tokens={"1": ["full_throttle"], "2": []},
    )
    sheet = {"units": {"1A": {"move": "F"}}, "tokens": {"full_throttle": {"unit": "1A"}}}
    # Delta C moves into e5 (FL for a S-facing tank is towards E): 1A cannot pass it.
    after = fa.play(state, sheet, {"units": {"C": {"move": "FL"}}})
    assert (fa.at(after, 1, "1A"), fa.at(after, 2, "C")) == ("e4", "e5")
    # The same with Delta C staying away: 1A arrives on e6.
    assert fa.at(fa.play(state, sheet), 1, "1A") == "e6"
    swamp = fa.start(
        [fa.unit(1, "1A", "e4", "N"), fa.unit(2, "C", "l12")],
        [terrain.swamp(1, "e5", "f5", "e6", "f6")],
        tokens={"1": ["full_throttle"], "2": []},
    )
    assert fa.paths(swamp, 1, sheet) == ["units.1A.move"]


def test_quick_shot_two_shells_after_an_own_tank_is_out(fa):
    """Quick shot: one tank fires 2 shells within its cone; needs at least one own tank out."""
    units = [
        fa.unit(1, "C", "f4", "N"),
        fa.unit(1, "1", None, hits=2),
        fa.unit(2, "C", "e7", "S"),
        fa.unit(2, "1", "f7", "S"),
    ]
    state = fa.start(units, tokens={"1": ["quick_shot"], "2": []})
    sheet = fa.validate(
        state,
        1,
        {"units": {"C": {"fire": ["e7"]}}, "tokens": {"quick_shot": {"unit": "C", "fire": ["f7"]}}},
    )
    assert sheet["tokens"]["quick_shot"] == {"unit": "C", "fire": ["e7", "f7"]}
    assert sheet["units"]["C"]["fire"] == []
    after = fa.play(state, sheet)
    assert fa.seen(after, 2, "C")["hits"] == 1 and fa.seen(after, 2, "1")["hits"] == 1
    nobody_out = fa.start(
        [u for u in units if u["name"] != "1" or u["seat"] == 2],
        tokens={"1": ["quick_shot"], "2": []},
    )
    assert fa.paths(
        nobody_out, 1, {"tokens": {"quick_shot": {"unit": "C", "fire": ["e7", "f7"]}}}
    ) == ["tokens.quick_shot"]


def test_mine_clearing_lets_the_placing_side_cross_for_two_rounds(fa, terrain):
    """Mine clearing: place on a minefield square; for this round and the next, the placing side
    may cross that square in any direction."""
    field = terrain.minefield(2, ["b8", "c8", "d8"], "c8", "S")
    units = [
        fa.unit(1, "C", "c7", "N"),
        fa.unit(1, "1", "e7", "N"),
        fa.unit(2, "C", "l12"),
        fa.unit(2, "1", "d9", "S"),
    ]
    state = fa.start(units, [field], tokens={"1": ["mine_clearing"], "2": []})
    assert fa.paths(state, 1, {"units": {"C": {"move": "FR"}}}) == ["units.C.move"]
    after = fa.play(
        state, {"units": {"C": {"move": "FR"}}, "tokens": {"mine_clearing": {"at": "d8"}}}
    )
    assert fa.at(after, 1, "C") == "d8"
    # Only the placing side: Delta still may not step into d8 (it is not the passage).
    assert fa.paths(after, 2, {"units": {"1": {"move": "F"}}}) == ["units.1.move"]
    view = fa.game.view(after, 2)
    assert {"token": "mine_clearing", "seat": 1, "at": "d8", "round": 1} in view["board_tokens"]
    # Round 2: still cleared (leave it northwards, not the arrow direction).
    after = fa.play(after, {"units": {"C": {"move": "B"}}})
    assert fa.at(after, 1, "C") == "d7"
    # Round 3: expired.
    assert all(t["token"] != "mine_clearing" for t in fa.game.view(after, 1)["board_tokens"])
    assert fa.paths(after, 1, {"units": {"C": {"move": "F"}}}) == ["units.C.move"]


def test_mine_clearing_on_enemy_minefield_needs_a_tank_in_the_enemy_half(fa, terrain):
    """On the enemy minefield only while an own tank stands in the enemy half."""
    field = terrain.minefield(2, ["b8", "c8", "d8"], "c8", "S")
    state = fa.start(
        [fa.unit(1, "C", "c6", "N"), fa.unit(2, "C", "l12")],
        [field],
        tokens={"1": ["mine_clearing"], "2": []},
    )
    assert fa.paths(state, 1, {"tokens": {"mine_clearing": {"at": "d8"}}}) == [
        "tokens.mine_clearing.at"
    ]
    assert fa.legal(state, 1)["tokens"]["mine_clearing"]["at"] == []
    own = fa.start(
        [fa.unit(1, "C", "c6", "N"), fa.unit(2, "C", "l12")],
        [terrain.minefield(1, ["b5", "c5", "d5"], "c5", "N")],
        tokens={"1": ["mine_clearing"], "2": []},
    )
    assert fa.validate(own, 1, {"tokens": {"mine_clearing": {"at": "d5"}}})
    assert fa.paths(own, 1, {"tokens": {"mine_clearing": {"at": "e5"}}}) == [
        "tokens.mine_clearing.at"
    ]


def test_smoke_blocks_line_of_fire_this_round(fa, terrain):
    """Smoke: place on a vacant square adjacent to an own unit; for this round it blocks line of
    fire, elevated fire from a berm included."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "e9", "S")]
    for ground in ([], [terrain.berm(2, "e9")]):
        state = fa.start(units, ground, tokens={"1": ["smoke"], "2": []})
        outcome = fa.resolve(
            state, {"tokens": {"smoke": {"at": "e5"}}}, {"units": {"C": {"fire": ["e4"]}}}
        )
        assert fa.seen(outcome.state, 1, "C")["hits"] == 0
        assert any(e["type"] == "shell" and e.get("blocked") for e in outcome.events)
        assert fa.game.view(outcome.state, 1)["board_tokens"] == []  # gone after the round
        # Without smoke the same shell hits.
        plain = fa.start(units, ground)
        assert (
            fa.seen(fa.play(plain, None, {"units": {"C": {"fire": ["e4"]}}}), 1, "C")["hits"] == 1
        )


def test_smoke_placement_rules(fa):
    """Smoke must be adjacent (8-neighbourhood) to an own unit and vacant at the start of the
    round."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(1, "1", "f5", "N"), fa.unit(2, "C", "l12")],
        tokens={"1": ["smoke"], "2": []},
    )
    assert fa.paths(state, 1, {"tokens": {"smoke": {"at": "e7"}}}) == ["tokens.smoke.at"]
    assert fa.paths(state, 1, {"tokens": {"smoke": {"at": "f5"}}}) == ["tokens.smoke.at"]
    assert fa.validate(state, 1, {"tokens": {"smoke": {"at": "d3"}}})
    assert "f5" not in fa.legal(state, 1)["tokens"]["smoke"]["at"]


def test_quick_sand_no_unit_may_enter_for_two_rounds(fa):
    """Quick sand: place on any square; for this round and the next no unit may enter it."""
    units = [fa.unit(1, "C", "e4", "N"), fa.unit(2, "C", "e7", "S")]
    state = fa.start(units, tokens={"1": ["quick_sand"], "2": []})
    # Own units may not be ordered into it.
    own = {"units": {"C": {"move": "FL"}}, "tokens": {"quick_sand": {"at": "d5"}}}
    assert fa.paths(state, 1, own) == ["units.C.move"]
    # The enemy, not knowing, bounces in the round it is placed.
    outcome = fa.resolve(
        state, {"tokens": {"quick_sand": {"at": "e6"}}}, {"units": {"C": {"move": "F"}}}
    )
    assert fa.at(outcome.state, 2, "C") == "e7"
    assert any(e["type"] == "bounce" and "quick sand" in e["text"] for e in outcome.events)
    # Next round it is rejected up front ...
    assert fa.problems(outcome.state, 2, {"units": {"C": {"move": "F"}}}) == [
        ("units.C.move", "Tank C cannot move F: e6 is covered by quick sand.")
    ]
    after = fa.play(outcome.state)
    # ... and the round after that it is gone.
    assert fa.at(fa.play(after, None, {"units": {"C": {"move": "F"}}}), 2, "C") == "e6"


def test_red_cross_placement_and_activation(fa):
    """Red Cross: place at the end of a round on a vacant square of the own half; from the end of
    the next round on, activate it: one damaged own tank on it or next to it is repaired."""
    units = [fa.unit(1, "1A", "d4", "N", hits=1), fa.unit(2, "C", "l12")]
    state = fa.start(units, tokens={"1": ["red_cross"], "2": []})
    assert fa.paths(state, 1, {"tokens": {"red_cross": {"at": "d8"}}}) == ["tokens.red_cross.at"]
    after = fa.play(state, {"tokens": {"red_cross": {"at": "d3"}}})
    assert {"token": "red_cross", "seat": 1, "at": "d3", "round": 1} in fa.game.view(after, 2)[
        "board_tokens"
    ]
    assert fa.legal(after, 1)["tokens"]["red_cross"] == {"activate": ["1A"]}
    after = fa.play(after, {"tokens": {"red_cross": {"activate": "1A"}}})
    assert fa.seen(after, 1, "1A")["hits"] == 0
    assert fa.game.view(after, 1)["board_tokens"] == []


def test_red_cross_goes_on_a_square_vacant_at_the_end_of_the_round(fa):
    """The Red Cross is placed at the end of a round on a vacant square: a square occupied now may
    be named (with a warning) and gets the token only if it is vacant when the round ends."""
    units = [fa.unit(1, "1A", "d4", "N", hits=1), fa.unit(2, "C", "l12")]
    state = fa.start(units, tokens={"1": ["red_cross"], "2": []})
    sheet = fa.validate(state, 1, {"tokens": {"red_cross": {"at": "d4"}}})
    assert [w.path for w in fa.game.warnings(state, 1, sheet)] == ["tokens.red_cross.at"]
    stayed = fa.resolve(state, sheet)
    assert fa.game.view(stayed.state, 1)["board_tokens"] == []
    assert fa.game.view(stayed.state, 1)["tokens"]["1"] == ["red_cross"]  # not used up
    assert any(e["type"] == "token" and e.get("failed") for e in stayed.events)
    moved = fa.play(state, {"units": {"1A": {"move": "F"}}, "tokens": {"red_cross": {"at": "d4"}}})
    assert fa.game.view(moved, 1)["board_tokens"] == [
        {"token": "red_cross", "seat": 1, "at": "d4", "round": 1}
    ]


def test_red_cross_cannot_be_activated_in_the_round_it_is_placed(fa):
    """The Red Cross is placed at the end of a round and usable from the end of the next."""
    units = [fa.unit(1, "1A", "d4", "N", hits=1), fa.unit(2, "C", "l12")]
    state = fa.start(units, tokens={"1": ["red_cross"], "2": []})
    assert fa.paths(state, 1, {"tokens": {"red_cross": {"activate": "1A"}}}) == ["tokens.red_cross"]


def test_red_cross_recovers_a_tank_hit_twice_that_round(fa):
    """A tank that took its second hit that same round may be recovered and continues damaged."""
    units = [fa.unit(1, "1A", "d4", "N", hits=1), fa.unit(2, "C", "d8", "S")]
    state = fa.start(units, tokens={"1": ["red_cross"], "2": []})
    after = fa.play(state, {"tokens": {"red_cross": {"at": "c3"}}})
    after = fa.play(
        after, {"tokens": {"red_cross": {"activate": "1A"}}}, {"units": {"C": {"fire": ["d4"]}}}
    )
    unit = fa.seen(after, 1, "1A")
    assert (unit["status"], unit["hits"], unit["at"]) == ("damaged", 1, "d4")


def test_red_cross_blocked_by_an_enemy_unit_on_it(fa):
    """An enemy unit on the token blocks activation (the token stays)."""
    units = [fa.unit(1, "1A", "d4", "N", hits=1), fa.unit(2, "C", "c4", "S")]
    state = fa.start(units, tokens={"1": ["red_cross"], "2": []})
    after = fa.play(state, {"tokens": {"red_cross": {"at": "c3"}}})
    outcome = fa.resolve(
        after, {"tokens": {"red_cross": {"activate": "1A"}}}, {"units": {"C": {"move": "F"}}}
    )
    assert fa.at(outcome.state, 2, "C") == "c3"
    assert fa.seen(outcome.state, 1, "1A")["hits"] == 1
    assert any(e["type"] == "token" and e.get("failed") for e in outcome.events)
    assert fa.game.view(outcome.state, 1)["board_tokens"][0]["token"] == "red_cross"


def test_token_mode_all_gives_each_side_all_seven(fa):
    """Distribution mode all: each side gets all seven."""
    state = fa.game.start(2, fa.game.validate_options({"tokens": {"mode": "all"}}), 3)
    assert fa.game.view(state, 1)["tokens"]["1"] == ALL_TOKENS
    assert fa.game.view(state, 2)["token_counts"] == {"1": 7, "2": 7}


def test_token_mode_random_k_is_seeded_and_private(fa):
    """random-k: k drawn per side from the seven by the match's seeded random."""
    opts = fa.game.validate_options({"tokens": {"mode": "random-k", "k": 3}})
    first = fa.game.start(2, opts, 11)
    assert first == fa.game.start(2, opts, 11)
    mine = fa.game.view(first, 1)
    assert len(mine["tokens"]["1"]) == 3 and set(mine["tokens"]["1"]) <= set(ALL_TOKENS)
    assert "2" not in mine["tokens"] and mine["token_counts"]["2"] == 3
    draws = {
        tuple(fa.game.view(fa.game.start(2, opts, seed), 1)["tokens"]["1"]) for seed in range(20)
    }
    assert len(draws) > 1


def test_token_mode_draft_k_is_part_of_the_sealed_setup(fa):
    """draft-k: each side picks k at setup, sealed."""
    opts = fa.game.validate_options({"tokens": {"mode": "draft-k", "k": 3}})
    state = fa.game.start(2, opts, 5)
    assert fa.legal(state, 1)["tokens_to_draft"] == 3
    alpha = fa.game.default_submission(state, 1)
    alpha["tokens"] = ["smoke", "air_strike", "quick_sand"]
    assert fa.game.validate(state, 1, alpha)["tokens"] == ["air_strike", "smoke", "quick_sand"]
    bad = dict(alpha, tokens=["smoke", "smoke", "nuke"])
    assert {"tokens", "tokens.2"} <= set(fa.paths(state, 1, bad))
    outcome = fa.game.resolve(
        state, {1: alpha, 2: fa.game.default_submission(state, 2)}, random.Random(1)
    )
    assert fa.game.view(outcome.state, 1)["tokens"]["1"] == ["air_strike", "smoke", "quick_sand"]
    assert "1" not in fa.game.view(outcome.state, 2)["tokens"]


def test_smoke_does_not_stop_an_air_strike_or_guard_its_own_square(fa):
    """Smoke blocks line of fire; air strike shells need none, and the target square itself never
    blocks (a shell aimed at the smoke square lands)."""
    units = [
        fa.unit(1, "C", "c4", "N"),
        fa.unit(1, "1", None, hits=2),
        fa.unit(2, "C", "c9", "S"),
        fa.unit(2, "2", "h9", "S"),
    ]
    state = fa.start(units, tokens={"1": ["air_strike"], "2": ["smoke"]})
    strike = {"at": "c1", "fire": ["c9"]}
    after = fa.play(state, {"tokens": {"air_strike": strike}}, {"tokens": {"smoke": {"at": "c8"}}})
    assert fa.seen(after, 2, "C")["hits"] == 1
    # Delta C moves onto its own smoke square; Alpha C's shell at c8 still lands there.
    state = fa.start(units, tokens={"1": [], "2": ["smoke"]})
    after = fa.play(
        state,
        {"units": {"C": {"fire": ["c8"]}}},
        {"units": {"C": {"move": "F"}}, "tokens": {"smoke": {"at": "c8"}}},
    )
    assert fa.seen(after, 2, "C")["hits"] == 1
