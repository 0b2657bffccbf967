"""Moderators' tools on a match: pause, resume, extend, force resolve, retry a quarantined
phase, roll back, replace a player, void, abort, kick. Each takes the match lock, refuses with a
ServiceError what it cannot do, needs a reason and writes exactly one ``ModerationEntry``
(who, when, what, why; its ``summary`` is the short public line of the match's history, its
``details`` the arguments: never a sheet or the engine state).

Who may: a user with the ``games.moderate_match`` permission (the Moderator group has it;
superusers have every permission).
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from durable.outbox import outbox_write, task_event
from durable.worker import enqueue_on_commit
from engine import PhaseKind, RuleError
from engine.record import phase_replay
from games import dates
from games.audit_words import audit_words, english, span
from games.models import Match, ModerationEntry, Phase, Seat, Submission
from games.services.common import (
    game_for,
    match_lock,
    phase_open,
    removed_seats,
    required_seats,
)
from games.services.errors import ServiceError
from games.services.match import match_set_status
from games.services.seeking import held_before, seat_in_play_or_refuse, seat_offer
from games.services.tenures import Ending, tenure_begin, tenure_end
from games.services.timing import clocks_excuse, uses_clock
from games.services.votes import votes_seat_changed

logger = logging.getLogger(__name__)

CONTINUOUS = PhaseKind.CONTINUOUS.value
MAX_REASON_LENGTH = 2000


def duration_text(span: timedelta) -> str:
    """A span as people say it, in the reader's language: "1 day, 2 hours" (portal.dates)."""
    return dates.duration(span)


def moderator_check(by: AbstractBaseUser | None) -> None:
    if by is None or not by.is_authenticated or not by.has_perm("games.moderate_match"):
        raise ServiceError("not_allowed", _("Only a moderator may do this."))


def reason_required(reason: Any) -> str:
    """The moderator's reason, stripped; a ServiceError when it is missing or too long."""
    text = (reason or "").strip() if isinstance(reason, str | type(None)) else ""
    if not text:
        raise ServiceError("invalid", _("Say why (the reason is kept in the audit trail)."))
    if len(text) > MAX_REASON_LENGTH:
        raise ServiceError("invalid", _("The reason is too long (%(count)s characters at "
                                        "most).") % {"count": MAX_REASON_LENGTH})
    return text


def audit_write(*, match: Match, kind: str, by: AbstractBaseUser | None, reason: str,
                summary: dict[str, Any], details: dict[str, Any] | None = None,
                phase_number: int | None = None) -> ModerationEntry:
    """The audit row of one action (inside the action's transaction). ``summary`` is its
    public line as words to tell (``games.audit_words``): kept as such, and in English."""
    details = {**(details or {}), "words": summary}
    return ModerationEntry.objects.create(
        match=match, kind=kind, by=by if by is not None and by.is_authenticated else None,
        at=timezone.now(), phase_number=match.phase_number if phase_number is None
        else phase_number, reason=reason, summary=english(summary)[:255], details=details)


def _locked_for_moderation(match_id: Any, by: AbstractBaseUser | None, reason: Any
                           ) -> tuple[Match, str]:
    moderator_check(by)
    text = reason_required(reason)
    return match_lock(match_id), text


def _require_active(match: Match) -> None:
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("This match is not in play."))


def _open_phase(match: Match) -> Phase:
    phase = (Phase.objects.filter(match=match, number=match.phase_number)
             .exclude(status=Phase.Status.VOIDED).defer("state_before").first())
    if phase is None:
        raise ServiceError("not_active", _("This match has no open phase."))
    return phase


# -- pause and resume ---------------------------------------------------------------------------

