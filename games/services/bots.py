"""Bot seats: what a bot submits for the phase, through the same entry point as everyone."""

from __future__ import annotations

import logging
from typing import Any

from engine import PhaseKind, rng_for
from games.models import Match, Seat, Submission
from games.services.common import Receipt, game_for
from games.services.errors import ServiceError
from games.services.submit import sheet_submit

logger = logging.getLogger(__name__)

# Refusals that only mean "not now" for a bot in a continuous phase: outside a gameday, or
# still cooling down. The bot acts when the next gameday's tick queues it again.
WAITING = {"window_closed", "cooldown"}


def bot_submit(*, match_id: Any, seat_number: int, phase_number: int) -> Receipt | None:
    """The bot seat's sheet for the phase; None if there is nothing (left) to do."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.phase_number != phase_number:
        return None
    seat = Seat.objects.filter(match=match, number=seat_number).first()
    if seat is None or not seat.bot:
        return None
    if Submission.objects.filter(phase__match=match, phase__number=phase_number,
                                 seat=seat).exclude(phase__status="voided").exists():
        return None
    game = game_for(match.game)
    if seat_number not in game.prompts(match.state):
        return None
    rng = rng_for(f"{match.seed}:bot:{seat_number}", phase_number)
    data = game.bot_submission(match.state, seat_number, seat.bot, rng)
    if not data and match.phase_kind == PhaseKind.CONTINUOUS.value:
        return None  # nothing the bot can do in this gameday
    try:
        return sheet_submit(match_id=match.pk, seat_number=seat_number, user=None,
                            phase_number=phase_number, data=data, source=Submission.Source.BOT)
    except ServiceError as error:
        if error.code in {"stale_phase", "deadline_passed", "not_active"}:
            return None
        if error.code in WAITING:
            # Not an error: the next gameday's tick queues the bot again.
            logger.info("match %s: bot seat %s waits (%s)", match.pk, seat_number, error.code)
            return None
        raise
