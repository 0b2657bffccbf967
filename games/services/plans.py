"""Plans: moves a seat says ahead of its turn in a sequential game ("if Blue plays X, I play
Y; then if Blue plays Z, W"), played by the lifecycle the moment the moves before them arrive
(docs/conditional-orders.md).

A plan is a tree of branches, each ``{"when": [{"seat": n, "move": move}, ...], "play": move,
"then": [branches]}``: ``when`` lists, in order, the moves every other seat plays between the
plan's start (``ConditionalPlan.after_phase``) and the seat's next turn. When that turn opens
and a branch's ``when`` is what was played, the branch's move is played for the seat at once
through ``orders.sheet_store`` (source "conditional", a receipt as for any sheet) and its
``then`` becomes the plan; when none matches, the plan is cleared and the seat told; a move the
engine refuses then is dropped, never half-played, and the seat told. Moves are compared in
the game's canonical form (``Game.plan_move``), which needs no position: whether a planned move
is legal is only known, and only decided, when it is played.

Sealed like a sheet: only the seat's own player reads its plan (``plan_for``); a plan ends
with their command of the seat.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import Game, PhaseKind, Problem, RuleError
from games.models import ConditionalPlan, ConditionalSheet, Match, Phase, Seat, Submission
from games.parsing import id_or_none
from games.plans import (
    NOTICE_CHANGED,
    NOTICE_ENDED,
    NOTICE_ILLEGAL,
    NOTICE_UNMATCHED,
    conditions_parse,
    plan_graft,
    plan_parse,
    plans_offered,
)
from games.receipts import canonical_json as canonical
from games.services.common import game_for, match_lock
from games.services.errors import ServiceError

logger = logging.getLogger(__name__)

# A plan's bounds: how deep its branches nest, how many branches one level offers, how many
# moves it holds in all, and how many moves a condition lists.
MAX_DEPTH = 6
MAX_BRANCHES = 8
MAX_MOVES = 120
MAX_WHEN = 6
# How many planned moves one submission may set off in a row (every seat's plan in turn).
MAX_CHAIN = 100
# How many phases one planned move may take (``Game.plan_step``).
MAX_STEPS = 8


def plan_for(*, match: Match, seat: Seat | None, user: AbstractBaseUser | None
             ) -> ConditionalPlan | None:
    """``seat``'s plan if ``user`` holds the seat (no one else ever reads it), else None."""
    if seat is None or user is None or not user.is_authenticated or seat.user_id != user.pk:
        return None
    return ConditionalPlan.objects.filter(match=match, seat=seat, user=user).first()