@transaction.atomic
def match_pause(*, match_id: Any, by: AbstractBaseUser | None, reason: str) -> Match:
    """Stop the open phase's deadline: the sweeper leaves the match alone, orders are refused,
    and ``match_resume`` gives back the time that was left. Gameday matches cannot be paused
    (their gamedays begin at scheduled times)."""
    match, text = _locked_for_moderation(match_id, by, reason)
    _require_active(match)
    if match.paused_at is not None:
        raise ServiceError("paused", _("This match is already paused."))
    if match.phase_kind == CONTINUOUS:
        raise ServiceError("not_allowed", _("This match plays in gamedays at scheduled times: it "
                           "cannot be paused (void it or strike logbook entries instead)."))
    phase = _open_phase(match)
    if phase.status != Phase.Status.OPEN or match.deadline is None:
        raise ServiceError("not_allowed", _("Only an open phase with a deadline can be paused."))
    now = timezone.now()
    left = max(match.deadline - now, timedelta(0))
    match.paused_at, match.paused_remaining = now, left
    match.deadline = match.complete_at = match.queued_at = None
    match.save(update_fields=["paused_at", "paused_remaining", "deadline", "complete_at",
                              "queued_at"])
    Phase.objects.filter(pk=phase.pk).update(deadline=None)
    audit_write(match=match, kind=ModerationEntry.Kind.PAUSE, by=by, reason=text,
                summary=audit_words(gettext_noop("a moderator paused the match (%(left)s left)"),
                                    left=span(left)),
                details={"left_seconds": left.total_seconds()})
    return match


@transaction.atomic
def match_resume(*, match_id: Any, by: AbstractBaseUser | None, reason: str) -> Match:
    """Restart a paused match's clock with the time that was left; a phase whose sheets were
    all in is resolved at once."""
    match, text = _locked_for_moderation(match_id, by, reason)
    _require_active(match)
    if match.paused_at is None:
        raise ServiceError("not_paused", _("This match is not paused."))
    now = timezone.now()
    left = match.paused_remaining or timedelta(0)
    paused_at = match.paused_at
    paused_for = now - paused_at
    match.deadline = now + left
    match.paused_at = match.paused_remaining = None
    # On clocks the pause is excused for every seat (as an outage is): each running clock's
    # due time moves on by it, and the deadline is the last of them again.
    clocks_excuse(match, paused_at, now)
    phase = _open_phase(match)
    game = game_for(match.game)
    submitted = set(Submission.objects.filter(phase=phase).values_list("seat__number",
                                                                       flat=True))
    required = required_seats(game.prompts(match.state))
    if submitted and required <= submitted:
        match.complete_at = now
        enqueue_on_commit("games.tasks.resolve_phase", match_id=match.pk,
                          phase_number=phase.number)
    match.save(update_fields=["deadline", "paused_at", "paused_remaining", "complete_at",
                              "timing"])
    Phase.objects.filter(pk=phase.pk).update(deadline=match.deadline)
    if match.allow_vacations:
        from games.services.vacation import leave_after_pause

        leave_after_pause(match=match, paused_at=paused_at, now=now)
    audit_write(match=match, kind=ModerationEntry.Kind.RESUME, by=by, reason=text,
                summary=audit_words(
                    gettext_noop("a moderator resumed the match after %(paused)s (%(left)s left)"),
                    paused=span(paused_for), left=span(left)),
                details={"left_seconds": left.total_seconds(),
                         "paused_seconds": paused_for.total_seconds()})
    return match


# -- extend -------------------------------------------------------------------------------------

