"""``Game.public_state``: the position of a running match a spectator could rebuild, which the
analysis board starts from; None where play cannot go on without a secret."""

from __future__ import annotations

import json
import random

import engine
from engine import PhaseKind

GAMES = engine.games()


def started(slug, seats=2, options=None):
    game = GAMES[slug]
    return game, game.start(seats, game.validate_options(options or game.default_options()), 7)


def test_final_act_without_secret_tokens_is_its_own_public_position():
    game, state = started("final-act")
    assert game.public_state(state) == state and game.public_state(state) is not state


def test_final_act_with_secret_tokens_cannot_be_rebuilt():
    game, state = started("final-act", options={"tokens": {"mode": "random-k"}})
    if not any(state["tokens"].values()):  # tokens are dealt at setup: deal some as a seat holds
        state["tokens"]["1"] = ["smoke"]
    assert game.public_state(state) is None


def test_final_strategy_bunkers_are_secret_so_no_public_position():
    game, state = started("final-strategy")
    assert game.public_state(state) is None


def test_panzer_squadron_public_position_holds_no_standing_reaction():
    game, state = started("panzer-squadron")
    tank = next(t for t in state["tanks"] if t["seat"] == 2)
    state = game.apply(state, 2, {"reactions": {tank["name"]: {"mode": "side-rear",
                                                               "max_range": 4}}},
                       None, random.Random(1)).state
    public = game.public_state(state)
    assert "side-rear" in json.dumps(state) and "side-rear" not in json.dumps(public)
    assert game.view(public, None) == game.view(state, None)
    seat = 1
    prompt = game.prompts(public)[seat]
    assert prompt.kind == PhaseKind.SEQUENTIAL  # play goes on from it
    move = game.bot_submission(public, seat, "random", random.Random(2))
    game.apply(public, seat, move, None, random.Random(3))


def test_tank_game_is_public_until_someone_votes():
    game, state = started("tank-game")
    assert game.public_state(state) == state
    state["ballots"] = [{"id": 1, "votes": {"1": {"choice": "yes"}}}]
    assert game.public_state(state) is None
