"""Leagues: seasons of divisions, each a round robin, with promotion and relegation.

Everything that changes a league takes its row lock first (``league_lock``): two workers
recording the last two results of a season at the same moment are serialised, so a season
ends and the next one is built exactly once. The rules (the first divisions, who goes up and
down, scoring an unfinished match) are the pure functions of ``competitions.seasons``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from competitions import pairing as core
from competitions import seasons as rules
from competitions.models import (
    Division,
    DivisionPlace,
    Ladder,
    League,
    LeagueMatch,
    LeagueMember,
    Season,
)
from competitions.services.clubs import membership_of, organising_club, require_organiser
from competitions.services.ladders import ladder_rating_of, site_ladder
from competitions.services.tournaments import _decimal, _whole
from competitions.signals import season_changed
from games.endings import ending_of
from games.models import DeadlineMiss, Match, Phase, Seat, SeatTenure, Submission
from games.parsing import id_or_none
from games.services import ServiceError, match_create
from games.services.common import game_for

logger = logging.getLogger(__name__)
LAST_WEEK = timedelta(days=7)
# A seat whose player did not play the match out: it counts as a forfeit in the league.
FORFEIT_ENDINGS = (SeatTenure.Ending.MISSED, SeatTenure.Ending.FORFEITED,
                   SeatTenure.Ending.LEFT)


def league_lock(league_id: Any) -> League:
    """Lock and return the league row: every change to a league goes through here."""
    try:
        return League.objects.select_for_update().get(pk=id_or_none(league_id))
    except (League.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no league %(id)s.") % {
            "id": str(league_id)[:20]}) from None


def require_league_organiser(league: League, by: Any) -> None:
    """A club's league: its owner and organisers; a site-wide one: admins."""
    if league.club_id:
        require_organiser(league.club, by)
    elif by is None or not getattr(by, "is_staff", False):
        raise ServiceError("not_allowed", _("Only admins run site-wide leagues."))


def may_organise(league: League, user: Any) -> bool:
    try:
        require_league_organiser(league, user)
    except ServiceError:
        return False
    return True


def league_ladder(league: League) -> Ladder:
    """The ratings the league seeds and breaks ties by: the club's ladder of the game, else
    the site's."""
    if league.club_id:
        ladder = Ladder.objects.filter(club_id=league.club_id, game=league.game).first()
        if ladder is not None:
            return ladder
    return site_ladder(game=league.game)


# --- creating a league, joining and leaving -------------------------------------------------


@transaction.atomic
def league_create(
    *, by: AbstractBaseUser, name: str, game: str, club_id: Any = None,
    options: dict | None = None, seats_per_match: Any = 2, division_size: Any = 8,
    season_days: Any = 42, hours_per_phase: Any = 48, fixed_deadlines: bool = False,
    bots_allowed: bool = False, waits_for_last_match: bool = False, moves: Any = None,
    relegate_forfeits: Any = None,
) -> League:
    """Create a league (a club's organisers; site-wide ones: admins)."""

    club = organising_club(by=by, club_id=club_id, site_wide_refusal=_(
        "Only admins create site-wide leagues."))
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ServiceError("invalid", _("A league needs a name of 1 to 120 characters."))
    the_game = game_for(game)
    try:
        clean = the_game.validate_options(options or {})
    except engine.RuleError as error:
        raise ServiceError("invalid_options", _("The game options are not valid."),
                           error.problems) from None
    seats = _whole(seats_per_match, _("The seats per match"), 2, 100, empty_ok=False)
    assert seats is not None
    if not the_game.min_seats <= seats <= the_game.max_seats:
        raise ServiceError("invalid", _("%(game)s is played by %(least)s to %(most)s, not by "
                                        "%(seats)s.") % {
            "game": the_game.name, "least": the_game.min_seats, "most": the_game.max_seats,
            "seats": seats})
    if seats > 2 and the_game.min_seats > seats - 1:
        raise ServiceError("invalid", _(
            "%(game)s is played by %(least)s to %(most)s: not in pods of %(size)s and "
            "%(smaller)s.") % {"game": the_game.name, "least": the_game.min_seats,
                               "most": the_game.max_seats, "size": seats,
                               "smaller": seats - 1})
    size = _whole(division_size, _("The division size"), 2, 64, empty_ok=False)
    assert size is not None
    return League.objects.create(
        club=club, name=name, game=the_game.slug, options=clean, seats_per_match=seats,
        division_size=size,
        season_days=_whole(season_days, _("The season's length in days"), 1, 366,
                           empty_ok=False),
        hours_per_phase=_decimal(hours_per_phase, _("Hours per phase"), "0.001", "8760"),
        fixed_deadlines=bool(fixed_deadlines), bots_allowed=bool(bots_allowed),
        waits_for_last_match=bool(waits_for_last_match),
        moves=_whole(moves, _("The players up and down"), 0, 32),
        relegate_forfeits=_whole(relegate_forfeits, _("The forfeits that relegate"), 1, 99),
        created_by=by)