@transaction.atomic
def match_deadline_extend(*, match_id: Any, hours: Any, by: AbstractBaseUser | None,
                          reason: str) -> bool:
    """Make the open phase's deadline at least ``hours`` from now, within the caps in settings
    (MODERATION_EXTEND_MAX_PHASE_HOURS per phase, MODERATION_EXTEND_MAX_MATCH_HOURS per match,
    counting what was added). Idempotent: asking twice gives the same deadline as asking once
    (False, and no audit row, when nothing changed). Refused for a gameday (continuous) match:
    its next gameday begins at a scheduled time, and for a paused one."""
    try:
        extension = timedelta(hours=float(hours))
    except (TypeError, ValueError, OverflowError):
        raise ServiceError("invalid", _("“%(value)s” is not a number of hours.")
                           % {"value": hours}) from None
    phase_cap = timedelta(hours=settings.MODERATION_EXTEND_MAX_PHASE_HOURS)
    match_cap = timedelta(hours=settings.MODERATION_EXTEND_MAX_MATCH_HOURS)
    if not timedelta(0) < extension <= phase_cap:
        raise ServiceError("capped", _("A deadline can be extended by up to %(cap)s from now.")
                           % {"cap": duration_text(phase_cap)})
    match, text = _locked_for_moderation(match_id, by, reason)
    if match.status != Match.Status.ACTIVE or (match.deadline is None
                                               and match.paused_at is None):
        raise ServiceError("not_active", _("Only an open phase of a match in play has a deadline."))
    if match.phase_kind == CONTINUOUS:
        raise ServiceError("not_allowed", _("This match plays in gamedays: its next gameday begins "
                           "at a scheduled time, which is not a deadline and never moves."))
    if uses_clock(match):
        raise ServiceError("not_allowed", _("This match plays on clocks: each seat's time is its "
                           "own bank, not a deadline to extend."))
    if match.paused_at is not None:
        raise ServiceError("paused", _("This match is paused: resume it first."))
    now = timezone.now()
    target = now + extension
    # A minute of slack so a double-submitted form is a no-op, not a creeping extension.
    if match.deadline >= target - timedelta(minutes=1):
        return False
    added = target - match.deadline
    phase = _open_phase(match)
    if phase.extended + added > phase_cap:
        raise ServiceError("capped", _("This phase was already extended by %(done)s; the cap "
                                       "is %(cap)s per phase.")
                           % {"done": duration_text(phase.extended),
                              "cap": duration_text(phase_cap)})
    if match.extended_total + added > match_cap:
        raise ServiceError("capped", _("This match was already extended by %(done)s; the cap "
                                       "is %(cap)s per match.")
                           % {"done": duration_text(match.extended_total),
                              "cap": duration_text(match_cap)})
    match.deadline = target
    match.extended_total += added
    match.save(update_fields=["deadline", "extended_total"])
    Phase.objects.filter(pk=phase.pk).update(deadline=target, extended=phase.extended + added)
    audit_write(match=match, kind=ModerationEntry.Kind.EXTEND, by=by, reason=text,
                summary=audit_words(gettext_noop("a moderator extended the deadline by %(added)s"),
                                    added=span(added)),
                details={"added_seconds": added.total_seconds(), "hours_from_now": float(hours),
                         "deadline": target.isoformat()})
    return True


# -- force resolve ------------------------------------------------------------------------------

@transaction.atomic
def phase_force_resolve(*, match_id: Any, by: AbstractBaseUser | None, reason: str) -> int:
    """Resolve the open phase now, as if its deadline had passed: seats without a sheet get
    their defaults (and a missed-deadline mark). Returns the phase number resolved."""
    from games.services.resolve import phase_resolve_locked

    match, text = _locked_for_moderation(match_id, by, reason)
    _require_active(match)
    if match.paused_at is not None:
        raise ServiceError("paused", _("This match is paused: resume it first."))
    if match.phase_kind == CONTINUOUS:
        raise ServiceError("not_allowed", _("A gameday phase takes actions one at a time; it has "
                           "nothing to resolve."))
    phase = _open_phase(match)
    if phase.status != Phase.Status.OPEN:
        raise ServiceError("not_allowed", _("This phase is quarantined: retry it instead."))
    number = phase.number
    missing = sorted(required_seats(game_for(match.game).prompts(match.state))
                     - set(Submission.objects.filter(phase=phase)
                           .values_list("seat__number", flat=True)))
    now = timezone.now()
    Phase.objects.filter(pk=phase.pk).update(deadline=now)
    match.deadline = now
    match.save(update_fields=["deadline"])
    try:
        with transaction.atomic():
            done = phase_resolve_locked(match_id=match.pk, phase_number=number)
    except RuleError as error:
        raise ServiceError("engine_failed", _("The rules refused to resolve this phase."),
                           error.problems) from None
    except Exception as error:  # the engine failed: nothing changes
        logger.exception("force resolve of match %s phase %s failed", match.pk, number)
        raise ServiceError("engine_failed", _("Resolving the phase failed: %(error)s")
                           % {"error": error}) from None
    if not done:
        raise ServiceError("not_allowed", _("This phase could not be resolved now."))
    match.refresh_from_db()
    audit_write(match=match, kind=ModerationEntry.Kind.FORCE_RESOLVE, by=by, reason=text,
                phase_number=number,
                summary=audit_words(
                    gettext_noop("a moderator resolved phase %(phase)s before its deadline")
                    if not missing else gettext_noop(
                        "a moderator resolved phase %(phase)s before its deadline (defaults for "
                        "seat %(seats)s)") if len(missing) == 1 else gettext_noop(
                        "a moderator resolved phase %(phase)s before its deadline (defaults for "
                        "seats %(seats)s)"),
                    phase=number, seats=", ".join(map(str, missing))),
                details={"phase": number, "defaults_for": missing})
    return number


