"""The built-in Final Act bots: legal sheets, own randomness only, and greedy beats random."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import engine
from engine import RuleError
from engine.final_act import bots

ALL_OPTIONS: dict[str, Any] = {
    "advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
    "tokens": {"mode": "all"},
    "extra_forces": True,
}
DRAFT_OPTIONS: dict[str, Any] = {**ALL_OPTIONS, "tokens": {"mode": "draft-k", "k": 3}}
RANDOM_K_OPTIONS: dict[str, Any] = {"advanced": ["officer_loss"], "tokens": {"mode": "random-k"}}


def _game() -> engine.Game:
    return engine.get("final-act")


def _play(
    game: engine.Game, options: dict[str, Any], players: dict[int, str], seed: int
) -> tuple[dict[str, Any], int]:
    """Play one match between bots; returns the final state and the phases played."""
    rng = random.Random(seed)
    state = game.start(2, game.validate_options(options), seed)
    phases = 0
    while game.result(state) is None:
        sheets = {seat: game.bot_submission(state, seat, bot, rng) for seat, bot in players.items()}
        state = game.resolve(state, sheets, rng).state
        phases += 1
    return state, phases


def _scenario(units: list[dict[str, Any]], terrain: list[dict[str, Any]] | None = None) -> dict:
    return {"round": 1, "units": units, "terrain": terrain or [], "tokens": {"1": [], "2": []}}


def test_the_game_lists_both_bots() -> None:
    assert bots.BOTS == ("random", "greedy")
    assert set(_game().bots) == set(bots.BOTS)


def test_an_unknown_bot_is_a_rule_error_naming_the_known_ones() -> None:
    game = _game()
    state = game.start(2, {}, seed=1)
    with pytest.raises(RuleError) as caught:
        game.bot_submission(state, 1, "clever", random.Random(1))
    assert "random" in str(caught.value) and "greedy" in str(caught.value)


@pytest.mark.parametrize("bot", bots.BOTS)
@pytest.mark.parametrize(
    "options",
    [{}, ALL_OPTIONS, DRAFT_OPTIONS, RANDOM_K_OPTIONS],
    ids=["base", "all", "draft", "random-k"],
)
def test_every_sheet_a_bot_plays_is_valid(bot: str, options: dict[str, Any]) -> None:
    game = _game()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.start(2, game.validate_options(options), seed)
        for _ in range(40):
            if game.result(state) is not None:
                break
            sheets = {}
            for seat in (1, 2):
                sheet = game.bot_submission(state, seat, bot, rng)
                assert game.validate(state, seat, sheet) == sheet
                sheets[seat] = sheet
            state = game.resolve(state, sheets, rng).state


def test_the_random_bot_uses_tokens_and_declarations_when_legal() -> None:
    game = _game()
    used: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = game.start(2, game.validate_options(ALL_OPTIONS), seed)
        for _ in range(60):
            if game.result(state) is not None:
                break
            sheets = {seat: game.bot_submission(state, seat, "random", rng) for seat in (1, 2)}
            for sheet in sheets.values():
                used.update(sheet.get("tokens") or ())
                used.update(sheet.get("declare") or ())
            state = game.resolve(state, sheets, rng).state
    assert {"smoke", "quick_sand", "full_throttle", "mine_clearing"} <= used


def test_the_random_setup_layouts_differ_by_seed_and_draft_tokens() -> None:
    game = _game()
    state = game.start(2, game.validate_options(DRAFT_OPTIONS), seed=3)
    layouts = [game.bot_submission(state, 1, "random", random.Random(s)) for s in range(5)]
    assert len({repr(layout) for layout in layouts}) == 5
    for layout in layouts:
        assert len(layout["tokens"]) == 3


@pytest.mark.parametrize("bot", bots.BOTS)
def test_bots_use_only_the_rng_they_are_given(bot: str) -> None:
    game = _game()
    state = game.start(2, game.validate_options(ALL_OPTIONS), seed=5)
    setup = {seat: game.bot_submission(state, seat, bot, random.Random(seat)) for seat in (1, 2)}
    orders_state = game.resolve(state, setup, random.Random(0)).state
    for current in (state, orders_state):
        random.seed(12345)
        before = random.getstate()
        first = game.bot_submission(current, 1, bot, random.Random(99))
        assert random.getstate() == before, "the bot touched the global random generator"
        assert game.bot_submission(current, 1, bot, random.Random(99)) == first


def test_greedy_shells_where_the_enemy_tank_is_likeliest_to_be() -> None:
    """Delta's tank at e9 facing S may stay, advance to d8/e8/f8 or back off to d10/e10/f10;
    advancing is likelier, so greedy shells one of the squares in front of it."""
    game = _game()
    state = game.start(
        2,
        {
            "scenario": _scenario(
                [
                    {"seat": 1, "name": "C", "at": "e5", "facing": "N", "hits": 0},
                    {"seat": 2, "name": "C", "at": "e9", "facing": "S", "hits": 0},
                ]
            )
        },
        seed=1,
    )
    for seed in range(5):
        sheet = game.bot_submission(state, 1, "greedy", random.Random(seed))
        assert sheet["units"]["C"]["fire"][0] in ("d8", "e8", "f8")


def test_greedy_advances_and_breaks_through() -> None:
    game = _game()
    state = game.start(
        2,
        {
            "scenario": _scenario(
                [
                    {"seat": 1, "name": "C", "at": "b11", "facing": "N", "hits": 0},
                    {"seat": 1, "name": "1", "at": "h3", "facing": "N", "hits": 0},
                    {"seat": 2, "name": "C", "at": "k12", "facing": "S", "hits": 0},
                ]
            )
        },
        seed=1,
    )
    sheet = game.bot_submission(state, 1, "greedy", random.Random(1))
    assert sheet["units"]["C"]["move"] in ("F", "FL", "FR")
    assert sheet["units"]["1"]["move"] in ("F", "FL", "FR")
    outcome = game.resolve(
        state, {1: sheet, 2: game.default_submission(state, 2)}, random.Random(1)
    )
    assert game.view(outcome.state, None)["breakthroughs"]["1"] == 1


def test_greedy_beats_random_in_at_least_80_percent_of_200_games() -> None:
    """Seeds 0..199, greedy alternating between Alpha and Delta; draws are not wins."""
    game = _game()
    started = time.perf_counter()
    wins = 0
    outcomes: dict[str, int] = {}
    for seed in range(200):
        greedy_seat = 1 if seed % 2 == 0 else 2
        players = {greedy_seat: "greedy", 3 - greedy_seat: "random"}
        state, _ = _play(game, {}, players, seed)
        result = game.result(state)
        assert result is not None
        won = result.winners == (greedy_seat,)
        wins += won
        key = "win" if won else ("draw" if result.is_draw else "loss")
        outcomes[key] = outcomes.get(key, 0) + 1
    elapsed = time.perf_counter() - started
    assert wins >= 160, f"greedy won {wins} of 200 ({outcomes}) in {elapsed:.0f} s"
