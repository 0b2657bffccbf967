"""Players' reliability records: matches played to the end and abandoned, deadlines met and
missed (excused misses do not count), counted exactly once per finished match.

A miss is written by the resolution that played a seat's default (``DeadlineMiss``, with the
player who held the seat then). When a match ends the lifecycle promises
``games.tasks.reliability_record`` in its outbox; ``match_reliability_record`` counts the match
once (a unique ``ReliabilityUpdate`` row under the match lock: a re-delivered task, the sweeper
or a concurrent worker finds it and changes nothing) and recomputes the record of each of its
players from the rows (``reliability_recompute``), so a record is always the sum of its rows.

``score`` = 100 × (deadlines met / deadlines faced) × (matches finished / matches finished or
abandoned), rounded down; None before the first counted match. A minimum reliability on a match
or a tournament refuses players below it, and players with no record yet.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.audit_words import audit_words
from games.models import (
    DeadlineMiss,
    Leave,
    Match,
    MatchReliability,
    ModerationEntry,
    Phase,
    Reliability,
    ReliabilityUpdate,
    SeatTenure,
)
from games.services.common import match_lock
from games.services.errors import ServiceError
from games.services.tenures import Ending, tenures_close

Outcome = MatchReliability.Outcome
ENDED = (Match.Status.FINISHED, Match.Status.ABORTED)


def reliability_score(*, finished: int, abandoned: int, deadlines: int, missed: int
                      ) -> int | None:
    """The percentage shown and compared with a minimum (None: no counted match yet)."""
    if finished + abandoned == 0:
        return None
    met = 1.0 if deadlines == 0 else max(deadlines - missed, 0) / deadlines
    return int(100 * met * finished / (finished + abandoned) + 1e-9)


def _entries(match: Match) -> list[MatchReliability]:
    """One row per tenure (``SeatTenure``): each player's command of a seat, counted for
    itself, so a newcomer never inherits the misses of the seat's earlier players. A tenure
    faced the deadlines of the phases its seat had a sheet in, resolved while it held the
    seat. Its outcome: finished (held to the end), abandoned (left, flagged after missed
    deadlines, forfeited, removed by a moderator, or replaced by one after a miss of its
    own), handed over (a moderator gave the seat to someone else with no miss of its own),
    or aborted (the match was)."""
    tenures = list(SeatTenure.objects.filter(match=match).order_by("started_at", "pk"))
    phases = [(resolved_at, set((revealed or {}).keys())) for resolved_at, revealed in
              Phase.objects.filter(match=match, status=Phase.Status.RESOLVED)
              .values_list("resolved_at", "revealed")]
    misses = list(DeadlineMiss.objects.filter(match=match).values_list(
        "user_id", "seat_number", "missed_at"))

    def held(tenure: SeatTenure, at: Any) -> bool:
        return at is not None and tenure.started_at <= at and (
            tenure.ended_at is None or at <= tenure.ended_at)

    entries = []
    for tenure in tenures:
        faced = sum(1 for resolved_at, keys in phases
                    if str(tenure.seat_number) in keys and held(tenure, resolved_at))
        missed = any(user_id == tenure.user_id and seat == tenure.seat_number
                     and held(tenure, missed_at) for user_id, seat, missed_at in misses)
        if match.status == Match.Status.ABORTED:
            outcome = Outcome.ABORTED
        elif tenure.ending in ("", Ending.END):
            outcome = Outcome.FINISHED
        elif tenure.ending == Ending.REPLACED and not missed:
            outcome = Outcome.HANDED_OVER
        else:
            outcome = Outcome.ABANDONED
        entries.append(MatchReliability(user_id=tenure.user_id, seat_number=tenure.seat_number,
                                        tenure=tenure, outcome=outcome, deadlines=faced))
    return entries


def deadline_misses_record(*, match_id: Any, phase_number: int, missed_at: str,
                           users: dict[str, int], due_at: dict[str, str] | None = None) -> int:
    """Write the misses a resolution found (seat number → the player who held the seat then);
    promised by the resolution in the lifecycle's outbox, so written once whatever happens
    (the rows are unique). A miss whose deadline passed (``due_at``, seat number → when; else
    ``missed_at``, the resolution) while its player was on leave is excused from the start.
    A miss that arrives after its match was counted updates the player's record. Returns how
    many rows were new (a seat another transaction writes at the same moment is written once,
    counted by both)."""
    return deadline_misses_records([{"match_id": match_id, "phase_number": phase_number,
                                     "missed_at": missed_at, "users": users, "due_at": due_at}])


def deadline_misses_records(payloads: list[dict[str, Any]]) -> int:
    """``deadline_misses_record`` for many resolutions at once (the outbox's batch, each
    payload its arguments), in a fixed number of queries: the misses written before, the
    leaves, the insert, the matches already counted. Returns how many rows were new."""
    misses: dict[tuple[int, int, int], tuple[int, datetime, datetime]] = {}
    for payload in payloads:
        at = datetime.fromisoformat(payload["missed_at"])
        due_at = payload.get("due_at") or {}
        for seat, user_id in payload["users"].items():
            key = (int(payload["match_id"]), int(payload["phase_number"]), int(seat))
            due = datetime.fromisoformat(due_at.get(seat, payload["missed_at"]))
            misses.setdefault(key, (user_id, at, due))
    if not misses:
        return 0
    written = set(DeadlineMiss.objects.filter(
        match_id__in={key[0] for key in misses},
        phase_number__in={key[1] for key in misses}
    ).values_list("match_id", "phase_number", "seat_number"))
    misses = {key: miss for key, miss in misses.items() if key not in written}
    if not misses:
        return 0
    passed = [miss[2] for miss in misses.values()]
    leaves: dict[int, list[Leave]] = {}
    for leave in Leave.objects.filter(
            user_id__in={miss[0] for miss in misses.values()},
            starts_at__lte=max(passed), ends_at__gt=min(passed)
    ).only("user_id", "starts_at", "ends_at"):
        leaves.setdefault(leave.user_id, []).append(leave)
    rows = []
    for (match_id, phase_number, seat), (user_id, at, due) in misses.items():
        away = [leave.ends_at for leave in leaves.get(user_id, ())
                if leave.starts_at <= due < leave.ends_at]
        rows.append(DeadlineMiss(
            match_id=match_id, phase_number=phase_number, seat_number=seat, user_id=user_id,
            missed_at=at, excused=bool(away),
            excused_reason=f"on leave until {away[-1]:%Y-%m-%d %H:%M} UTC" if away else ""))
    DeadlineMiss.objects.bulk_create(rows, ignore_conflicts=True)
    counted = set(ReliabilityUpdate.objects.filter(
        match_id__in={row.match_id for row in rows}).values_list("match_id", flat=True))
    for user_id in sorted({row.user_id for row in rows if row.match_id in counted}):
        reliability_recompute(user_id=user_id)
    return len(rows)


@transaction.atomic
def match_reliability_record(*, match_id: Any) -> ReliabilityUpdate | None:
    """Count an ended match in its players' records, exactly once (locks the match row; a
    second call finds the unique row and changes nothing). None if counted or not ended."""
    try:
        match = match_lock(match_id)
    except ServiceError:
        return None
    if match.status not in ENDED or ReliabilityUpdate.objects.filter(match=match).exists():
        return None
    update = ReliabilityUpdate.objects.create(match=match)
    tenures_close(match=match, at=match.finished_at or timezone.now())
    entries = _entries(match)
    for entry in entries:
        entry.update = update
    MatchReliability.objects.bulk_create(entries)
    for user_id in sorted(entry.user_id for entry in entries):
        reliability_recompute(user_id=user_id)
    return update


def reliability_recompute(*, user_id: Any) -> Reliability:
    """The record of one player, from their rows: counted matches and their misses in them."""
    totals = MatchReliability.objects.filter(user_id=user_id).aggregate(
        finished=Count("pk", filter=Q(outcome=Outcome.FINISHED)),
        abandoned=Count("pk", filter=Q(outcome=Outcome.ABANDONED)),
        deadlines=Sum("deadlines"))
    counted = DeadlineMiss.objects.filter(user_id=user_id, match__reliability__isnull=False)
    missed = counted.filter(excused=False).count()
    excused = counted.filter(excused=True).count()
    finished, abandoned = totals["finished"] or 0, totals["abandoned"] or 0
    deadlines = totals["deadlines"] or 0
    record, _created = Reliability.objects.update_or_create(user_id=user_id, defaults={
        "matches_finished": finished, "matches_abandoned": abandoned, "deadlines": deadlines,
        "deadlines_missed": missed, "misses_excused": excused,
        "score": reliability_score(finished=finished, abandoned=abandoned,
                                   deadlines=deadlines, missed=missed)})
    return record


@transaction.atomic
def deadline_miss_excuse(*, miss_id: Any, by: AbstractBaseUser | None, reason: str,
                         excused: bool = True) -> DeadlineMiss:
    """Excuse a miss (a vacation, a moderator's decision), or take the excuse back, and
    recompute the player's record. Needs the ``games.moderate_match`` permission and a reason;
    each change writes one audit row on the match. Idempotent: a miss already in the asked
    state is left alone (no audit row)."""
    from games.services.moderation import audit_write, moderator_check, reason_required

    moderator_check(by)
    text = reason_required(reason)
    try:
        miss = DeadlineMiss.objects.select_for_update().filter(pk=int(miss_id)).first()
    except (TypeError, ValueError, OverflowError):
        miss = None
    if miss is None:
        raise ServiceError("not_found", _("No such missed deadline."))
    if miss.excused == excused:
        return miss
    miss.excused = excused
    miss.excused_by = by if excused else None
    miss.excused_reason = text[:255] if excused else ""
    miss.save(update_fields=["excused", "excused_by", "excused_reason"])
    reliability_recompute(user_id=miss.user_id)
    match = Match.objects.only("pk", "phase_number").get(pk=miss.match_id)
    words = audit_words(
        gettext_noop("a moderator excused the missed deadline of seat %(seat)s in phase %(phase)s")
        if excused else
        gettext_noop("a moderator took back the excuse of seat %(seat)s's missed deadline in "
                     "phase %(phase)s"), seat=miss.seat_number, phase=miss.phase_number)
    audit_write(match=match, kind=ModerationEntry.Kind.EXCUSE if excused
                else ModerationEntry.Kind.UNEXCUSE, by=by, reason=text,
                phase_number=miss.phase_number, summary=words,
                details={"miss": miss.pk, "seat": miss.seat_number, "user_id": miss.user_id,
                         "excused": excused})
    return miss


def reliability_badge(record: Reliability | None) -> str:
    """The short form: "92 %", or "new" before the first counted match."""
    return _("new") if record is None or record.score is None else f"{record.score} %"


def reliability_describe(record: Reliability | None) -> str:
    if record is None or record.score is None:
        return _("no reliability record yet (no match of yours has been counted)")
    return _("%(score)s %% (%(missed)s of %(deadlines)s deadlines missed, %(abandoned)s of "
             "%(matches)s matches abandoned)") % {
        "score": record.score, "missed": record.deadlines_missed,
        "deadlines": record.deadlines, "abandoned": record.matches_abandoned,
        "matches": record.matches_finished + record.matches_abandoned}


def reliability_check(*, user: AbstractBaseUser, minimum: int | None, what: str) -> None:
    """Refuse ``user`` (ServiceError "unreliable") if a minimum reliability is set and their
    record is below it or missing. ``what`` names the match or tournament for the message."""
    if not minimum:
        return
    record = Reliability.objects.filter(user_id=user.pk).first()
    if record is not None and record.score is not None and record.score >= minimum:
        return
    raise ServiceError("unreliable", _("%(what)s asks for a reliability of at least "
                                       "%(minimum)s %%; you have %(record)s.")
                       % {"what": what, "minimum": minimum,
                          "record": reliability_describe(record)})


def reliability_sweep(*, limit: int = 200) -> int:
    """Count ended matches the outbox task has not counted yet (a safety net; each once)."""
    pending = (Match.objects.filter(status__in=ENDED, reliability__isnull=True)
               .order_by("finished_at").values_list("pk", flat=True)[:limit])
    return sum(match_reliability_record(match_id=match_id) is not None
               for match_id in list(pending))