@transaction.atomic
def league_join(*, league_id: Any, user: AbstractBaseUser,
                now: datetime | None = None) -> LeagueMember:
    """Join a league. During a season the player is a newcomer: they play from the next
    season, in its last division. Someone who left may join again (as a newcomer)."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to join."))
    league = league_lock(league_id)
    if league.club_id and membership_of(league.club, user) is None:
        raise ServiceError("not_allowed", _("This league is for the club's members."))
    now = now or timezone.now()
    member = LeagueMember.objects.filter(league=league, user=user).first()
    if member is not None:
        if member.left_at is None:
            raise ServiceError("invalid", _("You already play in this league."))
        member.left_at = None
        member.joined_at = now
        member.save(update_fields=["left_at", "joined_at"])
        return member
    return LeagueMember.objects.create(league=league, user=user, joined_at=now)


def _leave(member: LeagueMember, now: datetime) -> None:
    """Out of the league from the next season on: a running season's matches are played out
    and the player takes no place up or down. Someone who has played is kept (the archive
    names them); someone who has not is removed."""
    if DivisionPlace.objects.filter(member=member).exists():
        member.left_at = now
        member.save(update_fields=["left_at"])
    else:
        member.delete()


@transaction.atomic
def league_leave(*, league_id: Any, user: AbstractBaseUser,
                 now: datetime | None = None) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in first."))
    league = league_lock(league_id)
    member = LeagueMember.objects.filter(league=league, user=user, left_at=None).first()
    if member is None:
        raise ServiceError("not_found", _("You do not play in this league."))
    _leave(member, now or timezone.now())


@transaction.atomic
def league_bot_enter(*, league_id: Any, by: AbstractBaseUser, bot: str,
                     now: datetime | None = None) -> LeagueMember:
    """An organiser enters one of the game's bots, where the league allows bots."""
    league = league_lock(league_id)
    require_league_organiser(league, by)
    if not league.bots_allowed:
        raise ServiceError("not_allowed", _("This league does not allow bots."))
    the_game = engine.get(league.game)
    if bot not in the_game.bots:
        if not the_game.bots:
            raise ServiceError("invalid", _("%(game)s has no bots.") % {"game": the_game.name})
        raise ServiceError("invalid", _("%(game)s has no bot called “%(bot)s”; its bots are: "
                                        "%(bots)s.") % {"game": the_game.name, "bot": bot,
                                                        "bots": ", ".join(the_game.bots)})
    last = LeagueMember.objects.filter(league=league, user=None, bot=bot).aggregate(
        last=Max("bot_number"))["last"]
    return LeagueMember.objects.create(league=league, bot=bot, bot_number=(last or 0) + 1,
                                       joined_at=now or timezone.now())