# -- roll back ----------------------------------------------------------------------------------

@transaction.atomic
def phase_retry(*, phase_id: Any, by: AbstractBaseUser | None, reason: str) -> bool:
    """Reopen a quarantined phase (its resolution failed ``RESOLVE_MAX_ATTEMPTS`` times) and
    queue its resolution again. Idempotent: a phase that is not quarantined, or whose match is
    not in play, is left alone (False, no audit row)."""
    moderator_check(by)
    text = reason_required(reason)
    try:
        phase = Phase.objects.defer("state_before").filter(pk=int(phase_id)).first()
    except (TypeError, ValueError):
        phase = None
    if phase is None:
        raise ServiceError("not_found", _("There is no phase %(number)s.")
                           % {"number": phase_id})
    match = match_lock(phase.match_id)
    phase.refresh_from_db(fields=["status", "attempts", "deadline"])
    if phase.status != Phase.Status.QUARANTINED or match.status != Match.Status.ACTIVE:
        return False
    attempts = phase.attempts
    phase.status = Phase.Status.OPEN
    phase.attempts = 0
    phase.save(update_fields=["status", "attempts"])
    match.deadline = phase.deadline
    match.complete_at = timezone.now()  # the sweeper re-queues it if this queueing is lost
    match.save(update_fields=["deadline", "complete_at"])
    enqueue_on_commit("games.tasks.resolve_phase", match_id=match.pk, phase_number=phase.number)
    # (not the phase's last error: an engine's message may quote a sealed sheet)
    audit_write(match=match, kind=ModerationEntry.Kind.RETRY, by=by, reason=text,
                summary=audit_words(gettext_noop("a moderator had phase %(phase)s resolved again"),
                                    phase=phase.number),
                details={"phase": phase.number, "attempts": attempts},
                phase_number=phase.number)
    logger.info("phase %s of match %s retried by %s", phase.number, match.pk, by)
    return True


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def _replay_to(match: Match, game: Any, phases: list[Phase], to_phase: int) -> Any:
    """The state phase ``to_phase`` opened on, replayed from phase 1's start with every
    resolved phase's stored settings, sheets and dice (as a match record replays them,
    ``engine.record.phase_replay``); each step must give the stored state of the next phase,
    or the replay is refused (the rules changed since)."""
    state = phases[0].state_before
    for phase in phases[:to_phase - 1]:
        if _as_json(state) != _as_json(phase.state_before):
            raise ServiceError("replay_mismatch", _(
                "Replaying phase %(number)s does not give the position it was played on: the "
                "rules have changed since, so it cannot be rolled back.")
                % {"number": phase.number - 1})
        state, _events = phase_replay(game, state, match.seed, {
            "number": phase.number, "kind": phase.kind, "settings": phase.settings or [],
            "closed": phase.status == Phase.Status.CLOSED,
            "resolved_at": phase.resolved_at.isoformat() if phase.resolved_at else None,
            "submissions": [{"seat": int(seat), "data": entry["data"]}
                            for seat, entry in (phase.revealed or {}).items()],
            "removed": removed_seats(phase.revealed)})
    target = phases[to_phase - 1]
    if _as_json(state) != _as_json(target.state_before):
        raise ServiceError("replay_mismatch", _(
            "Replaying up to phase %(number)s does not give the position it was played on: the "
            "rules have changed since, so it cannot be rolled back.") % {"number": to_phase})
    return target.state_before