def plan_normalize(*, game: Game, seat: int, seats: list[int], tree: Any) -> list[dict]:
    """The plan ``tree`` in canonical form (every move by ``Game.plan_move``), or a
    ServiceError ("invalid") listing every problem with its path ("0.then.1.when.0.move")."""
    problems: list[Problem] = []
    others = set(seats) - {seat}
    counted = [0]

    def branches(raw: Any, path: str, depth: int) -> list[dict]:
        if not isinstance(raw, list):
            problems.append(Problem(path, _("A plan is a list of branches.")))
            return []
        if depth > MAX_DEPTH:
            problems.append(Problem(path, _("A plan goes at most %(count)s moves deep.")
                                    % {"count": MAX_DEPTH}))
            return []
        if len(raw) > MAX_BRANCHES:
            problems.append(Problem(path, _("At most %(count)s branches at each step.")
                                    % {"count": MAX_BRANCHES}))
            return []
        out = []
        for index, item in enumerate(raw):
            at = f"{path}.{index}" if path else str(index)
            if not isinstance(item, dict) or set(item) - {"when", "play", "then"} \
                    or "play" not in item:
                problems.append(Problem(at, _('A branch is {"when": [...], "play": ..., '
                                              '"then": [...]}.')))
                continue
            when = item.get("when", [])
            if not isinstance(when, list) or len(when) > MAX_WHEN:
                problems.append(Problem(f"{at}.when", _("A condition lists at most %(count)s "
                                        "moves of the other seats.") % {"count": MAX_WHEN}))
                continue
            moves = []
            for number, entry in enumerate(when):
                where = f"{at}.when.{number}"
                other = entry.get("seat") if isinstance(entry, dict) else None
                if type(other) is not int or other not in others:
                    problems.append(Problem(where, _("A condition names another seat of the "
                                                     "match and its move.")))
                    continue
                moves.append({"seat": other,
                              "move": move(other, entry.get("move"), f"{where}.move")})
            played = move(seat, item["play"], f"{at}.play")
            out.append({"when": moves, "play": played,
                        "then": branches(item.get("then", []), f"{at}.then", depth + 1)})
        seen = [canonical(branch["when"]) for branch in out]
        if len(set(seen)) < len(seen):
            problems.append(Problem(path, _("Two branches have the same condition.")))
        return out

    def move(owner: int, raw: Any, path: str) -> Any:
        counted[0] += 1
        try:
            return game.plan_move(owner, raw)
        except RuleError as error:
            problems.extend(Problem(f"{path}.{p.path}" if p.path else path, p.text)
                            for p in error.problems)
            return None

    normalized = branches(tree, "", 1)
    if counted[0] > MAX_MOVES:
        problems.insert(0, Problem("", _("A plan holds at most %(count)s moves.")
                                   % {"count": MAX_MOVES}))
    if problems:
        raise ServiceError("invalid", _("The plan is not valid."), problems)
    return normalized


def _plan_seat(match: Match, seat_number: Any, user: AbstractBaseUser | None) -> Seat:
    """The seat whose plan ``user`` sets or clears, checked (the caller holds the lock)."""
    seat = Seat.objects.filter(match=match, number=id_or_none(seat_number) or -1).first()
    if seat is None:
        raise ServiceError("not_found", _("This match has no seat %(number)s.")
                           % {"number": seat_number})
    if user is None or not user.is_authenticated or seat.user_id != user.pk:
        raise ServiceError("not_your_seat", _("Seat %(number)s is not yours.")
                           % {"number": seat.number})
    return seat


def _plans_open(match: Match, seat: Seat, game: Any) -> None:
    """Refuse a plan or a sheet entered ahead where none is taken now: a match not in play or
    paused, a seat out of the match."""
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("This match is not in play."))
    if match.paused_at is not None:
        raise ServiceError("paused", _("A moderator paused this match: plans are taken again "
                           "when it resumes."))
    if seat.status != Seat.Status.TAKEN or seat.number in game.seats_out(match.state):
        raise ServiceError("seat_out", _("This seat is out of the match."))


@transaction.atomic
def plan_set(*, match_id: Any, seat_number: Any, user: AbstractBaseUser | None,
             tree: Any = None, text: str | None = None) -> ConditionalPlan:
    """Store (or replace) the seat's plan (a ``tree``, or its ``text`` in the plan grammar,
    ``games.plans``), its conditions counted from the phase open now. Locks the match.
    Refused for a game without plans, a match not in play or paused, a seat out of the
    match; an empty plan clears the plan (as ``plan_clear``)."""
    match = match_lock(match_id)
    seat = _plan_seat(match, seat_number, user)
    game = game_for(match.game)
    if not plans_offered(game):
        raise ServiceError("unsupported_phase", _("%(game)s takes no plans.")
                           % {"game": game.name})
    _plans_open(match, seat, game)
    if match.phase_kind != PhaseKind.SEQUENTIAL.value:
        raise ServiceError("unsupported_phase", _("Moves are planned in turns taken one seat "
                           "at a time."))
    seats = list(match.seats.values_list("number", flat=True))
    if text is not None:
        try:
            tree = plan_parse(game, match.state, seat.number, seats, text)
        except RuleError as error:
            raise ServiceError("invalid", _("The plan is not valid."), error.problems) from None
    normalized = plan_normalize(game=game, seat=seat.number, seats=seats, tree=tree)
    now = timezone.now()
    plan = ConditionalPlan.objects.filter(seat=seat).first()
    if not normalized:
        if plan is not None:
            plan.delete()
        return ConditionalPlan(match=match, seat=seat, user=user, tree=[],
                               after_phase=match.phase_number, updated_at=now)
    if plan is None:
        plan = ConditionalPlan(match=match, seat=seat, user=user)
    plan.user = user
    plan.tree = normalized
    plan.after_phase = match.phase_number - game.plan_begun(match.state)
    plan.played = 0
    plan.notice = None
    plan.updated_at = now
    plan.save()
    return plan


