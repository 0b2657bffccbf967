"""Helpers shared by the services: finding the game, locking the match, opening phases."""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

import engine
from engine import Game, PhaseKind, Problem, Prompt, Result
from games.models import Match, Phase, Seat
from games.services.errors import ServiceError
from games.services.queue import enqueue_on_commit, send_signal_on_commit
from games.signals import phase_opened

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class Receipt:
    """What the author gets back for a stored sheet (the salt lets them verify the receipt)."""

    submission_id: int
    receipt: str
    salt: str
    revision: int
    data: dict[str, Any]
    warnings: list[Problem] = field(default_factory=list)
    complete: bool = False  # every required seat is in: resolution is queued


def game_for(slug: str) -> Game:
    try:
        return engine.get(slug)
    except KeyError:
        raise ServiceError("unknown_game", f"There is no game called {slug!r}.") from None


def match_lock(match_id: Any) -> Match:
    """Lock and return the match row. Every path that changes a match's phase or result
    goes through here (inside a transaction) so two writers never race."""
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", f"There is no match {match_id}.") from None


def result_as_json(result: Result) -> dict[str, Any]:
    return {
        "ranking": [list(group) for group in result.ranking],
        "scores": {str(seat): score for seat, score in result.scores.items()},
        "reason": result.reason,
        "winners": list(result.winners),
        "is_draw": result.is_draw,
    }


def phase_deadline(match: Match, now: Any) -> Any:
    return now + timedelta(hours=float(match.hours_per_phase))


def required_seats(prompts: dict[int, Prompt]) -> set[int]:
    return {seat for seat, prompt in prompts.items() if prompt.required}


def phase_open(*, match: Match, game: Game, state: dict, number: int, now: Any) -> Phase | None:
    """Open phase ``number`` on ``state`` (caller holds the match lock and saves the match).

    Returns None (and opens nothing) when nobody is prompted. Bot seats that are prompted get
    their sheet queued on commit.
    """
    prompts = game.prompts(state)
    if not prompts:
        return None
    kinds = {prompt.kind for prompt in prompts.values()}
    kind = next(iter(kinds)).value if len(kinds) == 1 else "mixed"
    name = next(iter(prompts.values())).phase
    if kind == PhaseKind.CONTINUOUS.value:
        # A continuous phase stays open; its "deadline" is the next gameday tick.
        deadline = game.next_tick_at(state, now)
    else:
        deadline = phase_deadline(match, now)
    phase = Phase.objects.create(
        match=match, number=number, kind=kind, name=name, opened_at=now, deadline=deadline,
        state_before=state,
    )
    match.phase_number = number
    match.phase_kind = kind
    match.phase_name = name
    match.deadline = deadline
    match.complete_at = None
    match.state = state
    bot_seats = Seat.objects.filter(match=match, number__in=list(prompts)).exclude(bot="")
    for seat_number in bot_seats.values_list("number", flat=True):
        enqueue_on_commit("games.tasks.bot_submit", match_id=match.pk, seat_number=seat_number,
                          phase_number=number)
    send_signal_on_commit(phase_opened, match_id=match.pk, phase_number=number)
    return phase


def phase_failure_record(match_id: Any, phase_number: int, error: BaseException) -> None:
    """Count a failed resolution (or tick) of a phase in its own transaction; quarantine the
    phase after settings.RESOLVE_MAX_ATTEMPTS and park the match for a moderator."""
    text = "".join(traceback.format_exception(error))[-5000:]
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return
        phase = Phase.objects.filter(match=match, number=phase_number,
                                     status=Phase.Status.OPEN).first()
        if phase is None:
            return
        phase.attempts += 1
        phase.last_error = text
        if phase.attempts >= settings.RESOLVE_MAX_ATTEMPTS:
            phase.status = Phase.Status.QUARANTINED
            # Park the match so the sweeper stops re-queueing it until a moderator retries.
            match.deadline = None
            match.complete_at = None
            match.save(update_fields=["deadline", "complete_at"])
            logger.error("match %s phase %s quarantined after %s attempts", match_id,
                         phase_number, phase.attempts)
        phase.save(update_fields=["attempts", "last_error", "status"])