@transaction.atomic
def league_bot_remove(*, league_id: Any, by: AbstractBaseUser, member_id: Any,
                      now: datetime | None = None) -> None:
    league = league_lock(league_id)
    require_league_organiser(league, by)
    member = LeagueMember.objects.filter(league=league, user=None, left_at=None,
                                         pk=id_or_none(member_id)).first()
    if member is None:
        raise ServiceError("not_found", _("There is no such bot playing in this league."))
    _leave(member, now or timezone.now())


# --- reading a season for the rules ---------------------------------------------------------


def _rating(league: League, ladder: Ladder, member: LeagueMember, now: datetime) -> float:
    """A person's conservative rating; a bot's is the start rating of the ladder."""
    if member.user_id is None:
        return ladder_rating_of(ladder, -1, now)
    return ladder_rating_of(ladder, member.user_id, now)


def division_members(division: Division) -> list[int]:
    return list(DivisionPlace.objects.filter(division=division).order_by("position")
                .values_list("member_id", flat=True))


def division_standings_rows(division: Division, league: League) -> list[dict[str, Any]]:
    """The division's standings by the pure core (``standings``, or ``pods_standings`` for
    games of three or more seats): rows ``{id (member), points, rank, ...}``."""
    ids = division_members(division)
    players = [{"id": pid, "rating": 0} for pid in ids]
    scored = LeagueMatch.objects.filter(division=division).exclude(finished_at=None) \
        .order_by("round_number", "board")
    if league.seats_per_match > 2:
        games = [{"round": lm.round_number, "pod": list(lm.seats), "ranking": lm.ranking or []}
                 for lm in scored]
        # A round's bye (only where the players cannot be split into pods of the size and one
        # fewer) scores the average of a full pod, as in a tournament of pods.
        bye = (league.seats_per_match - 1) / 2
        games += [{"round": number, "pod": pod, "score": bye}
                  for number, pods in enumerate(rules.division_pods(ids, league.seats_per_match),
                                                start=1) for pod in pods if len(pod) == 1]
        return core.pods_standings(players, games)
    games = []
    for lm in scored:
        first, second = lm.seats
        groups = lm.ranking or [[first, second]]
        if len(groups) == 1:
            score, other = 0.5, 0.5
        else:
            score, other = (1, 0) if first in groups[0] else (0, 1)
        games.append({"round": lm.round_number, "first": first, "second": second,
                      "score": score, "second_score": other, "forfeit": bool(lm.forfeits)})
    return core.standings(players, games)


def _forfeits(season: Season) -> dict[int, int]:
    counts: dict[int, int] = {}
    for forfeited in LeagueMatch.objects.filter(division__season=season) \
            .values_list("forfeits", flat=True):
        for pid in forfeited or []:
            counts[pid] = counts.get(pid, 0) + 1
    return counts


def league_rules(league: League, newcomers: list[dict[str, Any]]) -> dict[str, Any]:
    return {"size": league.division_size,
            "move": "quarter" if league.moves is None else league.moves,
            "relegate_forfeits": league.relegate_forfeits, "newcomers": newcomers}


def season_results(season: Season, now: datetime | None = None
                   ) -> tuple[list[list[int]], list[dict[str, Any]], dict[int, list[dict]]]:
    """The season's divisions (member ids in order), one result row per player as
    ``season_next`` reads them, and each division's standings (by division number)."""
    league = season.league
    ladder = league_ladder(league)
    now = now or timezone.now()
    forfeits = _forfeits(season)
    members = {m.pk: m for m in LeagueMember.objects.filter(league=league)}
    divisions, results, tables = [], [], {}
    for division in Division.objects.filter(season=season).order_by("number"):
        ids = division_members(division)
        rows = division_standings_rows(division, league)
        tables[division.number] = rows
        divisions.append(ids)
        rank = {row["id"]: row["rank"] for row in rows}
        for pid in ids:
            member = members[pid]
            results.append({"id": pid, "division": division.number, "rank": rank[pid],
                            "rating": _rating(league, ladder, member, now),
                            "forfeits": forfeits.get(pid, 0),
                            "left": member.left_at is not None})
    return divisions, results, tables


# --- starting a season ----------------------------------------------------------------------