@transaction.atomic
def plan_branch_add(*, match_id: Any, seat_number: Any, user: AbstractBaseUser | None,
                    under: str, branch: Any) -> ConditionalPlan:
    """Add ``branch`` to the seat's plan, under the branch at ``under`` ("0.1"; "" for the
    top): the board's branch builder. The plan is stored whole as by ``plan_set``, still
    counted from the phase it was counted from (its other branches keep their meaning).
    Locks the match."""
    match = match_lock(match_id)
    seat = _plan_seat(match, seat_number, user)
    plan = ConditionalPlan.objects.filter(seat=seat, user=user).exclude(tree=[]).first()
    try:
        tree = plan_graft(plan.tree if plan else [], under, branch)
    except RuleError as error:
        raise ServiceError("invalid", _("The plan is not valid."), error.problems) from None
    stored = plan_set(match_id=match.pk, seat_number=seat.number, user=user, tree=tree)
    if plan is not None and stored.pk:
        stored.after_phase, stored.played = plan.after_phase, plan.played
        stored.save(update_fields=["after_phase", "played"])
    return stored


@transaction.atomic
def plan_clear(*, match_id: Any, seat_number: Any, user: AbstractBaseUser | None) -> bool:
    """Clear the seat's plan (and its last notice). Whether there was one. Locks the match."""
    match = match_lock(match_id)
    seat = _plan_seat(match, seat_number, user)
    deleted, _rows = ConditionalPlan.objects.filter(seat=seat).delete()
    return bool(deleted)


def _played_since(match: Match, game: Game, seat: int, after: int, before: int
                  ) -> list[dict[str, Any]] | None:
    """The moves the other seats played in the phases from ``after`` up to ``before``
    (excluded), in order, each canonical (None for one the plan's shape cannot hold); None
    when the seat itself moved after ``after`` (its plan waited for a turn it played itself:
    a turn that opened without following plans, such as one a moderator's repair opened)."""
    phases = (Phase.objects.filter(match=match, number__gte=after, number__lt=before,
                                   status=Phase.Status.RESOLVED,
                                   kind=PhaseKind.SEQUENTIAL.value)
              .order_by("number").values_list("number", "revealed"))
    steps = [(number, int(key), sheet.get("data")) for number, revealed in phases
             for key, sheet in sorted((revealed or {}).items(), key=lambda item: int(item[0]))]
    played = []
    for number, other, move in game.plan_played(steps):  # whole moves (``Game.plan_played``)
        if other == seat:
            if number > after:
                return None
            continue
        played.append({"seat": other, "move": move})
    return played


def plan_branch(tree: list[dict], played: list[dict[str, Any]]) -> dict | None:
    """The branch of ``tree`` whose condition is ``played``, or None."""
    wanted = canonical(played)
    return next((branch for branch in tree if canonical(branch["when"]) == wanted), None)


def plans_follow(*, match_id: Any, now: Any = None) -> int:
    """Play the planned move of each seat whose turn has come, one after the other, in the
    caller's transaction (which holds the match lock, or takes it here). How many were
    played. A failure of a plan's own code is logged and leaves the match as it was: the
    seat plays its turn by hand."""
    played = 0
    for _step in range(MAX_CHAIN):
        try:
            with transaction.atomic():
                done = _plan_play(match_id, now or timezone.now())
        except Exception:
            logger.exception("playing a plan of match %s failed", match_id)
            return played
        if not done:
            return played
        played += 1
    return played


