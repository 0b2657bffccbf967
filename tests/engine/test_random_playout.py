"""Every registered game survives random legal play (like OpenSpiel's ``random_sim_test``).

For each game in ``engine.games()``: start with the default options and a few seeds, then play
legal submissions (bot "random" where the game has one, else the default submission) until the
match has a result or a step cap is reached. In continuous games a seat that may not act just
now is skipped, and when nobody can act time moves on a day and the game ticks. At every step
the state survives a JSON round trip unchanged, ``view`` works for every seat and for a
spectator, and events are JSON.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import engine
from engine import Game, Outcome, PhaseKind, RuleError

SEEDS = (0, 1, 2)
STEP_CAP = 400


def _json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _submission(game: Game, state: dict[str, Any], seat: int, rng: random.Random) -> Any:
    if "random" in game.bots:
        return game.bot_submission(state, seat, "random", rng)
    return game.default_submission(state, seat)


def _check_readable(game: Game, state: dict[str, Any], seats: range) -> None:
    assert _json_round_trip(state) == state, "state does not survive a JSON round trip"
    for seat in (None, *seats):
        view = game.view(state, seat)
        assert isinstance(view, dict)
        assert _json_round_trip(view) == view, f"view for {seat} is not plain JSON"


def _continuous_step(
    game: Game, state: dict[str, Any], prompts: dict[int, Any], now: datetime, rng: random.Random
) -> Outcome | None:
    """One action by a seat that may act now, or None when none can (no points left, window
    closed, cooling down): those refusals are RuleErrors, and the caller lets time pass."""
    for seat in rng.sample(sorted(prompts), len(prompts)):
        try:
            action = game.validate(state, seat, _submission(game, state, seat, rng))
            return game.apply(state, seat, action, now, rng)
        except RuleError:
            continue
    return None


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", sorted(engine.games()))
def test_random_playout(slug: str, seed: int) -> None:
    game = engine.get(slug)
    options = game.validate_options(game.default_options())
    seats = range(1, game.min_seats + 1)
    state = game.start(len(seats), options, seed)
    rng = random.Random(seed)
    now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    for _ in range(STEP_CAP):
        _check_readable(game, state, seats)
        if game.result(state) is not None:
            break
        prompts = game.prompts(state)
        simultaneous = {s: p for s, p in prompts.items() if p.kind == PhaseKind.SIMULTANEOUS}
        if simultaneous:
            submissions = {}
            for seat in simultaneous:
                submission = _submission(game, state, seat, rng)
                submissions[seat] = game.validate(state, seat, submission)
                assert _json_round_trip(submissions[seat]) == submissions[seat]
            outcome = game.resolve(state, submissions, rng)
        elif any(p.kind == PhaseKind.SEQUENTIAL for p in prompts.values()):
            seat = rng.choice(sorted(prompts))
            action = game.validate(state, seat, _submission(game, state, seat, rng))
            outcome = game.apply(state, seat, action, now, rng)
        else:
            stepped = _continuous_step(game, state, prompts, now, rng)
            if stepped is None:  # nobody may act now: time moves on to the next gameday
                now += timedelta(days=1)
                stepped = game.tick(state, now, rng)
            outcome = stepped
        assert _json_round_trip(outcome.events) == outcome.events
        state = outcome.state
        now += timedelta(minutes=10)
    _check_readable(game, state, seats)
    result = game.result(state)
    if result is not None:
        assert {seat for group in result.ranking for seat in group} == set(seats)


def test_every_game_tells_a_round_in_words():
    """``round_report`` turns a phase's events into lines for a reader: by default each event's
    own text; Final Act tells one sentence per unit, naming the reader's units "your"."""
    from engine.base import Game

    events = [{"type": "note", "text": "Something happened."}, {"type": "quiet"}, "junk"]
    assert Game().round_report(events, None) == ["Something happened."]
    final_act = engine.get("final-act")
    move = {"type": "move", "seat": 1, "unit": "C", "from": "f2", "to": "f3", "facing": "N",
            "turned": False, "full_throttle": False, "text": "Alpha C moved f2 -> f3."}
    assert final_act.round_report([move], 1) == ["Your C moved f2 → f3."]
    assert final_act.round_report([move], None) == ["Alpha C moved f2 → f3."]