def _create_match(league: League, season: Season, division: Division, round_number: int,
                  board: int, members: list[LeagueMember]) -> LeagueMatch:
    fixed = {"max_shift_hours": 0, "allow_vacations": False} if league.fixed_deadlines else {}
    match = match_create(
        creator=league.created_by, game=league.game, options=league.options,
        seats=[m.seat for m in members], hours_per_phase=league.hours_per_phase,
        is_public=league.club is None or league.club.is_public,
        # Read by players of every language: season, division, round and board as numbers.
        title=f"{league.name} S{season.number} D{division.number} "
              f"{round_number}.{board}"[:120],
        **fixed)
    return LeagueMatch.objects.create(division=division, match=match,
                                      round_number=round_number, board=board,
                                      seats=[m.pk for m in members])


def _schedule(league: League, ids: list[int]) -> list[list[list[int]]]:
    """A division's rounds: lists of boards (member ids in seat order), byes left out."""
    if len(ids) < 2:
        return []
    if league.seats_per_match > 2:
        return [[pod for pod in pods if len(pod) > 1]
                for pods in rules.division_pods(ids, league.seats_per_match)]
    return [[[ids[a - 1], ids[b - 1]] for a, b in pairs if b is not None]
            for pairs in core.round_robin(len(ids))]


def _season_open(league: League, number: int, divisions: list[list[int]],
                 now: datetime) -> Season:
    """Create season ``number`` with these divisions and every match of their round robins
    (caller holds the league lock)."""
    season = Season.objects.create(league=league, number=number, starts_at=now,
                                   ends_at=now + timedelta(days=league.season_days))
    members = {m.pk: m for m in LeagueMember.objects.filter(league=league)
               .select_related("user")}
    for division_number, ids in enumerate(divisions, start=1):
        division = Division.objects.create(season=season, number=division_number)
        DivisionPlace.objects.bulk_create(
            DivisionPlace(division=division, member_id=pid, position=position)
            for position, pid in enumerate(ids, start=1))
        for round_number, boards in enumerate(_schedule(league, ids), start=1):
            for board, seats in enumerate(boards, start=1):
                _create_match(league, season, division, round_number, board,
                              [members[pid] for pid in seats])
    season_changed.send(sender=Season, season=season, stage="started")
    return season


@transaction.atomic
def season_start(*, league_id: Any, by: AbstractBaseUser | None = None,
                 now: datetime | None = None) -> Season:
    """Start the next season (organisers): the first by rating (``divisions_first``), a later
    one (when the league paused after a season) by ``season_next`` on the last season."""
    league = league_lock(league_id)
    if by is not None:
        require_league_organiser(league, by)
    if Season.objects.filter(league=league, status=Season.Status.RUNNING).exists():
        raise ServiceError("not_open", _("A season of this league is running: it must end "
                                         "before the next one starts."))
    now = now or timezone.now()
    divisions = _next_divisions(league, now)
    if sum(len(d) for d in divisions) < 2:
        raise ServiceError("invalid", _("A season needs at least two players."))
    last = Season.objects.filter(league=league).aggregate(last=Max("number"))["last"] or 0
    return _season_open(league, last + 1, divisions, now)


def _next_divisions(league: League, now: datetime) -> list[list[int]]:
    ladder = league_ladder(league)
    active = list(LeagueMember.objects.filter(league=league, left_at=None))
    previous = Season.objects.filter(league=league).order_by("-number").first()
    if previous is None:
        return rules.divisions_first(
            [{"id": m.pk, "rating": _rating(league, ladder, m, now)} for m in active],
            league.division_size)
    divisions, results, _ = season_results(previous, now)
    placed = {pid for d in divisions for pid in d}
    newcomers = [{"id": m.pk, "rating": _rating(league, ladder, m, now)}
                 for m in active if m.pk not in placed]
    return rules.season_next(divisions, results, league_rules(league, newcomers))


# --- results and the season's end -----------------------------------------------------------


