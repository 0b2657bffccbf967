"""Rulings, "Board, maps and seats"."""

from __future__ import annotations

import pytest

from engine.base import OptionsError, RuleError
from engine.tank_game import mines, squares
from engine.tank_game.maps import MAPS


def test_maps_are_data_classic_12x12() -> None:
    """Ship the classic 12 x 12 map (16 spawns, four 1-square mines, walls weaker towards the
    mines, a central wall block)."""
    classic = MAPS["classic"]
    assert classic["size"] == 12
    assert len(classic["spawns"]) == 16
    state = {"size": 12, "mines": classic["mines"]}
    assert [len(r) for r in mines.regions(state)] == [1, 1, 1, 1]
    walls = classic["walls"]
    assert all(walls[sq] == 6 for sq in ("F6", "G6", "F7", "G7"))  # the central block

    def nearest_mine(sq: str) -> int:
        a = squares.parse(sq, 12)
        assert a is not None
        return min(squares.distance(a, squares.parse(m, 12) or (0, 0)) for m in classic["mines"])

    by_distance: dict[int, list[int]] = {}
    for sq, durability in walls.items():
        by_distance.setdefault(nearest_mine(sq), []).append(durability)
    # walls touching a mine are the weakest, and no wall far away is weaker than them
    assert max(by_distance[1]) <= min(d for k, v in by_distance.items() if k > 1 for d in v)


def test_maps_are_data_big_map_holds_100_tanks() -> None:
    """One map big enough for 100 tanks (26 x 26)."""
    big = MAPS["big"]
    assert big["size"] == 26
    assert len(big["spawns"]) >= 100
    assert len(set(big["spawns"])) == len(big["spawns"])
    assert not set(big["spawns"]) & set(big["walls"])
    assert all(1 <= d <= 6 for d in big["walls"].values())


def test_seats_two_to_one_hundred(h) -> None:
    """2-100 seats, one tank each; the map needs a spawn per seat."""
    options = h.game.validate_options({"map": "big"})
    assert len(h.game.start(100, options, 1)["tanks"]) == 100
    for bad in (1, 101):
        with pytest.raises(RuleError):
            h.game.start(bad, options, 1)
    with pytest.raises(RuleError) as caught:
        h.game.start(17, h.game.validate_options({"map": "classic"}), 1)
    assert "16 spawns" in str(caught.value)


def test_spawns_are_random_from_the_match_seed(h) -> None:
    """Spawns are assigned at random (match seed)."""
    options = h.game.validate_options({})
    one = [t["at"] for t in h.game.start(8, options, 1)["tanks"].values()]
    again = [t["at"] for t in h.game.start(8, options, 1)["tanks"].values()]
    other = [t["at"] for t in h.game.start(8, options, 2)["tanks"].values()]
    assert one == again
    assert one != other
    assert len(set(one)) == 8 and set(one) <= set(MAPS["classic"]["spawns"])


def test_tanks_start_with_3_lives_1_ap_0_gold_range_2(h) -> None:
    """Tanks start with 3 lives, 1 AP, 0 gold, range 2."""
    state = h.game.start(5, h.game.validate_options({}), 3)
    for tank in state["tanks"].values():
        assert (tank["lives"], tank["ap"], tank["gold"], tank["range"]) == (3, 1, 0, 2)
        assert tank["status"] == "alive" and tank["bounty"] == 0


def test_last_man_standing_carry_over_bounties(h) -> None:
    """The previous winner starts with a 5-gold bounty and earlier winners with 3."""
    options = h.game.validate_options({"bounties": {"2": 5, "4": 3}})
    state = h.game.start(4, options, 1)
    assert [t["bounty"] for t in state["tanks"].values()] == [0, 5, 0, 3]
    with pytest.raises(RuleError) as caught:
        h.game.start(3, options, 1)
    assert caught.value.problems[0].path == "bounties.4"


def test_squares_are_named_column_letter_then_row(h) -> None:
    """Squares named A1 (column letter, 1-based row); a bad square is refused by name."""
    assert squares.parse("A1", 12) == (0, 0)
    assert squares.parse("l12", 12) == (11, 11)
    assert squares.parse("M1", 12) is None
    state = h.start({1: "A1", 2: "C3"}, walls={}, mines=[])
    problems = h.refused(state, 1, {"type": "move", "to": "Z99"})
    assert "Z99" in problems["to"] and "A1 to L12" in problems["to"]


def test_options_errors_list_every_problem(h) -> None:
    """Bad options: OptionsError naming every problem."""
    with pytest.raises(OptionsError) as caught:
        h.game.validate_options(
            {
                "map": "moon",
                "cooldown_minutes": -1,
                "schedule": {
                    "kind": "weekly",
                    "weekdays": ["funday"],
                    "open": "25:00",
                    "time_zone": "Mars/Base",
                    "holidays": ["soon"],
                },
                "colour": "red",
            }
        )
    paths = {p.path for p in caught.value.problems}
    assert {
        "map",
        "cooldown_minutes",
        "schedule.weekdays",
        "schedule.open",
        "schedule.time_zone",
        "schedule.holidays.0",
        "",
    } <= paths
