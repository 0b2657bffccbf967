"""The two matches the corpus replies answer, built the same way by ``build.py`` and by the
test: a Final Act duel at round 1 and a Tank Game gameday, each with the orders the player
types."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from games import services
from games.models import Match
from tests.portal.mail.conftest import ALPHA_NEAR_BREAKTHROUGH

ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}
TANK_SEED = 20261122  # spawns are drawn from the match seed: fixed, so the move is too
ORDERS = {"final-act": "1A FR turn\nC F", "tank-game": "move {to}"}


@contextmanager
def fixed_seed(seed: int):
    field = Match._meta.get_field("seed")
    old = field.default
    field.default = lambda: seed
    field.__dict__.pop("_get_default", None)
    try:
        yield
    finally:
        field.default = old
        field.__dict__.pop("_get_default", None)


def final_act(alice: Any, bob: Any) -> Match:
    return services.match_create(
        creator=alice, game="final-act", options={"scenario": ALPHA_NEAR_BREAKTHROUGH},
        hours_per_phase=24, title="Corpus duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])


def tank_game(alice: Any, bob: Any) -> tuple[Match, str]:
    """A Tank Game match on its first gameday, and seat 1's orders (a legal move)."""
    import engine

    with fixed_seed(TANK_SEED):
        match = services.match_create(
            creator=alice, game="tank-game", hours_per_phase=24, title="Corpus tanks",
            options={"schedule": ALWAYS_OPEN, "cooldown_minutes": 0},
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    moves = sorted(a["to"] for a in engine.get("tank-game").legal_actions(match.state, 1)
                   if a["type"] == "move")
    return match, ORDERS["tank-game"].format(to=moves[0])
