"""Continuous phases: actions applied at once, the gameday tick, and striking logbook entries.

A continuous game has one open phase for the whole match. Every accepted action
and every gameday tick is an ``Action`` row whose ``seq`` is given under the match row lock, so
the logbook order is the order of commits. Each input's dice come from
``rng_for(match.seed, seq)``: replaying the stored, non-struck inputs reproduces the state, and
striking one entry out leaves everybody else's dice as they were.

The logbook is the rows, not the state: each row keeps the entries (events) its input gave, and
pages read a window of rows through the (match, seq) index (``logbook_window``), so no action,
tick, page or poll costs more as the match grows. Tick rows keep the state after them
(``state_after``): a replay (the logbook slider) starts from the last checkpoint, and only a
strike-out, which must rewrite every later entry, is as long as the match.

A continuous game implements the continuous part of the engine contract (``engine.base.Game``):
``next_tick_at``, ``gameday_key``, ``replay``, ``log_text`` and ``action_problems``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from durable.outbox import outbox_write, task_event
from engine import Game, PhaseKind, Problem, RuleError, TextError, rng_for
from games.audit_words import audit_words
from games.models import Action, LogbookStrike, Match, ModerationEntry, Phase, Seat
from games.parsing import id_or_none
from games.receipts import new_salt, receipt_for
from games.services.common import (
    Receipt,
    game_for,
    match_lock,
    phase_failure_record,
    rules_ending,
)
from games.services.errors import ServiceError
from games.services.match import match_set_status
from games.services.queue import signal_event
from games.words import problem_message

logger = logging.getLogger(__name__)

CONTINUOUS = PhaseKind.CONTINUOUS.value
MAX_TEXT_LENGTH = 20_000
MAX_ACTIONS_PER_SHEET = 20
SOURCES = {Action.Source.WEB, Action.Source.EMAIL, Action.Source.API, Action.Source.BOT}


@dataclass(frozen=True)
class ActionReceipt:
    """An accepted action: its place in the logbook and what happened."""

    seq: int
    seat: int
    data: dict[str, Any]
    at: datetime
    events: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False


def _now(now: datetime | None) -> datetime:
    if now is None:
        return timezone.now()
    if timezone.is_naive(now):
        raise ServiceError("invalid", _("Times must be time-zone aware."))
    return now


def _next_seq(match: Match) -> int:
    """The next logbook number; the caller holds the match lock (and saves ``logbook_seq``
    with the state), so no one else takes it. The unique (match, seq) constraint backs it."""
    match.logbook_seq += 1
    return match.logbook_seq


def _as_json_object(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise ServiceError("invalid", _("An action must be an object such as "
                           '{"type": "move", "to": "B4"}.'), [Problem("", _("Not an object."))])
    try:
        return json.loads(json.dumps(action))
    except (TypeError, ValueError):
        raise ServiceError("invalid", _("The action holds something that is not plain data."),
                           [Problem("", _("Not plain JSON data."))]) from None


def _refusal(error: RuleError) -> ServiceError:
    """A RuleError as the player reads it; a cooldown gets its own code (the time left)."""
    paths = {problem.path for problem in error.problems}
    code = "cooldown" if "cooldown" in paths else "window_closed" if "window" in paths \
        else "invalid"
    message = " ".join(problem_message(problem) for problem in error.problems)
    return ServiceError(code, message, error.problems)


def _seat_number(seat_number: Any) -> int:
    try:
        return int(seat_number)
    except (TypeError, ValueError, OverflowError):
        return -1


def _lock_with_seat(match_id: Any, seat_number: Any) -> tuple[Match, Seat]:
    """Lock the match row and read the seat in one round trip (the hot path of every action)."""
    number = _seat_number(seat_number)
    try:
        seat = (Seat.objects.select_related("match").select_for_update(of=("match",), no_key=True)
                .filter(match_id=match_id, number=number).first())
    except (ValueError, TypeError, OverflowError):
        seat = None
    if seat is None:
        match_lock(match_id)  # raises "no such match"; else there is no such seat
        raise ServiceError("not_found", _("This match has no seat %(number)s.")
                           % {"number": seat_number})
    return seat.match, seat


def _check_author(match: Match, seat_number: Any, user: AbstractBaseUser | None,
                  source: str, seat: Seat | None = None) -> Seat:
    if seat is None:
        seat = Seat.objects.filter(match=match, number=_seat_number(seat_number)).first()
    if seat is None:
        raise ServiceError("not_found", _("This match has no seat %(number)s.")
                           % {"number": seat_number})
    if source == Action.Source.BOT:
        if user is not None or not seat.bot:
            raise ServiceError("not_your_seat", _("Only a bot seat takes bot actions."))
    elif user is None or not user.is_authenticated or seat.user_id != user.pk:
        raise ServiceError("not_your_seat", _("Seat %(number)s is not yours.")
                           % {"number": seat.number})
    if seat.status == Seat.Status.FORFEITED:
        raise ServiceError("not_allowed", _("This seat has forfeited the match."))
    if seat.status == Seat.Status.CONCEDED:
        raise ServiceError("not_allowed", _("This seat has conceded the match."))
    return seat


def _active_continuous(match: Match) -> None:
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("This match is not in play."))
    if match.phase_kind != CONTINUOUS:
        raise ServiceError("unsupported_phase", _("This match is not in a continuous phase."))


def _finish_if_over(match: Match, game: Game, state: dict[str, Any], now: datetime) -> bool:
    """Finish the match if the rules say it is over (caller holds the lock; saves state)."""
    result = game.result(state)
    if result is None:
        return False
    match.result = rules_ending(game, result)
    match.save(update_fields=["state", "result", "logbook_seq"])
    Phase.objects.filter(match=match, number=match.phase_number,
                         status=Phase.Status.OPEN).update(status=Phase.Status.RESOLVED,
                                                          resolved_at=now)
    events: list[tuple] = []
    match_set_status(match=match, new_status=Match.Status.FINISHED, note=result.reason[:255],
                     events=events)
    events.append(signal_event("phase_resolved", match.pk, match_id=match.pk,
                               phase_number=match.phase_number, finished=True))
    outbox_write(events)
    return True


@transaction.atomic
def actions_apply(
    *,
    match_id: Any,
    seat_number: Any,
    user: AbstractBaseUser | None,
    action: Any,
    source: str,
    now: datetime | None = None,
) -> ActionReceipt:
    """Apply one action of a continuous phase at once, in its own transaction.

    Locks the match row: actions on one match are serialised and the logbook order (``seq``)
    is the order of commits. Refusals (cooldown with the time left, window closed, no AP, ...)
    raise ServiceError and write nothing.
    """
    now = _now(now)
    if source not in SOURCES:
        raise ServiceError("invalid", _("Unknown source “%(source)s”.") % {"source": source})
    data = _as_json_object(action)
    match, seat = _lock_with_seat(match_id, seat_number)
    _active_continuous(match)
    _check_author(match, seat_number, user, source, seat)
    game = game_for(match.game)
    if match.deadline is not None and match.deadline <= now:
        # The gameday has begun but the sweeper has not ticked it yet: tick first, so the
        # action lands in the new gameday (and after its tick in the logbook).
        _tick_before_action(match, game, now)
        if match.status != Match.Status.ACTIVE:
            raise ServiceError("not_active", _("This match is over."))
    seq = _next_seq(match)
    try:
        outcome = game.apply(match.state, seat.number, data, now, rng_for(match.seed, seq))
    except RuleError as error:
        raise _refusal(error) from None
    except Exception:  # an engine bug must not become a server error: refuse, write nothing
        logger.exception("match %s: applying %r for seat %s failed", match.pk, data,
                         seat.number)
        raise ServiceError("engine_error", _("This action could not be applied; nothing was "
                           "changed. The moderators have been told.")) from None
    Action.objects.create(match=match, seq=seq, kind=Action.Kind.ACTION, seat=seat.number,
                          data=data, at=now, source=source, events=list(outcome.events))
    match.state = outcome.state
    finished = _finish_if_over(match, game, outcome.state, now)
    if not finished:
        match.save(update_fields=["state", "logbook_seq"])
    return ActionReceipt(seq=seq, seat=seat.number, data=data, at=now,
                         events=list(outcome.events), finished=finished)


def _tick_before_action(match: Match, game: Game, now: datetime) -> None:
    """Tick what is due in a savepoint; if the tick fails, the action goes on without it (the
    engine then refuses it as "gameday opening") and the sweeper keeps retrying the tick."""
    saved = (match.state, match.deadline, match.logbook_seq, match.status)
    try:
        with transaction.atomic():
            _ticks_due_locked(match, game, now)
    except Exception:
        logger.exception("match %s: the gameday tick failed", match.pk)
        match.state, match.deadline, match.logbook_seq, match.status = saved


def actions_submit(
    *,
    match_id: Any,
    seat_number: Any,
    user: AbstractBaseUser | None,
    source: str,
    data: Any = None,
    text: str | None = None,
    now: datetime | None = None,
) -> Receipt:
    """An order sheet for a continuous phase (email reply, API): its actions are applied in
    order, each in its own transaction, under the same rules as the page (cooldown, window).

    ``data`` is one action or ``{"actions": [...]}``; ``text`` is read with the game's text
    grammar. Returns an ``orders.Receipt`` of the accepted actions with the refused ones as
    warnings; raises ServiceError if none was accepted.
    """
    match = Match.objects.filter(pk=id_or_none(match_id)).first()
    if match is None:
        raise ServiceError("not_found", _("There is no match %(number)s.")
                           % {"number": match_id})
    _active_continuous(match)
    seat = _check_author(match, seat_number, user, source)
    game = game_for(match.game)
    if text is not None:
        if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
            raise ServiceError("invalid", _("Actions must be text of at most %(count)s "
                                            "characters.") % {"count": MAX_TEXT_LENGTH})
        try:
            data = game.parse_text(match.state, seat.number, text)
        except TextError as error:
            raise ServiceError("invalid", _("The actions could not be read."),
                               error.problems) from None
        except RuleError as error:
            raise ServiceError("invalid", _("The actions are not valid."), error.problems) from None
    actions = data.get("actions") if isinstance(data, dict) and "actions" in data else [data]
    if not isinstance(actions, list) or not actions:
        raise ServiceError("invalid", _("There is no action in the sheet."))
    if len(actions) > MAX_ACTIONS_PER_SHEET:
        raise ServiceError("invalid", _("At most %(count)s actions at a time.")
                           % {"count": MAX_ACTIONS_PER_SHEET})
    accepted: list[dict[str, Any]] = []
    refused: list[Problem] = []
    first_error: ServiceError | None = None
    for index, action in enumerate(actions, start=1):
        try:
            receipt = actions_apply(match_id=match.pk, seat_number=seat.number, user=user,
                                    action=action, source=source, now=now)
        except ServiceError as error:
            first_error = first_error or error
            where = f"actions.{index}"
            refused += [Problem(where, p.text) for p in error.problems] or \
                [Problem(where, error.message)]
            if error.code in {"not_active", "unsupported_phase"}:
                break
            continue
        accepted.append(receipt.data)
        if receipt.finished:
            break
    if not accepted:
        assert first_error is not None
        raise ServiceError(first_error.code, first_error.message, refused)
    salt = new_salt()
    sheet = {"actions": accepted}
    return Receipt(submission_id=0, receipt=receipt_for(salt=salt, data=sheet), salt=salt,
                   revision=1, data=sheet, warnings=refused, complete=False)


def gamedays_due(*, now: datetime | None = None) -> list[int]:
    """Active continuous matches whose next gameday has begun (the sweeper's query)."""
    now = _now(now)
    return list(Match.objects.filter(status=Match.Status.ACTIVE, phase_kind=CONTINUOUS,
                                     deadline__lte=now).values_list("pk", flat=True))


MAX_CATCH_UP = 400  # gamedays ticked in one go after a long outage (then the next sweep goes on)


def gameday_tick(*, match_id: Any, now: datetime | None = None) -> bool:
    """Start the gameday(s) due on ``match_id`` exactly once, however often triggered.

    Locks the match; does nothing (False) unless the match is in a continuous phase and its
    next gameday (``Match.deadline``, from the game's ``next_tick_at``) has begun by ``now``.
    A tick that raises is counted on the phase (attempts, last_error) and after
    settings.RESOLVE_MAX_ATTEMPTS the phase is quarantined and the match parked (no deadline)
    until a moderator retries it (``phase_retry``), as for a poison resolution.
    """
    now = _now(now)
    try:
        with transaction.atomic():
            match = match_lock(match_id)
            if match.status != Match.Status.ACTIVE or match.phase_kind != CONTINUOUS:
                return False
            return _ticks_due_locked(match, game_for(match.game), now) > 0
    except ServiceError:
        return False  # no such match
    except (OperationalError, InterfaceError):
        raise  # the database failed, not the game: redelivery / the next sweep retries
    except Exception as error:  # a poison tick: counted, and quarantined after a few attempts
        logger.exception("match %s: the gameday tick failed", match_id)
        phase_number = Match.objects.filter(pk=match_id).values_list("phase_number",
                                                                     flat=True).first()
        if phase_number is not None:
            phase_failure_record(match_id, phase_number, error)
        return False


def _ticks_due_locked(match: Match, game: Game, now: datetime) -> int:
    """Apply every tick due by ``now`` (caller holds the match lock). Each tick is applied at
    its gameday's scheduled start, stored as a tick row (unique per gameday, so a duplicate can
    never be stored), and the match deadline moves to the following gameday."""
    ticks = 0
    events: list[tuple] = []
    while (match.status == Match.Status.ACTIVE and match.deadline is not None
           and match.deadline <= now and ticks < MAX_CATCH_UP):
        at = match.deadline
        key = str(game.gameday_key(match.state, at) or at.isoformat())
        if not Action.objects.filter(match=match, kind=Action.Kind.TICK, gameday=key).exists():
            seq = _next_seq(match)
            outcome = game.tick(match.state, at, rng_for(match.seed, seq))
            Action.objects.create(match=match, seq=seq, kind=Action.Kind.TICK, gameday=key,
                                  at=at, source=Action.Source.SCHEDULE,
                                  events=list(outcome.events), state_after=outcome.state)
            match.state = outcome.state
            ticks += 1
            events.append(signal_event("gameday_opened", match.pk, match_id=match.pk,
                                       gameday=key))
        following = game.next_tick_at(match.state, at)
        if following is not None and following <= at:
            raise RuntimeError(f"{game.slug}: next_tick_at did not move past {at}")
        match.deadline = following
        if _finish_if_over(match, game, match.state, at):
            outbox_write(events)
            return ticks
    match.save(update_fields=["state", "deadline", "logbook_seq"])
    Phase.objects.filter(match=match, number=match.phase_number).update(deadline=match.deadline)
    if ticks:
        bots = Seat.objects.filter(match=match, number__in=list(game.prompts(match.state)))
        events += [task_event("games.tasks.bot_submit", match.pk, match_id=match.pk,
                              seat_number=number, phase_number=match.phase_number)
                   for number in bots.exclude(bot="").values_list("number", flat=True)]
    outbox_write(events)
    return ticks


LOGBOOK_PAGE = 20  # rows of the logbook per page (match page, status poll, "load more")


def _as_input(row: Action) -> dict[str, Any]:
    return {"seq": row.seq, "kind": row.kind, "seat": row.seat,
            "action": row.data if row.kind == Action.Kind.ACTION else None,
            "at": row.at.isoformat()}


def logbook_inputs(match: Match, *, upto_seq: int | None = None,
                   after_seq: int = 0) -> list[dict[str, Any]]:
    """The stored, non-struck inputs in logbook order (those after ``after_seq``, up to
    ``upto_seq``), as the game's ``replay`` takes them."""
    rows = Action.objects.filter(match=match, struck=False, seq__gt=after_seq).order_by("seq")
    if upto_seq is not None:
        rows = rows.filter(seq__lte=upto_seq)
    return [_as_input(row) for row in rows.only("seq", "kind", "seat", "data", "at")]


def _checkpoint(match: Match, game: Game, upto_seq: int) -> tuple[int, dict[str, Any]]:
    """(seq, state) of the latest checkpoint at or before ``upto_seq``: a tick row's state, or
    the match's starting state (seq 0)."""
    found = (Action.objects.filter(match=match, kind=Action.Kind.TICK, seq__lte=upto_seq,
                                   state_after__isnull=False)
             .order_by("-seq").values_list("seq", "state_after").first())
    if found is not None:
        return found
    return 0, game.start(match.seats.count(), match.options, match.seed)


def match_replay(*, match: Match, upto_seq: int | None = None) -> dict[str, Any]:
    """The match's state rebuilt from its stored inputs (up to ``upto_seq``), e.g. for the
    logbook slider: from the last checkpoint (tick) before it, so it costs one gameday's
    inputs, not the match's. Read-only."""
    game = game_for(match.game)
    upto = match.logbook_seq if upto_seq is None else upto_seq
    seq, state = _checkpoint(match, game, upto)
    for _entry, after, _events in game.replay_steps(
            state, match.seed, logbook_inputs(match, upto_seq=upto, after_seq=seq)):
        state = after
    return state


def logbook_window(*, match: Match, before: int | None = None, after: int | None = None,
                   limit: int = LOGBOOK_PAGE) -> list[dict[str, Any]]:
    """A page of the logbook's rows, newest first: the latest ``limit``, those older than
    ``before`` ("load more") or the latest ones newer than ``after`` (a poll). One range scan
    of the (match, seq) index, whatever the match's length. Rows carry every field a page
    shows; a vote's choice is in its events: the game's view filters them for the reader."""
    rows = Action.objects.filter(match=match)
    if before is not None:
        rows = rows.filter(seq__lt=before)
    if after is not None:
        rows = rows.filter(seq__gt=after)
    return list(rows.order_by("-seq").values(
        "id", "seq", "kind", "seat", "at", "struck", "struck_reason", "events")[:limit])


@transaction.atomic
def logbook_strike(*, action_id: Any, by: AbstractBaseUser | None, reason: str) -> bool:
    """A moderator (``games.moderate_match``) strikes a logbook entry out, saying why: the
    match is replayed without it.

    Locks the match row; writes a LogbookStrike row (what the replay did) and the match's audit
    row. Idempotent: striking an entry that is already struck changes nothing (False).
    """
    from games.services.moderation import audit_write, moderator_check, reason_required

    moderator_check(by)
    reason = reason_required(reason)
    try:
        row = Action.objects.filter(pk=int(action_id)).first()
    except (TypeError, ValueError, OverflowError):
        row = None
    if row is None:
        raise ServiceError("not_found", _("There is no logbook entry %(number)s.")
                           % {"number": action_id})
    match = match_lock(row.match_id)
    row.refresh_from_db()
    if row.struck:
        return False
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("Only a match in play can be replayed."))
    if row.kind == Action.Kind.TICK:
        raise ServiceError("invalid", _("A gameday tick cannot be struck out, only actions."))
    if row.kind == Action.Kind.RESIGN:
        raise ServiceError("invalid", _("A concession cannot be struck out: it was the "
                                        "player's own decision."))
    now = timezone.now()
    row.struck, row.struck_at, row.struck_reason = True, now, reason[:255]
    row.struck_by = by if by is not None and by.is_authenticated else None
    row.save(update_fields=["struck", "struck_at", "struck_reason", "struck_by"])
    game = game_for(match.game)
    replayed = _replay_rewriting(match, game, after_seq=row.seq - 1)
    LogbookStrike.objects.create(action=row, match=match, by=row.struck_by, reason=reason[:255],
                                 entries_replayed=replayed)
    audit_write(match=match, kind=ModerationEntry.Kind.STRIKE, by=by, reason=reason,
                summary=audit_words(gettext_noop(
                    "a moderator struck out logbook entry #%(entry)s; the match was replayed "
                    "without it"), entry=row.seq),
                details={"entry": row.seq, "action_id": row.pk, "seat": row.seat,
                         "entries_replayed": replayed})
    if not _finish_if_over(match, game, match.state, now):
        match.save(update_fields=["state"])
    logger.info("match %s entry #%s struck by %s: %s", match.pk, row.seq, by, reason)
    return True