def clock_used(match: Match, now: datetime) -> dict[int, float]:
    """Seconds each seat has used of its own time: from each phase's opening to its sheet
    (to the deadline for a missed one), and for the open phase, to now for a seat that owes
    a sheet."""
    used = {s.number: 0.0 for s in Seat.objects.filter(match=match)}
    phases = {p.number: p for p in Phase.objects.filter(match=match)}
    for number, seat, at in Submission.objects.filter(seat__match=match).values_list(
            "phase__number", "seat__number", "submitted_at"):
        phase = phases.get(number)
        if phase is not None and seat in used:
            used[seat] += max(0.0, (at - phase.opened_at).total_seconds())
    for number, seat in DeadlineMiss.objects.filter(match=match).values_list(
            "phase_number", "seat_number"):
        phase = phases.get(number)
        if phase is not None and seat in used:
            until = phase.resolved_at or phase.deadline or now
            used[seat] += max(0.0, (until - phase.opened_at).total_seconds())
    current = phases.get(match.phase_number) if match.phase_number else None
    if current is not None and current.status == Phase.Status.OPEN and match.state is not None:
        submitted = set(Submission.objects.filter(phase=current).values_list("seat__number",
                                                                            flat=True))
        try:
            owing = [n for n, prompt in engine.get(match.game).prompts(match.state).items()
                     if prompt.required]
        except Exception:  # a game that cannot say who owes: nobody's time runs
            logger.exception("no prompts for match %s", match.pk)
            owing = []
        for seat in owing:
            if seat in used and seat not in submitted:
                used[seat] += max(0.0, (now - current.opened_at).total_seconds())
    return used


def _forfeited_members(lm: LeagueMatch, match: Match) -> list[int]:
    seats = Seat.objects.filter(match=match)
    forfeited = {s.number for s in seats if s.status == Seat.Status.FORFEITED}
    forfeited |= set(SeatTenure.objects.filter(match=match, ending__in=FORFEIT_ENDINGS)
                     .values_list("seat_number", flat=True))
    return [pid for number, pid in enumerate(lm.seats, start=1) if number in forfeited]


def _ranking_of_seats(lm: LeagueMatch, ranking: list[list[int]]) -> list[list[int]]:
    """Groups of seat numbers -> groups of member ids (seats left out share the last place)."""
    groups = [[lm.seats[int(s) - 1] for s in group if 1 <= int(s) <= len(lm.seats)]
              for group in ranking]
    groups = [g for g in groups if g]
    placed = {pid for g in groups for pid in g}
    missing = [pid for pid in lm.seats if pid not in placed]
    return groups + ([missing] if missing else [])


def _score(lm: LeagueMatch, match: Match, now: datetime) -> bool:
    """Score a league match for the standings once its match is over (False: not yet)."""
    ending = ending_of(match)
    if match.status == Match.Status.FINISHED and ending is not None and ending.has_result:
        lm.ranking = _ranking_of_seats(lm, [list(group) for group in ending.ranking])
    elif match.status in (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.VOIDED):
        # no result (nobody left to act), voided or aborted: adjudicated by the clocks
        lm.ranking = _ranking_of_seats(lm, rules.adjudicate(clock_used(match, now)))
        lm.adjudicated = True
    else:
        return False
    lm.forfeits = _forfeited_members(lm, match)
    lm.finished_at = now
    lm.save(update_fields=["ranking", "adjudicated", "forfeits", "finished_at"])
    return True


def league_result_record(*, match_id: Any, now: datetime | None = None) -> bool:
    """Record a league match's result once (the match_ended receiver and the sweeper call
    this; a second call changes nothing) and end the season if it was the last one it
    waited for."""
    found = LeagueMatch.objects.filter(match_id=match_id).values_list(
        "division__season__league_id", flat=True).first()
    if found is None:
        return False
    with transaction.atomic():
        league_lock(found)
        lm = LeagueMatch.objects.select_related("division__season").get(match_id=match_id)
        if lm.finished_at is not None:
            return False
        now = now or timezone.now()
        if not _score(lm, Match.objects.get(pk=match_id), now):
            return False
        season = lm.division.season
        if season.status == Season.Status.RUNNING and season.ends_at <= now:
            _season_close_if_done(season, now)
    return True


