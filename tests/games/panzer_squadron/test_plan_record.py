"""A Panzer Squadron match with activations played from plans replays offline to the same
result (docs/conditional-orders.md, docs/records.md): the record holds each planned
activation's two steps with source ``conditional``, and they replay like any other."""

from __future__ import annotations

import pytest
from django.utils import timezone

import engine
from engine import rng_for
from games import services
from games.models import Match
from tests.games.test_records import check_replays, new_match

pytestmark = pytest.mark.django_db

GAME = engine.get("panzer-squadron")


def whole_activation(state, seat, phase_number, now, pick, seed):
    """``seat``'s next whole activation as ``pick`` chooses it, and the position after it:
    the choice, and for a move its path chosen after the roll the lifecycle will make."""
    choice = pick(state, seat, phase_number)
    after = GAME.apply(state, seat, choice, now, rng_for(seed, phase_number)).state
    if after["phase"] != "path":
        return choice, after, 1
    path = pick(after, seat, phase_number + 1)
    after = GAME.apply(after, seat, path, now, rng_for(seed, phase_number + 1)).state
    return {**choice, **path}, after, 2


# The match's dice: how many of seat 2's plans meet their activation depends on them (tanks
# lost early leave fewer), so the match is played with a seed of its own, not a fresh one.
SEED = 20261129


def test_a_match_with_activations_played_from_plans_replays_to_the_same_result(
        make_user, tmp_path, monkeypatch):
    monkeypatch.setattr(Match._meta.get_field("seed"), "_get_default", lambda: SEED)
    match = new_match(make_user, "panzer-squadron", options={"turn_limit": 3})
    assert match.seed == SEED
    now, activations = timezone.now(), 0

    def pick(state, seat, number):
        return GAME.bot_submission(state, seat, "random", rng_for(f"pick:{seat}", number))

    for _step in range(600):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        state, seat, number = match.state, match.state["to_move"], match.phase_number
        if seat == 1 and state["phase"] == "activate":
            activations += 1
            mine, after, steps = whole_activation(state, 1, number, now, pick, match.seed)
            if activations % 2 and after["result"] is None and after["to_move"] == 2:
                answer, _after, _steps = whole_activation(after, 2, number + steps, now, pick,
                                                          match.seed)
                services.plan_set(match_id=match.pk, seat_number=2, user=match.players[2],
                                  tree=[{"when": [{"seat": 1, "move": mine}], "play": answer,
                                         "then": []}])
        data = pick(state, seat, number)
        services.orders_submit(match_id=match.pk, seat_number=seat, user=match.players[seat],
                               phase_number=number, data=data, source="web")
    record = check_replays(match, tmp_path)
    planned = [(p["number"], s["data"]) for p in record["phases"] for s in p["submissions"]
               if s["source"] == "conditional"]
    assert len(planned) >= 4 and any("path" in data for _n, data in planned)
