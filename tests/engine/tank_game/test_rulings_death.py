"""Rulings, "Death, destruction, loot" and the gold mines."""

from __future__ import annotations

import random

import pytest

from engine.tank_game.actions import loot_split


def _sure_hit() -> random.Random:
    """A generator whose first die shows a hit face (4-6)."""
    for seed in range(100):
        if random.Random(seed).randint(1, 6) >= 4:
            return random.Random(seed)
    raise AssertionError("no seed")


def test_zero_lives_is_dead_and_joins_the_council_as_councillor(h) -> None:
    """0 lives -> dead: stays on the board with 3 durability, loses AP and gold, bounty cleared,
    the player joins the Council as a councillor."""
    state = h.start({1: "C3", 2: "C5", 3: "J10"}, walls={}, mines=[])
    h.set(state, 2, lives=1, ap=3, gold=4, bounty=2)
    after = h.act(state, 1, {"type": "shoot", "at": "C5"}, rng=_sure_hit()).state
    victim = h.tank(after, 2)
    assert (victim["status"], victim["at"], victim["durability"]) == ("dead", "C5", 3)
    assert (victim["lives"], victim["ap"], victim["gold"], victim["bounty"]) == (0, 0, 0, 0)
    assert h.log[-1]["kind"] == "kill"
    assert "Seat 2 was killed by Seat 1" in h.log[-1]["text"]
    members = h.game.view(after, None)["council"]["members"]
    assert members == [{"seat": 2, "name": "Seat 2", "role": "councillor", "weight": 1}]


def test_durability_zero_destroys_a_dead_tank_player_becomes_senator(h) -> None:
    """Durability 0 -> destroyed: removed; the player becomes a senator."""
    state = h.start({1: "C3", 2: "C4", 3: "J10"}, walls={}, mines=[])
    h.kill(state, 2)
    h.set(state, 2, durability=1)
    after = h.act(state, 1, {"type": "shoot", "at": "C4"}).state
    assert h.tank(after, 2)["status"] == "destroyed" and h.tank(after, 2)["at"] is None
    assert h.game.view(after, None)["council"]["members"][0]["role"] == "senator"
    assert h.game.view(after, None)["council"]["weight"] == 2
    assert h.tank(after, 1)["gold"] == 0  # destroying gains nothing


@pytest.mark.parametrize(
    ("gold", "killer", "coffer"),
    [(0, 0, 0), (1, 1, 0), (2, 1, 1), (4, 3, 1), (10, 7, 3), (11, 8, 3)],
)
def test_loot_and_tax(gold: int, killer: int, coffer: int) -> None:
    """The tax is the larger of 1 and 25 % rounded ((gold + 2) // 4); the killer always gets at
    least 1 if there was any gold. Rule book: 10 gold -> killer 7, coffer 3."""
    assert loot_split(gold) == (killer, coffer)


def test_killer_gets_the_bounty_plus_the_loot(h) -> None:
    """Loot on a kill: the killer gets the bounty plus the victim's gold minus tax."""
    state = h.start({1: "C3", 2: "C4", 3: "J10"}, walls={}, mines=[])
    h.set(state, 2, lives=1, gold=10, bounty=5)
    h.set(state, 1, gold=1)
    coffer = state["coffer"]
    after = h.act(state, 1, {"type": "shoot", "at": "C4"}, rng=_sure_hit()).state
    assert h.tank(after, 1)["gold"] == 1 + 7 + 5
    assert after["coffer"] == coffer + 3


def test_destroyed_wall_next_to_a_mine_becomes_mine_and_touching_mines_merge(h) -> None:
    """A destroyed wall orthogonally adjacent to a mine becomes mine; touching mines merge."""
    state = h.start({1: "A1", 2: "J10"}, walls={"C2": 1, "D3": 1}, mines=["C1", "C3"])
    assert h.game.view(state, None)["board"]["mines"] == [["C1"], ["C3"]]
    h.set(state, 1, ap=2)
    state = h.act(state, 1, {"type": "shoot", "at": "C2"}).state
    assert h.game.view(state, None)["board"]["mines"] == [["C1", "C2", "C3"]]
    assert h.log[-1]["text"].endswith("(hit, wall destroyed, the gold mine grows)")
    state["walls"]["F6"] = 1
    h.set(state, 1, at="F4")
    state = h.act(state, 1, {"type": "shoot", "at": "F6"}).state
    assert "F6" not in state["mines"]  # not next to a mine: just gone


def test_mines_pay_their_size_shared_among_living_tanks_remainder_to_coffer(h) -> None:
    """Each mine generates gold equal to its squares, divided among the living tanks in it; the
    remainder (or all of it if none) goes to the coffer. Dead tanks get nothing."""
    mine = ["C3", "C4", "C5", "D3", "D4"]
    state = h.start({1: "C3", 2: "D4", 3: "C5", 4: "J10"}, walls={}, mines=mine)
    h.kill(state, 3)
    coffer = state["coffer"]
    state = h.next_day(state)
    assert h.tank(state, 1)["gold"] == 2 and h.tank(state, 2)["gold"] == 2
    assert h.tank(state, 3)["gold"] == 0
    assert state["coffer"] == coffer + 1 + 1  # remainder 1, councillor income 1


def test_dead_tank_keeps_its_range(h) -> None:
    """Dead tanks retain their range."""
    state = h.start({1: "C3", 2: "C4", 3: "J10"}, walls={}, mines=[])
    h.set(state, 2, lives=1, range=4)
    after = h.act(state, 1, {"type": "shoot", "at": "C4"}, rng=_sure_hit()).state
    assert h.tank(after, 2)["range"] == 4
