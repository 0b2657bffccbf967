"""A tournament's rounds: pairing and creating a round's matches, recording results, closing
a round (when every match is over, or at its end by the organiser's adjudication rule) and
pairing the next. Callers hold the tournament row lock (``tournament_lock``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from competitions import bracket as brackets
from competitions import pairing as core
from competitions.models import Entry, LadderMatch, Pairing, Round, Tournament
from competitions.services.tournaments import (
    default_rounds,
    tournament_lock,
    tournament_set_status,
)
from competitions.signals import round_started, tournament_finished
from games.endings import ending_of
from games.models import Match, Seat
from games.services import ServiceError, match_create, match_set_status

logger = logging.getLogger(__name__)
Format = Tournament.Format
ONE, HALF, ZERO = Decimal(1), Decimal("0.5"), Decimal(0)


@dataclass
class Board:
    """One board of a round to create."""

    entries: list[Entry]  # seat order; one entry: a bye
    bracket: str = ""
    key: str = ""
    walkover: Entry | None = None  # elimination: the other side withdrew
    extra: dict[str, Any] = field(default_factory=dict)


# --- reading the record for the pure core ---------------------------------------------------


def numbered_entries(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).exclude(start_number=None)
                .select_related("user").order_by("start_number"))


def core_players(entries: list[Entry]) -> list[dict[str, Any]]:
    return [{"id": e.start_number, "rating": e.rating, "active": e.status == Entry.Status.ACTIVE}
            for e in entries]


def core_games(tournament: Tournament, entries: list[Entry]) -> list[dict[str, Any]]:
    """Finished two-player pairings as the pure core reads them (start numbers)."""
    number = {e.pk: e.start_number for e in entries}
    games = []
    for p in Pairing.objects.filter(round__tournament=tournament).exclude(finished_at=None) \
            .select_related("round").order_by("round__number", "board"):
        if p.first_id is None:
            continue
        game = {"round": p.round.number, "first": number[p.first_id],
                "second": number.get(p.second_id) if p.second_id else None,
                "score": float(p.score or 0)}
        if p.second_id:
            game["second_score"] = float(p.second_score or 0)
            game["forfeit"] = p.forfeit
        games.append(game)
    return games


def core_pod_games(tournament: Tournament, entries: list[Entry]) -> list[dict[str, Any]]:
    number = {e.pk: e.start_number for e in entries}
    games = []
    for p in Pairing.objects.filter(round__tournament=tournament).exclude(finished_at=None) \
            .select_related("round").order_by("round__number", "board"):
        pod = [number[eid] for eid in p.pod]
        if len(pod) == 1:
            games.append({"round": p.round.number, "pod": pod, "ranking": [pod],
                          "score": float(p.score or 0)})
        else:
            ranking = [[number[eid] for eid in group] for group in (p.ranking or [])]
            games.append({"round": p.round.number, "pod": pod, "ranking": ranking})
    return games


def bracket_of(tournament: Tournament, n: int) -> list[brackets.BracketMatch]:
    if tournament.format == Format.DOUBLE_ELIMINATION:
        return brackets.double_elimination(n)
    return brackets.single_elimination(n)


def elimination_winners(tournament: Tournament, entries: list[Entry]) -> dict[str, int]:
    """Bracket key -> winning start number. A drawn game goes to the better seed."""
    number = {e.pk: e.start_number for e in entries}
    winners = {}
    for p in Pairing.objects.filter(round__tournament=tournament).exclude(finished_at=None) \
            .exclude(bracket_match=""):
        a, b = number[p.first_id], number[p.second_id]
        if p.score is not None and p.second_score is not None and p.score != p.second_score:
            winners[p.bracket_match] = a if p.score > p.second_score else b
        else:
            winners[p.bracket_match] = min(a, b)
    return winners


def elimination_state(tournament: Tournament, entries: list[Entry]):
    matches = bracket_of(tournament, len(entries))
    state = brackets.bracket_state(matches, len(entries),
                                   elimination_winners(tournament, entries))
    return matches, state


# --- planning a round -----------------------------------------------------------------------


def _plan(tournament: Tournament, number: int) -> list[Board]:
    entries = numbered_entries(tournament)
    by_number = {e.start_number: e for e in entries}
    active = {e.start_number for e in entries if e.status == Entry.Status.ACTIVE}
    boards: list[Board] = []
    if tournament.format == Format.ROUND_ROBIN:
        table = core.round_robin(len(entries), tournament.cycles)
        for a, b in table[number - 1]:
            sides = [s for s in (a, b) if s is not None and s in active]
            if len(sides) == 2:
                boards.append(Board([by_number[a], by_number[b]]))  # type: ignore[index]
            elif sides:
                boards.append(Board([by_number[sides[0]]]))  # a bye: the other side withdrew
    elif tournament.format == Format.SWISS:
        pairs = core.swiss_round(core_players(entries), core_games(tournament, entries), number)
        for a, b in pairs:
            boards.append(Board([by_number[a]] if b is None else [by_number[a], by_number[b]]))
    elif tournament.format == Format.PODS:
        pods = core.pods_round(core_players(entries), core_pod_games(tournament, entries),
                               tournament.seats_per_match)
        boards = [Board([by_number[sn] for sn in pod]) for pod in pods]
    else:
        matches, state = elimination_state(tournament, entries)
        for match in matches:
            row = state[match.key]
            if not row["ready"]:
                continue
            first, second = by_number[row["first"]], by_number[row["second"]]
            board = Board([first, second], bracket=match.bracket, key=match.key)
            out = [e for e in (first, second) if e.status != Entry.Status.ACTIVE]
            if out:
                board.walkover = next((e for e in (first, second) if e not in out), first)
            boards.append(board)
    return boards


def rounds_total(tournament: Tournament) -> int | None:
    """How many rounds the tournament has (None: elimination, until the final is played)."""
    count = Entry.objects.filter(tournament=tournament).exclude(start_number=None).count()
    if tournament.format == Format.ROUND_ROBIN:
        return len(core.round_robin(max(count, 2), tournament.cycles))
    if tournament.is_elimination:
        return None
    return default_rounds(tournament, count)


def _more_rounds(tournament: Tournament, number: int) -> bool:
    entries = numbered_entries(tournament)
    if tournament.is_elimination:
        matches, state = elimination_state(tournament, entries)
        return state[matches[-1].key]["winner"] is None
    active = sum(1 for e in entries if e.status == Entry.Status.ACTIVE)
    total = rounds_total(tournament)
    return active >= 2 and total is not None and number < total


# --- opening and closing rounds -------------------------------------------------------------


def _bye_points(tournament: Tournament) -> Decimal:
    if tournament.format == Format.PODS:  # a pod bye: the average of a full pod
        return tournament.bye_score * (tournament.seats_per_match - 1) / 2
    return tournament.bye_score


def _create_match(tournament: Tournament, round_: Round, board_number: int,
                  entries: list[Entry]) -> Match:
    # A tournament with fixed deadlines forbids its matches to move one, for any reason.
    fixed = {"max_shift_hours": 0, "allow_vacations": False} if tournament.fixed_deadlines else {}
    match = match_create(
        creator=tournament.created_by, game=tournament.game, options=tournament.options,
        seats=[e.seat for e in entries],  # a bot entry plays in a bot seat
        hours_per_phase=tournament.hours_per_phase,
        is_public=tournament.club is None or tournament.club.is_public,
        # Read by players of every language: round and board as a chess crosstable writes them.
        title=f"{tournament.name} {round_.number}.{board_number}"[:120],
        **fixed)
    if tournament.ladder_id and tournament.ladder.club_id:
        LadderMatch.objects.get_or_create(ladder_id=tournament.ladder_id, match=match)
    return match


def round_open(*, tournament: Tournament, number: int, now: datetime) -> Round:
    """Pair round ``number`` and create its matches (caller holds the tournament lock).

    Byes and walkovers are scored at once; a round with nothing to play closes at once."""
    round_ = Round.objects.create(
        tournament=tournament, number=number, starts_at=now,
        ends_at=now + timedelta(hours=float(tournament.round_hours)))
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    for board_number, board in enumerate(_plan(tournament, number), start=1):
        pairing = Pairing(round=round_, board=board_number, bracket=board.bracket,
                          bracket_match=board.key)
        if tournament.format == Format.PODS:
            pairing.pod = [e.pk for e in board.entries]
        pairing.first = board.entries[0]
        if len(board.entries) == 2 and tournament.format != Format.PODS:
            pairing.second = board.entries[1]
        if len(board.entries) == 1:
            pairing.score = _bye_points(tournament)
            pairing.finished_at = now
        elif board.walkover is not None:
            won = board.walkover == board.entries[0]
            pairing.score, pairing.second_score = (ONE, ZERO) if won else (ZERO, ONE)
            pairing.forfeit = True
            pairing.adjudicated = "withdrawn"
            pairing.finished_at = now
        else:
            pairing.match = _create_match(tournament, round_, board_number, board.entries)
        pairing.save()
    round_started.send(sender=None, tournament_id=tournament.pk, round_number=number)
    round_check(tournament=tournament, round_=round_, now=now)
    return round_


def round_check(*, tournament: Tournament, round_: Round, now: datetime) -> bool:
    """Close the round if every board is done, then open the next one or finish."""
    if round_.status != Round.Status.RUNNING:
        return False
    if Pairing.objects.filter(round=round_, finished_at=None).exists():
        return False
    round_.status = Round.Status.FINISHED
    round_.finished_at = now
    round_.save(update_fields=["status", "finished_at"])
    if tournament.status != Tournament.Status.RUNNING:
        return True
    if _more_rounds(tournament, round_.number):
        round_open(tournament=tournament, number=round_.number + 1, now=now)
    else:
        tournament_set_status(tournament=tournament, new_status=Tournament.Status.FINISHED,
                              note=f"after round {round_.number}")
        tournament_finished.send(sender=Tournament, tournament=tournament)
    return True


# --- results --------------------------------------------------------------------------------


def _seat_entries(pairing: Pairing) -> list[int]:
    """Entry ids by seat number - 1."""
    if pairing.pod:
        return list(pairing.pod)
    return [pairing.first_id, pairing.second_id]


def _score(pairing: Pairing, ranking: list[list[int]], forfeit: bool, how: str,
           now: datetime) -> None:
    """Store a result given as groups of seat numbers (best first)."""
    seats = _seat_entries(pairing)
    groups = [[seats[int(s) - 1] for s in group if 1 <= int(s) <= len(seats)]
              for group in ranking]
    groups = [g for g in groups if g]
    placed = {e for g in groups for e in g}
    missing = [e for e in seats if e not in placed]
    if missing:
        groups.append(missing)
    if pairing.pod:
        pairing.ranking = groups
        points = core.pod_points(seats, groups)
        pairing.score = Decimal(str(float(points[seats[0]])))
    elif len(groups) == 1:
        pairing.score, pairing.second_score = HALF, HALF
    else:
        first_won = pairing.first_id in groups[0]
        pairing.score, pairing.second_score = (ONE, ZERO) if first_won else (ZERO, ONE)
    pairing.forfeit = forfeit
    pairing.adjudicated = how
    pairing.finished_at = now
    pairing.save()


def _adjudicate(tournament: Tournament, pairing: Pairing, match: Match,
                now: datetime) -> None:
    """Score an unfinished board at the round's end by the organiser's rule."""
    seats = list(Seat.objects.filter(match=match).order_by("number"))
    numbers = [s.number for s in seats]
    rule = tournament.adjudication
    if rule == Tournament.Adjudication.ENGINE:
        result = None
        try:
            if match.state is not None:
                result = engine.get(match.game).result(match.state)
        except Exception:  # a game without a current result: a draw
            logger.exception("no engine result for match %s", match.pk)
        ranking = [list(g) for g in result.ranking] if result else [numbers]
        _score(pairing, ranking, False, "engine", now)
        return
    if rule == Tournament.Adjudication.FORFEIT:
        worst = max((s.missed_total for s in seats), default=0)
        if worst > 0:
            losers = [s.number for s in seats if s.missed_total == worst]
            others = [n for n in numbers if n not in losers]
            if others:
                _score(pairing, [others, losers], True, "forfeit", now)
            else:  # everybody missed as often: everybody forfeits
                _score(pairing, [numbers], True, "forfeit", now)
                pairing.score = ZERO
                pairing.second_score = ZERO if pairing.second_id else None
                pairing.save(update_fields=["score", "second_score"])
            return
    _score(pairing, [numbers], False, "draw", now)


def _record(tournament: Tournament, pairing: Pairing, now: datetime) -> bool:
    match = Match.objects.get(pk=pairing.match_id)
    ending = ending_of(match)
    if match.status == Match.Status.FINISHED and ending is not None and ending.has_result:
        _score(pairing, [list(group) for group in ending.ranking], False, "", now)
    elif match.status in (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.VOIDED):
        # A voided match, or one that ended without a result (nobody left to act), is scored
        # by the adjudication rule.
        _adjudicate(tournament, pairing, match, now)
    else:
        return False
    return True


def pairing_result_record(*, match_id: Any, now: datetime | None = None) -> bool:
    """Record a tournament match's result once (the match_ended receiver and the sweeper call
    this; a second call changes nothing) and close the round when it was the last."""
    found = Pairing.objects.filter(match_id=match_id).values_list(
        "round__tournament_id", flat=True).first()
    if found is None:
        return False
    with transaction.atomic():
        tournament = tournament_lock(found)
        pairing = Pairing.objects.select_related("round").get(match_id=match_id)
        if pairing.finished_at is not None:
            return False
        now = now or timezone.now()
        if not _record(tournament, pairing, now):
            return False
        round_check(tournament=tournament, round_=pairing.round, now=now)
    return True


def round_adjudicate(*, round_id: Any, now: datetime | None = None) -> int:
    """At a round's end: score each unfinished board by the tournament's rule, end its match,
    close the round. Returns how many boards were adjudicated (0 if not due or done)."""
    tournament_id = Round.objects.filter(pk=round_id).values_list(
        "tournament_id", flat=True).first()
    if tournament_id is None:
        raise ServiceError("not_found", _("There is no such round."))
    now = now or timezone.now()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        round_ = Round.objects.get(pk=round_id)
        if round_.status != Round.Status.RUNNING or round_.ends_at > now:
            return 0
        count = 0
        for pairing in Pairing.objects.filter(round=round_, finished_at=None) \
                .exclude(match=None):
            match = Match.objects.select_for_update(no_key=True).get(pk=pairing.match_id)
            if match.status == Match.Status.ACTIVE or match.status == Match.Status.OPEN:
                _adjudicate(tournament, pairing, match, now)
                match_set_status(match=match, new_status=Match.Status.ABORTED,
                                 note=f"round {round_.number} ended: adjudicated "
                                      f"({pairing.adjudicated})")
            else:
                _record(tournament, pairing, now)
            count += 1
        round_check(tournament=tournament, round_=round_, now=now)
    return count