def _plan_play(match_id: Any, now: Any) -> bool:
    """Play the planned move of the seat to move now, if its plan says one (True), or clear
    the plan with a notice when it cannot."""
    match = match_lock(match_id)
    if (match.status != Match.Status.ACTIVE or match.paused_at is not None
            or match.phase_kind != PhaseKind.SEQUENTIAL.value):
        return False
    game = game_for(match.game)
    if not plans_offered(game):
        return False
    prompts = game.prompts(match.state)
    plan = (ConditionalPlan.objects.select_related("seat")
            .filter(match=match, seat__number__in=list(prompts)).exclude(tree=[]).first())
    if plan is None or plan.after_phase >= match.phase_number:
        return False
    seat = plan.seat
    if not game.plan_opens(match.state, seat.number):
        return False  # the next step of a move begun: its plan waits for the move's end
    if plan.user_id != seat.user_id or seat.status != Seat.Status.TAKEN:
        plan.delete()  # the plan ended with its author's command of the seat
        return False
    phase = Phase.objects.filter(match=match, number=match.phase_number,
                                 status=Phase.Status.OPEN).first()
    if phase is None or Submission.objects.filter(phase=phase, seat=seat).exists():
        return False
    played = _played_since(match, game, seat.number, plan.after_phase, phase.number)
    branch = None if played is None else plan_branch(plan.tree, played)
    if branch is None:
        _plan_end(plan, now, {"reason": NOTICE_UNMATCHED, "phase": phase.number,
                              "played": played or []})
        return False
    try:
        with transaction.atomic():  # every step of the move, or none
            steps = _plan_steps(match, phase, seat, game, prompts, branch["play"], now)
    except ServiceError as error:
        _plan_end(plan, now, {"reason": NOTICE_ILLEGAL, "phase": phase.number,
                              "move": branch["play"],
                              "problems": [problem.message for problem in error.problems]
                              or [error.message]})
        return False
    whole = game.plan_played(steps)
    if [move for _number, _seat, move in whole] != [branch["play"]]:
        _plan_end(plan, now, {"reason": NOTICE_CHANGED, "phase": phase.number,
                              "move": branch["play"],
                              "played": whole[0][2] if len(whole) == 1 else None})
        return True
    plan.played += 1
    plan.after_phase = phase.number
    plan.tree = branch["then"]
    plan.notice = None if branch["then"] else {"reason": NOTICE_ENDED, "phase": phase.number}
    plan.updated_at = now
    plan.save()
    return True


def _plan_steps(match: Match, phase: Phase, seat: Seat, game: Game, prompts: dict[int, Any],
                move: Any, now: Any) -> list[tuple[int, int, Any]]:
    """Play the planned ``move`` in as many steps as the game says (``Game.plan_step``), a
    phase each, through ``orders.sheet_store`` like any sheet. The caller's savepoint undoes
    them all when one is refused (a ServiceError): a move is never half-played. The steps
    stored, as (phase, seat, data)."""
    from games.services.orders import sheet_store

    stored: list[tuple[int, int, Any]] = []
    for index in range(MAX_STEPS):
        if index:
            match = match_lock(match.pk)  # the step before moved the match on
            phase = Phase.objects.filter(match=match, number=match.phase_number,
                                         status=Phase.Status.OPEN).first()
            prompts = game.prompts(match.state) if match.status == Match.Status.ACTIVE else {}
            if phase is None or seat.number not in prompts:
                break
        try:
            data = game.plan_step(match.state, seat.number, move, index)
        except RuleError as error:
            raise ServiceError("invalid", _("The orders are not valid."),
                               error.problems) from None
        if data is None:
            break
        receipt = sheet_store(match=match, phase=phase, seat=seat, game=game, prompts=prompts,
                              data=data, text=None, source=Submission.Source.CONDITIONAL,
                              now=now)
        stored.append((phase.number, seat.number, receipt.data))
    return stored


