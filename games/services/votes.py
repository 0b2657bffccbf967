"""Votes to end a match, and concessions (docs/votes.md).

A seat still in a running match may propose a draw (shared by the seats still in) or to
cancel the match; the proposal passes when every seat still in has voted yes, fails at the
first no, and expires after ``settings.VOTE_EXPIRY_HOURS``. A secret ballot shows only the
tally until it closes (``games.votes`` is the one reader). A concession is a seat's own
decision, effective at once: the game's rules say what it means (``Game.resign``).

Every function here takes the match row lock (``match_lock``) like every other path that
changes a match's phase or result, so a vote that passes and a phase that resolves never race:
whichever commits second finds the match as the first left it. Side effects (the notices, the
"match ended" signal) are promised in the lifecycle's outbox in the same transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from durable.outbox import outbox_write
from durable.worker import enqueue_on_commit
from engine import Game, PhaseKind, RuleError
from engine.ending import by_agreement, by_cancel, by_concession
from engine.record import SETTING_RESIGN
from games.models import (
    Action,
    Match,
    MatchBallot,
    MatchVote,
    ModerationEntry,
    Phase,
    Seat,
    Submission,
)
from games.parsing import id_or_none
from games.plugins import seat_name
from games.services.common import (
    game_for,
    match_lock,
    phase_open,
    required_seats,
)
from games.services.errors import ServiceError
from games.services.match import match_set_status
from games.services.queue import signal_event
from games.services.timing import clocks_close

logger = logging.getLogger(__name__)

CONTINUOUS = PhaseKind.CONTINUOUS.value
PROPOSALS = (MatchVote.Kind.DRAW, MatchVote.Kind.CANCEL)
OUT = (Seat.Status.FORFEITED, Seat.Status.CONCEDED)

# Rules other apps add (``vote_rule_add``): each is called with the locked match and the kind
# proposed, and returns a sentence refusing the proposal, or None. The competitions use it: a
# tournament board cannot be cancelled.
VoteRule = Callable[[Match, str], str | None]
_RULES: list[VoteRule] = []


def vote_rule_add(rule: VoteRule) -> None:
    """Refuse some proposals (an app's ``ready``): ``rule(match, kind)`` returns why, or None."""
    if rule not in _RULES:
        _RULES.append(rule)


def vote_expiry() -> timedelta:
    return timedelta(hours=float(settings.VOTE_EXPIRY_HOURS))


def seats_standing(match: Match, game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats still in the match: not forfeited or conceded, not out by the rules."""
    out = game.seats_out(match.state) if match.state is not None else frozenset()
    return [seat for seat in seats if seat.status not in OUT and seat.number not in out]


def seat_out(match: Match, game: Game, seat: Seat) -> bool:
    """Whether ``seat`` is out of the match: forfeited, conceded, or out by the rules."""
    return not seats_standing(match, game, [seat])


# -- the checks every action makes first ----------------------------------------------------------

def _seat_first(match_id: Any, user: AbstractBaseUser | None) -> None:
    """Permission before work: refuse someone with no seat in the match before its lock is
    taken (the seat is read again under the lock: it may change hands meanwhile)."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_your_seat", _("Log in with the account that holds a seat."))
    match_pk = id_or_none(match_id)
    if not Seat.objects.filter(match_id=match_pk, user=user).exists():
        if not Match.objects.filter(pk=match_pk).exists():
            raise ServiceError("not_found", _("There is no match %(id)s.") % {"id": match_id})
        raise ServiceError("not_your_seat", _("You have no seat in this match."))


def _own_seat(match: Match, user: AbstractBaseUser | None) -> Seat:
    if user is None or not user.is_authenticated:
        raise ServiceError("not_your_seat", _("Log in with the account that holds a seat."))
    seat = Seat.objects.filter(match=match, user=user).first()
    if seat is None:
        raise ServiceError("not_your_seat", _("You have no seat in this match."))
    return seat


def _in_play(match: Match) -> None:
    if match.status != Match.Status.ACTIVE:
        raise ServiceError("not_active", _("This match is not in play."))


def _voting_open(match: Match) -> None:
    _in_play(match)
    if match.votes_locked:
        raise ServiceError("votes_locked", _("A moderator has locked voting on this match."))


def _standing_or_refuse(match: Match, game: Game, seat: Seat) -> list[Seat]:
    standing = seats_standing(match, game, list(match.seats.all()))
    if seat.number not in {s.number for s in standing}:
        raise ServiceError("seat_out", _("Your seat is out of this match: it has no say in "
                                         "how the match ends."))
    return standing


def no_voter_refusal(match: Match, standing: list[Seat]) -> str | None:
    """Why no proposal can pass while ``standing`` are the seats still in: one of them has
    nobody to vote (a bot, an empty seat); None when every one of them can vote. The match
    page says it before anyone tries, and vote_propose refuses with the same words."""
    for other in standing:
        if other.bot:
            return _("%(seat)s is played by a bot, which does not vote: this match can only be "
                     "ended by its rules or a concession.") % {
                         "seat": seat_name(match.game, other.number)}
        if other.user_id is None:
            return _("%(seat)s has no player to vote until someone takes it.") % {
                "seat": seat_name(match.game, other.number)}
    return None


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


# -- proposing and voting ---------------------------------------------------------------------

@transaction.atomic
def vote_propose(*, match_id: Any, user: AbstractBaseUser | None, kind: str,
                 secret: bool = False, now: datetime | None = None) -> MatchVote:
    """Propose ending the match (``kind``: "draw" or "cancel"); the proposer's own yes is its
    first ballot. Locks the match. Refused: not a seat, seat out, match not in play, voting
    locked, a seat still in that has no player to vote (a bot, an empty seat), a rule of
    another app (a tournament board cannot be cancelled), a proposal of that kind already
    open."""
    if kind not in PROPOSALS:
        raise ServiceError("invalid", _("Propose a draw or to cancel the match (a concession "
                                        "needs no vote)."))
    if not isinstance(secret, bool):
        raise ServiceError("invalid", _("Say whether the ballot is secret (yes or no)."))
    _seat_first(match_id, user)
    match = match_lock(match_id)
    seat = _own_seat(match, user)
    _voting_open(match)
    game = game_for(match.game)
    standing = _standing_or_refuse(match, game, seat)
    refused = no_voter_refusal(match, standing)
    if refused:
        raise ServiceError("no_voter", refused)
    for rule in _RULES:
        refused = rule(match, kind)
        if refused:
            raise ServiceError("not_allowed", refused)
    if MatchVote.objects.filter(match=match, kind=kind, status=MatchVote.Status.OPEN).exists():
        raise ServiceError("vote_open", _("A proposal of %(kind)s is already open: vote on it.")
                           % {"kind": MatchVote.Kind(kind).label})
    now = _now(now)
    vote = MatchVote.objects.create(
        match=match, kind=kind, secret=secret, seat_number=seat.number, proposed_by=user,
        phase_number=match.phase_number, opened_at=now, expires_at=now + vote_expiry())
    MatchBallot.objects.create(vote=vote, seat_number=seat.number, user=user, yes=True,
                               cast_at=now)
    outbox_write([_notice(vote, "opened")])
    logger.info("match %s: vote %s (%s) opened", match.pk, vote.pk, kind)
    return vote


@transaction.atomic
def vote_cast(*, match_id: Any, vote_id: Any, user: AbstractBaseUser | None, yes: bool,
              now: datetime | None = None) -> MatchVote:
    """Answer an open proposal, once. A no fails it at once; the last yes of the seats still
    in passes it (a draw finishes the match, a cancel aborts it). Locks the match."""
    if not isinstance(yes, bool):
        raise ServiceError("invalid", _("Vote yes or no."))
    _seat_first(match_id, user)
    match = match_lock(match_id)
    seat = _own_seat(match, user)
    vote = (MatchVote.objects.select_for_update()
            .filter(pk=id_or_none(vote_id), match=match).first())
    if vote is None or vote.kind not in PROPOSALS:
        raise ServiceError("not_found", _("This match has no vote %(id)s.") % {"id": vote_id})
    if vote.status != MatchVote.Status.OPEN:
        raise ServiceError("vote_closed", _("This vote is closed (%(status)s).")
                           % {"status": vote.get_status_display()})
    _voting_open(match)
    now = _now(now)
    if vote.expires_at is not None and vote.expires_at <= now:
        raise ServiceError("vote_closed", _("This vote has expired."))
    game = game_for(match.game)
    standing = _standing_or_refuse(match, game, seat)
    if MatchBallot.objects.filter(vote=vote, seat_number=seat.number).exists():
        raise ServiceError("already_voted", _("You have already voted on this proposal."))
    MatchBallot.objects.create(vote=vote, seat_number=seat.number, user=user, yes=yes,
                               cast_at=now)
    events: list[tuple] = []
    if not yes:
        _close(vote, MatchVote.Status.FAILED, now, standing)
        events.append(_notice(vote, "failed"))
    else:
        _pass_if_agreed(match, game, vote, standing, now, events)
    outbox_write(events)
    return vote


def _pass_if_agreed(match: Match, game: Game, vote: MatchVote, standing: list[Seat],
                    now: datetime, events: list[tuple]) -> bool:
    """Pass ``vote`` if every seat still in has said yes (caller holds the lock)."""
    yes = set(MatchBallot.objects.filter(vote=vote, yes=True).values_list("seat_number",
                                                                          flat=True))
    if not {seat.number for seat in standing} <= yes:
        return False
    _close(vote, MatchVote.Status.PASSED, now, standing)
    vote.ended_match = True
    vote.save(update_fields=["ended_match"])
    numbers = [seat.number for seat in standing]
    if vote.kind == MatchVote.Kind.DRAW:
        all_seats = list(match.seats.values_list("number", flat=True))
        _end(match, game, Match.Status.FINISHED, by_agreement(all_seats, numbers).as_json(),
             "drawn by agreement", now, events)
    else:  # cancelled: no result to score, but the ending says who agreed
        _end(match, game, Match.Status.ABORTED, by_cancel(numbers).as_json(),
             "cancelled by agreement of the players", now, events)
    logger.info("match %s: vote %s (%s) passed", match.pk, vote.pk, vote.kind)
    return True


def _close(vote: MatchVote, status: str, now: datetime, standing: list[Seat] | None = None,
           why: str = "") -> None:
    if status not in MatchVote.TRANSITIONS[vote.status]:
        raise ServiceError("bad_transition", f"A {vote.status} vote cannot become {status}.")
    vote.status, vote.closed_at, vote.closed_why = status, now, why
    fields = ["status", "closed_at", "closed_why"]
    if standing is not None:
        vote.standing = [seat.number for seat in standing]
        fields.append("standing")
    vote.save(update_fields=fields)


def _standing_now(match: Match) -> list[Seat]:
    return seats_standing(match, game_for(match.game), list(match.seats.all()))


def _notice(vote: MatchVote, what: str) -> tuple:
    """The "vote_changed" signal (the players' notices: opened, failed, expired, closed,
    conceded) for the outbox. A passed vote ends the match: "match ended" tells it."""
    return signal_event("vote_changed", vote.match_id, match_id=vote.match_id,
                        vote_id=vote.pk, what=what)


def _end(match: Match, game: Game, status: str, result: dict[str, Any] | None, note: str,
         now: datetime, events: list[tuple], fields: tuple[str, ...] = (),
         phase: Phase | None = None) -> None:
    """End the locked match by the players' decision: the open phase (``phase`` when the
    caller changed it) closes unplayed (a continuous phase is resolved: its logbook is its
    record), the status changes with its audit row and "match ended" signal, and the other
    open proposals close."""
    if phase is None:
        phase = Phase.objects.filter(match=match, number=match.phase_number).first()
    if phase is not None and phase.status == Phase.Status.OPEN:
        phase.status = (Phase.Status.RESOLVED if phase.kind == CONTINUOUS
                        else Phase.Status.CLOSED)
        phase.resolved_at = now
        phase.save(update_fields=["status", "resolved_at", "settings"])
    match.result = result
    match.paused_at = match.paused_remaining = None
    match_set_status(match=match, new_status=status, note=note[:255], events=events, save=False)
    match.save(update_fields=["result", "status", "finished_at", "deadline", "complete_at",
                              "paused_at", "paused_remaining", *fields])
    MatchVote.objects.filter(match=match, status=MatchVote.Status.OPEN).update(
        status=MatchVote.Status.CLOSED, closed_why=MatchVote.Why.ENDED, closed_at=now)


# -- conceding ----------------------------------------------------------------------------------

@transaction.atomic
def seat_concede(*, match_id: Any, user: AbstractBaseUser | None, source: str = "web",
                 now: datetime | None = None) -> MatchVote:
    """The user's seat concedes, at once: the game's rules say what that means
    (``Game.resign``). A two-seat match ends (the other seat wins); in a bigger one the seat
    leaves play and the others go on, and the match ends when one is left. The concession is
    kept where a replay finds it (the open phase's settings, or a logbook entry of a
    continuous phase); the seat's sealed sheet of the open phase is void. Locks the match."""
    if source not in (Action.Source.WEB, Action.Source.API, Action.Source.EMAIL):
        raise ServiceError("invalid", f"Unknown source {source!r}.")
    _seat_first(match_id, user)
    match = match_lock(match_id)
    seat = _own_seat(match, user)
    _in_play(match)
    if match.paused_at is not None:
        raise ServiceError("paused", _("A moderator paused this match: concede when it "
                                       "resumes."))
    game = game_for(match.game)
    _standing_or_refuse(match, game, seat)
    phase = Phase.objects.filter(match=match, number=match.phase_number).first()
    if phase is None or phase.status != Phase.Status.OPEN:
        raise ServiceError("not_allowed", _("The current phase is held for a moderator; "
                                            "concede when the match plays on."))
    now = _now(now)
    before = game.prompts(match.state)
    try:
        outcome = game.resign(match.state, seat.number, now)
    except RuleError as error:
        raise ServiceError("invalid", _("Your seat cannot concede now."),
                           error.problems) from None
    fields = ["state"]
    if phase.kind == CONTINUOUS:
        match.logbook_seq += 1
        fields.append("logbook_seq")
        Action.objects.create(match=match, seq=match.logbook_seq, kind=Action.Kind.RESIGN,
                              seat=seat.number, data={}, at=now, source=source,
                              events=list(outcome.events))
    else:
        phase.settings = [*(phase.settings or []),
                          {"seat": seat.number, "kind": SETTING_RESIGN, "at": now.isoformat()}]
        Submission.objects.filter(phase=phase, seat=seat).delete()  # never to be played
    seat.status = Seat.Status.CONCEDED
    seat.save(update_fields=["status"])
    match.state = outcome.state
    standing = seats_standing(match, game, list(match.seats.all()))
    vote = MatchVote.objects.create(
        match=match, kind=MatchVote.Kind.CONCEDE, status=MatchVote.Status.PASSED,
        seat_number=seat.number, proposed_by=user, phase_number=match.phase_number,
        opened_at=now, closed_at=now, standing=[s.number for s in standing])
    events: list[tuple] = []
    result = game.result(outcome.state)
    prompts = game.prompts(outcome.state)
    if result is not None or not prompts:
        vote.ended_match = True
        vote.save(update_fields=["ended_match"])
        _end(match, game, Match.Status.FINISHED,
             by_concession(result, [seat.number], game.phrasebook).as_json(),
             result.reason if result is not None else "conceded", now, events, tuple(fields),
             phase=phase)
    else:
        events.append(_notice(vote, "conceded"))
        _play_on(match, game, phase, before, prompts, now, events, fields)
        for open_vote in MatchVote.objects.select_for_update().filter(
                match=match, status=MatchVote.Status.OPEN):
            if _pass_if_agreed(match, game, open_vote, standing, now, events):
                break  # the match is over
    outbox_write(events)
    logger.info("match %s: seat %s conceded", match.pk, seat.number)
    return vote


def _play_on(match: Match, game: Game, phase: Phase, before: dict, prompts: dict,
             now: datetime, events: list[tuple], fields: list[str]) -> None:
    """After a concession the match goes on: a continuous phase as it is; a phase whose turn
    passed to a seat it did not ask before closes unplayed and the next one opens for that
    seat (its own deadline, "your move", a bot's turn); otherwise the phase stays open without
    the seat, and is resolved if everyone it still waits for is in."""
    if phase.kind == CONTINUOUS:
        match.save(update_fields=fields)
        return
    if set(prompts) - set(before):
        phase.status, phase.resolved_at = Phase.Status.CLOSED, now
        phase.save(update_fields=["settings", "status", "resolved_at"])
        clocks_close(match, required=required_seats(before), defaulted=[], now=now)
        bots = dict(Seat.objects.filter(match=match).exclude(bot="")
                    .values_list("number", "bot"))
        phase_open(match=match, game=game, state=match.state, number=phase.number + 1,
                   now=now, events=events, bots=bots)
        match.queued_at = None
        match.save(update_fields=[*fields, "phase_number", "phase_kind", "phase_name",
                                  "deadline", "complete_at", "queued_at", "timing"])
        return
    phase.save(update_fields=["settings"])
    match.save(update_fields=fields)
    required = required_seats(prompts)
    submitted = set(phase.submissions.values_list("seat__number", flat=True))
    if required and required <= submitted and match.complete_at is None:
        match.complete_at = now
        match.save(update_fields=["complete_at"])
        enqueue_on_commit("games.tasks.resolve_phase", match_id=match.pk,
                          phase_number=phase.number)


def concessions_roll_back(*, match: Match, from_phase: int) -> list[int]:
    """A moderator's roll-back to phase ``from_phase`` undoes the concessions made in it and
    later: their seats take part again (caller holds the lock). Returns the seat numbers."""
    now = timezone.now()
    undone = []
    for vote in MatchVote.objects.select_for_update().filter(
            match=match, kind=MatchVote.Kind.CONCEDE, status=MatchVote.Status.PASSED,
            phase_number__gte=from_phase):
        _close(vote, MatchVote.Status.CLOSED, now, why=MatchVote.Why.ROLLED_BACK)
        undone.append(vote.seat_number)
    if undone:
        Seat.objects.filter(match=match, number__in=undone,
                            status=Seat.Status.CONCEDED).update(status=Seat.Status.TAKEN)
    return undone


def votes_seat_changed(*, match: Match, now: datetime) -> list[tuple]:
    """A seat of the locked ``match`` changes hands (its player left it, was flagged after
    missed deadlines or removed, a moderator handed it on): the open proposals close, since
    they were put to its former player, whose ballot binds nobody after them, and a proposal
    needs every seat's present player. Returns the "closed" notices for the caller's outbox
    (the players still in are told; a new proposal may be made once every seat has a
    player)."""
    events = []
    votes = list(MatchVote.objects.select_for_update().filter(
        match=match, status=MatchVote.Status.OPEN, kind__in=PROPOSALS))
    standing = _standing_now(match) if votes else []  # (its notice says who had not voted)
    for vote in votes:
        _close(vote, MatchVote.Status.CLOSED, now, standing, why=MatchVote.Why.SEAT_CHANGED)
        events.append(_notice(vote, "closed"))
    return events


# -- expiry and the moderators' lock -----------------------------------------------------------

def votes_expire(*, now: datetime | None = None, batch: int = 500) -> int:
    """Expire the open proposals whose time ran out, each exactly once (its status changes
    under the match lock; the notice to everyone is promised in the same transaction); close
    quietly the ones left open in matches that ended otherwise. Beat runs it
    (``games.tasks.votes_expire``). Returns how many expired."""
    now = _now(now)
    MatchVote.objects.filter(status=MatchVote.Status.OPEN).exclude(
        match__status=Match.Status.ACTIVE).update(
        status=MatchVote.Status.CLOSED, closed_why=MatchVote.Why.ENDED, closed_at=now)
    due = list(MatchVote.objects.filter(status=MatchVote.Status.OPEN, expires_at__lte=now)
               .order_by("expires_at", "pk").values_list("pk", "match_id")[:batch])
    expired = 0
    for vote_id, match_id in due:
        with transaction.atomic():
            match = match_lock(match_id)
            vote = MatchVote.objects.select_for_update().get(pk=vote_id)
            if vote.status != MatchVote.Status.OPEN or vote.expires_at > now:
                continue  # voted on, or expired by another sweep, meanwhile
            _close(vote, MatchVote.Status.EXPIRED, now, _standing_now(match))
            outbox_write([_notice(vote, "expired")])
            expired += 1
    return expired


@transaction.atomic
def votes_lock(*, match_id: Any, by: AbstractBaseUser | None, reason: str,
               locked: bool = True) -> bool:
    """A moderator locks (or unlocks) the players' votes to end the match, saying why: while
    locked nobody may propose or vote, and locking closes the open proposals (everyone is
    told). One audit row; a lock that is already in place changes nothing (False)."""
    from games.services.moderation import audit_write, moderator_check, reason_required

    moderator_check(by)
    text = reason_required(reason)
    match = match_lock(match_id)
    _in_play(match)
    if match.votes_locked == locked:
        return False
    match.votes_locked = locked
    match.save(update_fields=["votes_locked"])
    events = []
    if locked:
        now = timezone.now()
        for vote in MatchVote.objects.select_for_update().filter(
                match=match, status=MatchVote.Status.OPEN):
            _close(vote, MatchVote.Status.CLOSED, now, _standing_now(match),
                   why=MatchVote.Why.LOCKED)
            events.append(_notice(vote, "closed"))
    outbox_write(events)
    audit_write(match=match, kind=ModerationEntry.Kind.VOTES_LOCK if locked
                else ModerationEntry.Kind.VOTES_UNLOCK, by=by, reason=text,
                summary="a moderator locked the players' votes to end the match" if locked
                else "a moderator unlocked the players' votes to end the match",
                details={"closed_votes": [e[3]["vote_id"] for e in events]})
    return True