def _season_close_if_done(season: Season, now: datetime) -> Season | None:
    """End the season if every match is scored: final standings, moves, notices, and the next
    season built and started. Returns the next season (None if not done or none follows)."""
    if LeagueMatch.objects.filter(division__season=season, finished_at=None).exists():
        return None
    league = season.league
    divisions, results, tables = season_results(season, now)
    moves = rules.season_moves(divisions, results, league_rules(league, []))
    forfeits = {row["id"]: row["forfeits"] for row in results}
    for division in Division.objects.filter(season=season):
        rows = {row["id"]: row for row in tables[division.number]}
        for place in DivisionPlace.objects.filter(division=division):
            row = rows[place.member_id]
            place.rank = row["rank"]
            place.points = Decimal(str(row["points"]))
            place.forfeits = forfeits.get(place.member_id, 0)
            place.move = moves[place.member_id]
            place.save(update_fields=["rank", "points", "forfeits", "move"])
    season.status = Season.Status.FINISHED
    season.finished_at = now
    season.save(update_fields=["status", "finished_at"])
    season_changed.send(sender=Season, season=season, stage="ended")
    following = _next_divisions(league, now)
    if sum(len(d) for d in following) < 2:
        logger.info("league %s: no season after %s (too few players)", league.pk, season.number)
        return None
    return _season_open(league, season.number + 1, following, now)


def season_end(*, season_id: Any, now: datetime | None = None) -> int:
    """At a season's end date: score each match still running by ``adjudicate`` (it goes on,
    unrated) unless the league waits for its last match, then end the season and start the
    next. Returns how many matches were adjudicated (0 if not due, or done)."""
    league_id = Season.objects.filter(pk=id_or_none(season_id)).values_list(
        "league_id", flat=True).first()
    if league_id is None:
        raise ServiceError("not_found", _("There is no such season."))
    now = now or timezone.now()
    with transaction.atomic():
        league = league_lock(league_id)
        season = Season.objects.get(pk=season_id)
        if season.status != Season.Status.RUNNING or season.ends_at > now:
            return 0
        count = 0
        for lm in LeagueMatch.objects.filter(division__season=season, finished_at=None):
            match = Match.objects.get(pk=lm.match_id)
            if _score(lm, match, now):
                continue
            if league.waits_for_last_match:
                continue
            lm.ranking = _ranking_of_seats(lm, rules.adjudicate(clock_used(match, now)))
            lm.adjudicated = True
            lm.forfeits = _forfeited_members(lm, match)
            lm.finished_at = now
            lm.save(update_fields=["ranking", "adjudicated", "forfeits", "finished_at"])
            count += 1
        _season_close_if_done(season, now)
    return count


def season_last_week(*, season_id: Any, now: datetime | None = None) -> bool:
    """Tell the players their season's last week has come (once)."""
    league_id = Season.objects.filter(pk=id_or_none(season_id)).values_list(
        "league_id", flat=True).first()
    if league_id is None:
        return False
    now = now or timezone.now()
    with transaction.atomic():
        league_lock(league_id)
        season = Season.objects.get(pk=season_id)
        if season.status != Season.Status.RUNNING or season.last_week_noticed \
                or season.ends_at - LAST_WEEK > now:
            return False
        season.last_week_noticed = True
        season.save(update_fields=["last_week_noticed"])
        if season.ends_at - season.starts_at > LAST_WEEK:  # a season of a week has no last one
            season_changed.send(sender=Season, season=season, stage="last_week")
    return True


def adjudicated_league_match(match_id: Any) -> bool:
    """Whether the match was scored for a league's standings at the season's end: its own
    result, when it comes, is not rated."""
    return LeagueMatch.objects.filter(match_id=match_id, adjudicated=True).exists()