def _plan_end(plan: ConditionalPlan, now: Any, notice: dict[str, Any]) -> None:
    """Clear ``plan``'s moves, keeping why for its seat (the page, the API, the next mail)."""
    plan.tree = []
    plan.notice = notice
    plan.updated_at = now
    plan.save(update_fields=["tree", "notice", "updated_at"])
    logger.info("match %s: plan of seat %s cleared (%s)", plan.match_id, plan.seat.number,
                notice["reason"])


def plans_follow_task(*, match_id: Any, phase_number: Any) -> int:
    """The lifecycle's promise after a turn played by default (a deadline, a moderator):
    follow the plans if the phase ``phase_number`` is still the one open."""
    with transaction.atomic():
        match = match_lock(match_id)
        if match.phase_number != id_or_none(phase_number):
            return 0
        return plans_follow(match_id=match.pk)


# -- sheets entered ahead (sealed phases) ------------------------------------------------------

MAX_CONDITIONS = 8
MAX_SHEET_TEXT = 20_000

SHEET_SUBMITTED = "submitted"    # every condition held: the sheet was submitted
SHEET_CONDITIONS = "conditions"  # a condition did not hold: discarded
SHEET_ILLEGAL = "illegal"        # the engine refused the sheet in the new position
SHEET_SENT = "sent"              # the seat had sent a sheet for the phase itself: discarded


def conditions_offered(game: Game | None) -> tuple[str, ...]:
    """The conditions a sheet entered ahead may carry in ``game`` (none: it takes none)."""
    return tuple(game.sheet_conditions) if game is not None else ()


@transaction.atomic
def sheet_ahead_set(*, match_id: Any, seat_number: Any, user: AbstractBaseUser | None,
                    conditions: Any = None, conditions_text: str | None = None,
                    data: Any = None, text: str | None = None) -> ConditionalSheet:
    """Enter the seat's sheet for the phase after the open one (``data``, or ``text`` in the
    game's grammar, read when it is played), submitted after the open phase resolves if every
    one of ``conditions`` (or those written in ``conditions_text``, a line each) holds then.
    Each condition is checked for its shape now, the sheet by the engine only then. Locks the
    match; replaces the seat's earlier one."""
    match = match_lock(match_id)
    seat = _plan_seat(match, seat_number, user)
    game = game_for(match.game)
    if not conditions_offered(game):
        raise ServiceError("unsupported_phase", _("%(game)s takes no sheets entered ahead.")
                           % {"game": game.name})
    _plans_open(match, seat, game)
    if match.phase_kind != PhaseKind.SIMULTANEOUS.value:
        raise ServiceError("unsupported_phase", _("Sheets are entered ahead in phases whose "
                           "sheets are sealed."))
    if conditions_text is not None:
        try:
            conditions = conditions_parse(game, seat.number, conditions_text)
        except RuleError as error:
            raise ServiceError("invalid", _("The conditions are not valid."),
                               error.problems) from None
    normalized = _conditions_normalize(game, seat.number, conditions)
    if (data is None) == (text is None):
        raise ServiceError("invalid", _("Send the sheet as either data or text."))
    if text is not None and (not isinstance(text, str) or len(text) > MAX_SHEET_TEXT):
        raise ServiceError("invalid", _("Orders must be text of at most %(count)s "
                                        "characters.") % {"count": MAX_SHEET_TEXT})
    if data is not None and len(canonical(data)) > MAX_SHEET_TEXT:
        raise ServiceError("invalid", _("The sheet is too large."))
    now = timezone.now()
    sheet = ConditionalSheet.objects.filter(seat=seat).first() or ConditionalSheet(
        match=match, seat=seat, user=user)
    sheet.user = user
    sheet.for_phase = match.phase_number + 1
    sheet.conditions = normalized
    sheet.data = {"text": text} if text is not None else {"data": data}
    sheet.notice = None
    sheet.updated_at = now
    sheet.save()
    if not match.sheets_ahead:
        match.sheets_ahead = True
        match.save(update_fields=["sheets_ahead"])
    return sheet


