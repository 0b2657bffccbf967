"""Played matches of the four games, built through the services as players build them (each
seat's default sheet or a legal action): what the accessibility tests open in a browser."""

from __future__ import annotations

from typing import Any

import engine
from games import services
from games.models import Match
from tests.portal.builders import duel, make_user

GAMES = ("final-act", "final-strategy", "panzer-squadron", "tank-game")
ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}
# Pieces of every kind for both seats on the board (a fresh Final Strategy board has none).
FINAL_STRATEGY = {"barriers": ["c3-c4", "c3-d3", "b3-c3"],
                  "pieces": [{"seat": 1, "kind": "troop", "at": "c4"},
                             {"seat": 1, "kind": "bomb", "at": "h8"},
                             {"seat": 2, "kind": "troop", "at": "d6"},
                             {"seat": 2, "kind": "kidnapper", "at": "g3", "corner": "ne"}]}


def players(prefix: str) -> dict[str, Any]:
    """The roles of a match: its two seats and a spectator (logged in, seatless)."""
    return {"seat1": make_user(f"{prefix}1"), "seat2": make_user(f"{prefix}2"),
            "spectator": make_user(f"{prefix}watch")}


def play_phases(match: Match, users: dict[int, Any], phases: int) -> Match:
    """Play ``phases`` phases with every prompted seat's default sheet (a simultaneous phase
    resolved once all have sealed, a sequential one applied at once)."""
    game = engine.get(match.game)
    for _ in range(phases):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        number = match.phase_number
        for seat in sorted(game.prompts(match.state)):
            match.refresh_from_db()
            if match.phase_number != number:
                break
            services.orders_submit(match_id=match.pk, seat_number=seat, user=users[seat],
                                   phase_number=number, source="web",
                                   data=game.default_submission(match.state, seat))
        match.refresh_from_db()
        if match.phase_number == number:
            services.phase_resolve(match_id=match.pk, phase_number=number)
    match.refresh_from_db()
    return match


def tank_actions(match: Match, users: dict[int, Any], rounds: int) -> Match:
    """Each seat in turn moves its tank (the first legal move), ``rounds`` times."""
    game = engine.get(match.game)
    for _ in range(rounds):
        for seat in sorted(users):
            match.refresh_from_db()
            move = next((a for a in game.legal_actions(match.state, seat)
                         if a["type"] == "move"), None)
            if move is not None:
                services.actions_apply(match_id=match.pk, seat_number=seat, user=users[seat],
                                       action=move, source="web")
    match.refresh_from_db()
    return match


def played_match(slug: str, people: dict[str, Any], **options: Any) -> Match:
    """A match of ``slug`` between people["seat1"] and people["seat2"], a few phases in, still
    going (seat 1 to act where the game has turns)."""
    seats = {1: people["seat1"], 2: people["seat2"]}
    if slug == "tank-game":
        match = services.match_create(
            creator=seats[1], game=slug, hours_per_phase=24,
            options={"schedule": ALWAYS_OPEN, "cooldown_minutes": 0, **options},
            seats=[{"kind": "human", "user": u} for u in seats.values()])
        services.gameday_tick(match_id=match.pk)
        return tank_actions(match, seats, rounds=1)
    if slug == "final-strategy" and not options:
        options = {"scenario": FINAL_STRATEGY}
    match = duel(seats[1], seats[2], game=slug, options=options or None)
    phases = {"final-act": 3, "final-strategy": 2, "panzer-squadron": 4}[slug]
    return play_phases(match, seats, phases)
