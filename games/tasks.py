"""Celery tasks of the turn lifecycle. They take ids, run with acks_late, and are idempotent:
each calls one service that locks the match row and returns early if the work is done."""

from __future__ import annotations

import logging

from durable.worker import task
from games import services

logger = logging.getLogger(__name__)


@task("games.tasks.resolve_phase")
def resolve_phase(match_id: int, phase_number: int) -> bool:
    """Resolve one phase exactly once (a no-op if it is resolved or not yet due)."""
    return services.phase_resolve(match_id=match_id, phase_number=phase_number)


@task("games.tasks.resolve_phases")
def resolve_phases(pairs: list[list[int]]) -> int:
    """Resolve a sweep's batch of (match id, phase number): one transaction, a savepoint per
    match, so one poison phase does not hold up the others. Returns how many were resolved."""
    return services.phases_resolve(pairs)


@task("games.tasks.deadlines_sweep")
def deadlines_sweep() -> int:
    """Queue resolution of due phases (run by beat every SWEEP_INTERVAL_SECONDS)."""
    return services.deadlines_sweep()


@task("games.tasks.bot_submit")
def bot_submit(match_id: int, seat_number: int, phase_number: int) -> bool:
    """The bot seat submits its sheet for the phase (a no-op if already in or stale)."""
    return services.bot_submit(
        match_id=match_id, seat_number=seat_number, phase_number=phase_number
    ) is not None


@task("games.tasks.plans_follow")
def plans_follow(match_id: int, phase_number: int) -> int:
    """Play the planned moves due after a turn played by default (a no-op if none is)."""
    return services.plans_follow_task(match_id=match_id, phase_number=phase_number)


@task("games.tasks.sheets_follow")
def sheets_follow(match_id: int, phase_number: int) -> int:
    """Submit or discard the sheets entered ahead for the phase that has just opened."""
    return services.sheets_follow(match_id=match_id, phase_number=phase_number)


@task("games.tasks.gameday_tick")
def gameday_tick(match_id: int) -> bool:
    """Start a continuous match's due gameday exactly once (a no-op if not due or done)."""
    return services.gameday_tick(match_id=match_id)


@task("games.tasks.reliability_record")
def reliability_record(match_id: int) -> bool:
    """Count an ended match in its players' reliability records (exactly once)."""
    return services.match_reliability_record(match_id=match_id) is not None


@task("games.tasks.reliability_sweep")
def reliability_sweep() -> int:
    """Count ended matches whose reliability task never ran (beat; a safety net)."""
    return services.reliability_sweep()


@task("games.tasks.deadline_misses_record")
def deadline_misses_record(match_id: int, phase_number: int, missed_at: str,
                           users: dict[str, int], due_at: dict[str, str] | None = None) -> int:
    """Write a resolution's missed deadlines into the players' records (once)."""
    return services.deadline_misses_record(match_id=match_id, phase_number=phase_number,
                                           missed_at=missed_at, users=users, due_at=due_at)


@task("games.tasks.votes_expire")
def votes_expire() -> int:
    """Expire the votes to end a match whose time ran out, each once (run by beat)."""
    return services.votes_expire()