def _conditions_normalize(game: Game, seat: int, conditions: Any) -> list[dict[str, Any]]:
    if not isinstance(conditions, list) or len(conditions) > MAX_CONDITIONS:
        raise ServiceError("invalid", _("The conditions are a list of at most %(count)s.")
                           % {"count": MAX_CONDITIONS})
    problems: list[Problem] = []
    normalized = []
    for index, condition in enumerate(conditions):
        try:
            normalized.append(game.condition_normalize(seat, condition))
        except RuleError as error:
            problems += [Problem(f"{index}.{p.path}" if p.path else str(index), p.text)
                         for p in error.problems]
    if problems:
        raise ServiceError("invalid", _("The conditions are not valid."), problems)
    return normalized


@transaction.atomic
def sheet_ahead_clear(*, match_id: Any, seat_number: Any,
                      user: AbstractBaseUser | None) -> bool:
    """Withdraw the seat's sheet entered ahead (and its last notice). Locks the match."""
    match = match_lock(match_id)
    seat = _plan_seat(match, seat_number, user)
    deleted, _rows = ConditionalSheet.objects.filter(seat=seat).delete()
    return bool(deleted)


def sheets_follow(*, match_id: Any, phase_number: Any) -> int:
    """After a phase resolved (the outbox's promise when ``Match.sheets_ahead``): for each
    sheet entered ahead for the phase ``phase_number``, now open, submit it if every
    condition holds in its position, else discard it with a notice for its seat. How many
    were submitted. A no-op when that phase is not the open one."""
    from games.services.orders import sheet_store

    with transaction.atomic():
        match = match_lock(match_id)
        number = id_or_none(phase_number)
        if (match.status != Match.Status.ACTIVE or match.phase_number != number
                or match.phase_kind != PhaseKind.SIMULTANEOUS.value
                or match.paused_at is not None):
            return 0
        phase = Phase.objects.filter(match=match, number=number,
                                     status=Phase.Status.OPEN).first()
        if phase is None:
            return 0
        game = game_for(match.game)
        prompts = game.prompts(match.state)
        now = timezone.now()
        submitted = 0
        for sheet in (ConditionalSheet.objects.select_related("seat")
                      .filter(match=match, for_phase__lte=number).exclude(data=None)
                      .order_by("seat__number")):
            seat = sheet.seat
            if sheet.user_id != seat.user_id or seat.status != Seat.Status.TAKEN:
                sheet.delete()  # it ended with its author's command of the seat
                continue
            failed = [c for c in sheet.conditions
                      if not game.condition_holds(match.state, seat.number, c)]
            if sheet.for_phase != number or seat.number not in prompts or failed:
                notice = {"reason": SHEET_CONDITIONS, "phase": number, "failed": failed}
            elif Submission.objects.filter(phase=phase, seat=seat).exists():
                notice = {"reason": SHEET_SENT, "phase": number}
            else:
                try:
                    with transaction.atomic():
                        sheet_store(match=match, phase=phase, seat=seat, game=game,
                                    prompts=prompts, data=sheet.data.get("data"),
                                    text=sheet.data.get("text"),
                                    source=Submission.Source.CONDITIONAL, now=now)
                    notice = {"reason": SHEET_SUBMITTED, "phase": number}
                    submitted += 1
                except ServiceError as error:
                    notice = {"reason": SHEET_ILLEGAL, "phase": number,
                              "problems": [p.message for p in error.problems]
                              or [error.message]}
            sheet.data = None
            sheet.notice = notice
            sheet.updated_at = now
            sheet.save(update_fields=["data", "notice", "updated_at"])
        Match.objects.filter(pk=match.pk).update(sheets_ahead=ConditionalSheet.objects.filter(
            match=match).exclude(data=None).exists())
        return submitted