@transaction.atomic
def match_rollback(*, match_id: Any, to_phase: Any, by: AbstractBaseUser | None,
                   reason: str) -> Match:
    """Take the match back to the start of phase ``to_phase``: its position is replayed from
    the stored sheets of the phases before it; it and every later phase are kept as voided
    history (never deleted: their revealed sheets stay in the admin, unrevealed ones stay
    sealed) and phase ``to_phase`` opens again with a fresh deadline. Not for gameday
    matches (strike logbook entries instead)."""
    match, text = _locked_for_moderation(match_id, by, reason)
    _require_active(match)
    try:
        to_phase = int(to_phase)
    except (TypeError, ValueError):
        raise ServiceError("invalid", _("“%(value)s” is not a phase number.")
                           % {"value": to_phase}) from None
    if not 1 <= to_phase <= match.phase_number:
        raise ServiceError("invalid", _("Choose a phase from 1 to %(number)s (the match is in "
                                        "phase %(number)s; choosing it restarts it).")
                           % {"number": match.phase_number})
    phases = list(Phase.objects.filter(match=match).exclude(status=Phase.Status.VOIDED)
                  .order_by("number"))
    if [p.number for p in phases] != list(range(1, len(phases) + 1)):
        raise ServiceError("replay_mismatch", _("This match's phase records are incomplete."))
    if any(p.kind == CONTINUOUS for p in phases):
        raise ServiceError("not_allowed", _("This match plays in gamedays: strike logbook entries "
                           "instead of rolling it back."))
    game = game_for(match.game)
    state = _replay_to(match, game, phases, to_phase)
    voided = [p.number for p in phases if p.number >= to_phase]
    Phase.objects.filter(match=match, number__gte=to_phase).exclude(
        status=Phase.Status.VOIDED).update(status=Phase.Status.VOIDED)
    from games.services.votes import concessions_roll_back

    concessions_roll_back(match=match, from_phase=to_phase)  # their seats play again
    now = timezone.now()
    events: list[tuple] = []
    bots = dict(Seat.objects.filter(match=match).exclude(bot="").values_list("number", "bot"))
    match.paused_at = match.paused_remaining = None
    if phase_open(match=match, game=game, state=state, number=to_phase, now=now,
                  events=events, bots=bots) is None:
        raise ServiceError("invalid", _("Nobody has anything to do in phase %(number)s.")
                           % {"number": to_phase})
    match.queued_at = None
    match.save(update_fields=["state", "phase_number", "phase_kind", "phase_name", "deadline",
                              "complete_at", "queued_at", "paused_at", "paused_remaining"])
    outbox_write(events)
    audit_write(match=match, kind=ModerationEntry.Kind.ROLLBACK, by=by, reason=text,
                phase_number=voided[-1],
                summary=audit_words(
                    gettext_noop("a moderator rolled the match back to phase %(phase)s "
                                 "(phases %(first)s–%(last)s voided)") if len(voided) > 1
                    else gettext_noop("a moderator rolled the match back to phase %(phase)s "
                                      "(phase %(first)s voided)"),
                    phase=to_phase, first=voided[0], last=voided[-1]),
                details={"to_phase": to_phase, "voided_phases": voided})
    return match


# -- seats --------------------------------------------------------------------------------------

