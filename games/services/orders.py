"""Submitting order sheets for sealed (simultaneous) and sequential phases: the one entry point
for web, e-mail, API and bots. Continuous phases take actions instead (``continuous``); a channel
that takes both uses ``submit.sheet_submit``."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from durable.worker import enqueue_on_commit
from engine import Game, PhaseKind, RuleError, rng_for
from games.models import Match, Phase, Seat, Submission
from games.receipts import new_salt, receipt_for
from games.services.common import Receipt, game_for, match_lock, required_seats
from games.services.errors import ServiceError
from games.services.resolve import phase_resolve_locked
from games.services.timing import clock_stop, expired_seats, uses_clock

logger = logging.getLogger(__name__)

MAX_TEXT_LENGTH = 20_000


def _as_int(value: Any) -> int:
    """A whole number from a form or JSON value; -1 (matches nothing) if it is not one."""
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return -1


def _check_author(seat: Seat, user: AbstractBaseUser | None, source: str) -> None:
    if source == Submission.Source.BOT:
        if user is not None or not seat.bot:
            raise ServiceError("not_your_seat", _("Only a bot seat takes bot sheets."))
        return
    if source == Submission.Source.DEFAULT:
        raise ServiceError("invalid", _("Default sheets are filled in by the resolution only."))
    if source == Submission.Source.CONDITIONAL:
        raise ServiceError("invalid", _("Planned moves are played by the lifecycle only."))
    if user is None or not user.is_authenticated or seat.user_id != user.pk:
        raise ServiceError("not_your_seat", _("Seat %(number)s is not yours.")
                           % {"number": seat.number})
    if seat.status == Seat.Status.FORFEITED:
        raise ServiceError("not_allowed", _("This seat has forfeited the match."))
    if seat.status == Seat.Status.CONCEDED:
        raise ServiceError("not_allowed", _("This seat has conceded the match."))


def _setting(game: Game, state: Any, seat: int, data: Any, text: str | None) -> Any:
    """The submission if it is an out-of-turn setting (read from ``text`` when given)."""
    if text is not None:
        if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
            return None
        try:
            data = game.parse_text(state, seat, text)
        except (RuleError, NotImplementedError):
            return None  # the ordinary path reports it
    return data if game.is_setting(data) else None


def setting_store(*, match: Match, game: Game, seat: Seat, data: Any, now: Any) -> Receipt:
    """Apply an out-of-turn setting to the locked ``match``: validated and applied by the
    engine, stored in the match state at once; no phase opens, no deadline moves, nothing is
    resolved, and a setting that would change who is prompted is refused. Its receipt, like a
    sheet's, lets the author check it later (there is no submission row: ``submission_id``
    is 0)."""
    state = match.state
    try:
        normalized = game.validate(state, seat.number, data)
        outcome = game.apply(state, seat.number, normalized, now,
                             rng_for(match.seed, match.phase_number))
    except RuleError as error:
        raise ServiceError("invalid", _("The setting is not valid."), error.problems) from None
    if game.prompts(outcome.state) != game.prompts(state):
        raise ServiceError("invalid", _("A setting may not change whose turn it is."))
    match.state = outcome.state
    match.save(update_fields=["state"])
    _setting_record(match, seat.number, normalized, now)
    salt = new_salt()
    return Receipt(submission_id=0, receipt=receipt_for(salt=salt, data=normalized), salt=salt,
                   revision=0, data=normalized, warnings=[], complete=False)


def _setting_record(match: Match, seat: int, data: Any, now: Any) -> None:
    """Keep the setting on the open phase, in order (the caller holds the match lock): a
    match record replays it there (``engine.record``). Secret like a sealed sheet."""
    phase = Phase.objects.filter(match=match, number=match.phase_number).only("settings").first()
    if phase is not None:
        phase.settings = [*(phase.settings or []),
                          {"seat": seat, "data": data, "at": now.isoformat()}]
        phase.save(update_fields=["settings"])


@transaction.atomic
def orders_submit(
    *,
    match_id: Any,
    seat_number: int,
    user: AbstractBaseUser | None,
    phase_number: int,
    data: Any = None,
    source: str,
    text: str | None = None,
) -> Receipt:
    """Validate and store (or replace) a seat's sheet for the open phase.

    Locks the match row. In a simultaneous phase the sheet stays sealed and, when every
    required seat is in, resolution is queued on commit; in a sequential phase it is applied
    at once under the same lock. A continuous phase is refused (``unsupported_phase``): its
    actions go through ``actions_submit``.
    """
    if source not in Submission.Source.values:
        raise ServiceError("invalid", _("Unknown source “%(source)s”.") % {"source": source})
    match = match_lock(match_id)
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("This match is not in play."))
    if match.paused_at is not None:
        raise ServiceError("paused", _("A moderator paused this match: orders are taken again "
                           "when it resumes."))
    try:
        phase_number = int(phase_number)
    except (TypeError, ValueError):
        raise ServiceError("unknown_phase", _("“%(value)s” is not a phase number.")
                           % {"value": phase_number}) from None
    phase = Phase.objects.filter(match=match, number=phase_number).first()
    if phase is None:
        raise ServiceError("unknown_phase", _("This match has no phase %(number)s.")
                           % {"number": phase_number})
    now = timezone.now()
    if phase.deadline is not None and phase.deadline <= now:
        raise ServiceError("deadline_passed", _("The deadline for this phase has passed."))
    if phase.status != Phase.Status.OPEN or phase.number != match.phase_number:
        raise ServiceError("stale_phase", _("This phase has already been resolved."))
    seat = Seat.objects.filter(match=match, number=_as_int(seat_number)).first()
    if seat is None:
        raise ServiceError("not_found", _("This match has no seat %(number)s.")
                           % {"number": seat_number})
    _check_author(seat, user, source)
    if seat.number in expired_seats(match, now):
        raise ServiceError("clock_ran_out", _("Your clock has run out for this phase: your seat "
                           "plays its default when the phase resolves."))

    game = game_for(match.game)
    state = match.state
    setting = _setting(game, state, seat.number, data, text)
    if setting is not None:
        return setting_store(match=match, game=game, seat=seat, data=setting, now=now)
    prompts = game.prompts(state)
    if seat.number not in prompts:
        raise ServiceError("not_your_turn", _("Seat %(number)s has nothing to do this phase.")
                           % {"number": seat.number})
    kind = prompts[seat.number].kind
    if kind not in (PhaseKind.SIMULTANEOUS, PhaseKind.SEQUENTIAL) or phase.kind != kind.value:
        raise ServiceError("unsupported_phase", _("This phase takes actions one at a time, not "
                           "an order sheet."))
    receipt = sheet_store(match=match, phase=phase, seat=seat, game=game, prompts=prompts,
                          data=data, text=text, source=source, now=now)
    if kind == PhaseKind.SEQUENTIAL and game.plans:  # the next seats' planned moves
        from games.services.plans import plans_follow

        plans_follow(match_id=match.pk, now=now)
    return receipt


def sheet_store(*, match: Match, phase: Phase, seat: Seat, game: Game,
                prompts: dict[int, Any], data: Any, text: str | None, source: str,
                now: Any) -> Receipt:
    """Validate and store ``seat``'s sheet for the open ``phase`` of the locked ``match``
    (the caller has checked the phase, the seat and its author): a sealed sheet waits for the
    others, a sequential one is applied at once. Raises ServiceError ("invalid") before
    writing anything for a sheet the engine refuses. Used by ``orders_submit`` and by the
    plans (``plans.plans_follow``), whose moves are played as if submitted then."""
    state = match.state
    kind = prompts[seat.number].kind
    try:
        if text is not None:
            if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
                raise ServiceError("invalid", _("Orders must be text of at most %(count)s "
                                                "characters.") % {"count": MAX_TEXT_LENGTH})
            data = game.parse_text(state, seat.number, text)
        normalized = game.validate(state, seat.number, data)
    except RuleError as error:
        raise ServiceError("invalid", _("The orders are not valid."), error.problems) from None
    except NotImplementedError:
        raise ServiceError("invalid", _("%(game)s does not take orders as text.")
                           % {"game": game.name}) from None
    warnings = list(game.warnings(state, seat.number, normalized))

    salt = new_salt()
    receipt = receipt_for(salt=salt, data=normalized)
    submission = Submission.objects.filter(phase=phase, seat=seat).first()
    if submission is None:
        submission = Submission.objects.create(
            phase=phase, seat=seat, data=normalized, source=source, salt=salt, receipt=receipt,
            revision=1, submitted_at=now, updated_at=now,
        )
    else:
        submission.data = normalized
        submission.source = source
        submission.salt = salt
        submission.receipt = receipt
        submission.revision += 1
        submission.updated_at = now
        submission.save()

    submitted = set(phase.submissions.values_list("seat__number", flat=True))
    required = required_seats(prompts)
    complete = required <= submitted
    if uses_clock(match) and clock_stop(match, seat.number, now):
        # The seat's clock stops; the phase is due when the last running clock runs out,
        # or now if every other seat is in or out of time.
        complete = required <= submitted | expired_seats(match, now)
        match.save(update_fields=["timing", "deadline"])
        Phase.objects.filter(pk=phase.pk).update(deadline=match.deadline)
    if kind == PhaseKind.SEQUENTIAL:
        # Applied at once, under the lock this transaction already holds. If the engine fails,
        # the sheet stays stored and the sweeper retries (and quarantines) the resolution.
        try:
            with transaction.atomic():
                phase_resolve_locked(match_id=match.pk, phase_number=phase.number)
        except Exception:
            logger.exception("applying match %s phase %s failed", match.pk, phase.number)
            match.complete_at = now
            match.save(update_fields=["complete_at"])
    elif complete and match.complete_at is None:
        match.complete_at = now
        match.save(update_fields=["complete_at"])
        enqueue_on_commit("games.tasks.resolve_phase", match_id=match.pk,
                          phase_number=phase.number)
    return Receipt(
        submission_id=submission.pk, receipt=receipt, salt=salt, revision=submission.revision,
        data=normalized, warnings=warnings, complete=complete,
    )