def _replay_rewriting(match: Match, game: Game, *, after_seq: int) -> int:
    """Replay the match from the last checkpoint at or before ``after_seq`` and rewrite what a
    strike-out changed after it: each later row's entries (numbered again; an input the rules
    now refuse keeps none) and each later tick's checkpoint; sets ``match.state`` (the caller
    holds the lock and saves it). The one operation as long as the match: returns how many
    inputs it replayed."""
    seq, state = _checkpoint(match, game, after_seq)
    rows = list(Action.objects.filter(match=match, struck=False, seq__gt=seq).order_by("seq"))
    changed = []
    steps = game.replay_steps(state, match.seed, [_as_input(row) for row in rows])
    for row, (_entry, state, events) in zip(rows, steps, strict=True):
        dirty = False
        if row.seq > after_seq and row.events != (events or []):
            row.events, dirty = events or [], True
        if row.kind == Action.Kind.TICK and row.state_after != state:
            row.state_after, dirty = state, True
        if dirty:
            changed.append(row)
    _rows_rewrite(changed)
    match.state = state
    return len(rows)


def _rows_rewrite(rows: list[Action]) -> None:
    """Write back the ``events`` and ``state_after`` of many rows with one prepared UPDATE
    (``bulk_update`` builds a CASE over the batch for every row: a strike-out at entry 10,000
    spent most of its time there)."""
    if not rows:
        return
    fields = [Action._meta.get_field(name) for name in ("events", "state_after")]
    quote = connection.ops.quote_name
    sql = (f"UPDATE {quote(Action._meta.db_table)} SET "
           + ", ".join(f"{quote(f.column)} = %s" for f in fields)
           + f" WHERE {quote(Action._meta.pk.column)} = %s")
    params = [[f.get_db_prep_value(getattr(row, f.attname), connection) for f in fields]
              + [row.pk] for row in rows]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)