def _seat_of(match: Match, seat_number: Any) -> Seat:
    seat = Seat.objects.filter(match=match, number=_whole(seat_number)).select_related(
        "user").first()
    if seat is None:
        raise ServiceError("not_found", _("This match has no seat %(number)s.")
                           % {"number": seat_number})
    return seat


def _whole(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return -1


def _who(seat: Seat) -> Any:
    """Who holds ``seat``, as audit words (a username as it is)."""
    if seat.user_id is not None:
        return seat.user.get_username()
    return audit_words(gettext_noop("the bot %(bot)s"), bot=seat.bot) if seat.bot \
        else audit_words(gettext_noop("nobody"))


@transaction.atomic
def seat_moderate_replace(*, match_id: Any, seat_number: Any, by: AbstractBaseUser | None,
                          reason: str, user: AbstractBaseUser | None = None, bot: str = "",
                          open_seat: bool = False) -> Seat:
    """Hand a seat of a match in play to ``user``, to ``bot``, or (``open_seat``) to whoever
    first takes it with the match's invite link; the seat keeps its position and starts with a
    clean miss record. A bot handed a seat whose sheet is due plays at once."""
    match, text = _locked_for_moderation(match_id, by, reason)
    _require_active(match)
    if sum([user is not None, bool(bot), bool(open_seat)]) != 1:
        raise ServiceError("invalid", _("Choose one: a player, a bot, or open the seat."))
    seat = _seat_of(match, seat_number)
    if seat.status != Seat.Status.FORFEITED:  # (the admin's way back for a forfeited seat)
        seat_in_play_or_refuse(match=match, seat=seat, game=game_for(match.game))
    before = _who(seat)
    if user is not None:
        if not user.is_authenticated or not getattr(user, "pk", None):
            raise ServiceError("invalid", _("The new player is not a saved account."))
        if Seat.objects.filter(match=match, user=user).exclude(pk=seat.pk).exists():
            raise ServiceError("already_seated", _("%(player)s already has a seat in this match.")
                               % {"player": user})
        if user.pk == seat.user_id:
            raise ServiceError("invalid", _("%(player)s already holds seat %(seat)s.") % {
                "player": user, "seat": seat.number})
        # (Handing a seat back to its own former player tells them nothing new.)
        if held_before(match=match, user=user, seat_number=seat.number):
            raise ServiceError("held_before", _("%(player)s held another seat of this match "
                                                "before: they cannot take this one.")
                               % {"player": user})
        seat.user, seat.bot, seat.status = user, "", Seat.Status.TAKEN
        after = user.get_username()
    elif bot:
        game = game_for(match.game)
        if bot not in game.bots:
            raise ServiceError("invalid", _("%(game)s has no bot “%(bot)s” (bots: %(bots)s).")
                               % {"game": game.name, "bot": bot,
                                  "bots": ", ".join(game.bots) or _("none")})
        seat.user, seat.bot, seat.status = None, bot, Seat.Status.TAKEN
        after = audit_words(gettext_noop("the bot %(bot)s"), bot=bot)
    else:
        seat.user, seat.bot, seat.status = None, "", Seat.Status.OPEN
        after = audit_words(gettext_noop("a new player (invite link)"))
    now = timezone.now()
    seat.missed_in_row = 0
    seat.joined_at = now if seat.status == Seat.Status.TAKEN else None
    seat.offer_token = seat.offered_at = None  # (no longer seeking a commander, if it was)
    seat.save(update_fields=["user", "bot", "status", "missed_in_row", "joined_at",
                             "offer_token", "offered_at"])
    ended = tenure_end(match_id=match.pk, seat_number=seat.number, at=now,
                       ending=Ending.REPLACED)
    if seat.user_id is not None:
        tenure_begin(match=match, seat=seat, at=now)
    if ended:  # a player's command ended: the proposals put to them close
        outbox_write(votes_seat_changed(match=match, now=now))
    if seat.bot and match.phase_kind != CONTINUOUS and match.paused_at is None:
        phase = _open_phase(match)
        if not Submission.objects.filter(phase=phase, seat=seat).exists():
            outbox_write([task_event("games.tasks.bot_submit", match.pk, match_id=match.pk,
                                     seat_number=seat.number, phase_number=phase.number)])
    summary = (audit_words(gettext_noop("a moderator opened seat %(seat)s for a new player"),
                           seat=seat.number) if open_seat
               else audit_words(gettext_noop("a moderator handed seat %(seat)s from %(before)s "
                                             "to %(after)s"),
                                seat=seat.number, before=before, after=after))
    audit_write(match=match, kind=ModerationEntry.Kind.REPLACE, by=by, reason=text,
                summary=summary, details={"seat": seat.number, "before": english(before),
                                          "after": english(after), "open": bool(open_seat)})
    return seat


@transaction.atomic
def seat_kick(*, match_id: Any, seat_number: Any, by: AbstractBaseUser | None,
              reason: str) -> Seat:
    """Remove a player from a match in play for abuse: the seat seeks a new commander
    (``games.services.seeking``: its defaults, or the bot if the match allows, play it until
    then) and the player can no longer act in it, nor take a seat of it again (``seat_join``
    and ``seat_take`` read the audit row)."""
    match, text = _locked_for_moderation(match_id, by, reason)
    _require_active(match)
    seat = _seat_of(match, seat_number)
    if seat.user_id is None:
        raise ServiceError("invalid", _("Seat %(number)s has no player to remove.")
                           % {"number": seat.number})
    kicked, kicked_id = seat.user.get_username(), seat.user_id
    seat_offer(match=match, seat=seat, now=timezone.now(), ending=Ending.KICKED)
    audit_write(match=match, kind=ModerationEntry.Kind.KICK, by=by, reason=text,
                summary=audit_words(gettext_noop(
                    "a moderator removed the player of seat %(seat)s for abuse"), seat=seat.number),
                details={"seat": seat.number, "user": kicked, "user_id": kicked_id})
    return seat


# -- abort --------------------------------------------------------------------------------------

@transaction.atomic
def match_moderate_abort(*, match_id: Any, by: AbstractBaseUser | None, reason: str) -> Match:
    """Abort a match that has not ended (open in the lobby, or in play), as its creator may
    (``match_abort``): no result; the reason is the status change's note."""
    match, text = _locked_for_moderation(match_id, by, reason)
    match_set_status(match=match, new_status=Match.Status.ABORTED, by=by, note=text[:255])
    Phase.objects.filter(match=match, status=Phase.Status.OPEN).update(deadline=None)
    audit_write(match=match, kind=ModerationEntry.Kind.ABORT, by=by, reason=text,
                summary=audit_words(gettext_noop("a moderator aborted the match")))
    return match


# -- void ---------------------------------------------------------------------------------------

@transaction.atomic
def match_void(*, match_id: Any, by: AbstractBaseUser | None, reason: str) -> Match:
    """Void a match in play or ended: no result; its ladder ratings are replayed without it and
    a tournament board counts as unplayed (adjudicated) by the competitions' ``match_ended``
    receiver. The phases are kept."""
    match, text = _locked_for_moderation(match_id, by, reason)
    if match.status not in (Match.Status.ACTIVE, Match.Status.FINISHED, Match.Status.ABORTED):
        raise ServiceError("not_allowed", _("Only a match in play or ended can be voided."))
    old_result = match.result
    match.result = None
    match.paused_at = match.paused_remaining = None
    match.save(update_fields=["result", "paused_at", "paused_remaining"])
    match_set_status(match=match, new_status=Match.Status.VOIDED, by=by, note=text[:255])
    Phase.objects.filter(match=match, status=Phase.Status.OPEN).update(deadline=None)
    audit_write(match=match, kind=ModerationEntry.Kind.VOID, by=by, reason=text,
                summary=audit_words(gettext_noop("a moderator voided the match: it has no result")),
                details={"result_before": (old_result or {}).get("reason", "")})
    return match
