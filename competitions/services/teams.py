"""Team matches between clubs and team leagues.

A club's organiser challenges another club to a team match of N boards of a two-seat game;
the other club's organisers accept or decline. Each club's captains (its organisers) name a
roster, a player per board and alternates, board 1 the strongest by rating unless they order
it themselves, and may swap a board's player for an alternate until that board's match starts.
At the start each board's match is created, club A holding seat 1 on odd boards and club B on
even ones; a board a club could not field is forfeited to the other. As boards end their
results are recorded once, and the last one scores the team match by ``team_match``.

A team league is a round robin of team matches among clubs (``round_robin``), its table by
``team_standings``. Everything that changes a team match locks its league (if any) and then
its row, in that order, so two boards ending at once, the sweeper and a captain are serialised.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from competitions import pairing as core
from competitions.models import (
    Club,
    Membership,
    TeamBoard,
    TeamLeague,
    TeamLeagueClub,
    TeamMatch,
    TeamPlayer,
)
from competitions.services.clubs import club_lock, require_organiser
from competitions.services.ladders import ladder_rating_of, site_ladder
from competitions.services.tournaments import _decimal, _whole
from competitions.signals import team_match_finished
from games.endings import ending_of
from games.models import Match, Seat
from games.parsing import id_or_none
from games.services import ServiceError, match_create
from games.services.common import game_for

logger = logging.getLogger(__name__)
Status = TeamMatch.Status
ONE, HALF, ZERO = Decimal(1), Decimal("0.5"), Decimal(0)
MAX_BOARDS = 32
MAX_ALTERNATES = 32
DEFAULT_START_DAYS = 3  # a challenge starts this long after it is made unless told otherwise
LEAGUE_FIRST_ROUND_DAYS = 3  # time for the captains to name their rosters before round 1


# --- locks and lifecycles -------------------------------------------------------------------


def team_league_lock(league_id: Any) -> TeamLeague:
    try:
        return TeamLeague.objects.select_for_update().get(pk=id_or_none(league_id))
    except (TeamLeague.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no team league %(id)s.") % {
            "id": str(league_id)[:20]}) from None


def team_match_lock(team_match_id: Any) -> tuple[TeamLeague | None, TeamMatch]:
    """Lock the team match's league (if it has one), then the team match: the one order every
    change takes."""
    league_id = TeamMatch.objects.filter(pk=id_or_none(team_match_id)).values_list(
        "league_id", flat=True).first() if id_or_none(team_match_id) is not None else None
    league = team_league_lock(league_id) if league_id is not None else None
    try:
        team_match = TeamMatch.objects.select_for_update().select_related(
            "club_a", "club_b").get(pk=id_or_none(team_match_id))
    except (TeamMatch.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no team match %(id)s.") % {
            "id": str(team_match_id)[:20]}) from None
    return league, team_match


def _set_status(team_match: TeamMatch, new_status: str, now: datetime) -> None:
    old = team_match.status
    if new_status not in TeamMatch.TRANSITIONS.get(old, set()):
        raise ServiceError("bad_transition", _("A team match that is %(old)s cannot become "
                                               "%(new)s.") % {
            "old": Status(old).label.lower(), "new": Status(new_status).label.lower()})
    team_match.status = new_status
    fields = ["status"]
    stamp = {Status.ACCEPTED: "decided_at", Status.DECLINED: "decided_at",
             Status.PLAYING: "started_at", Status.FINISHED: "finished_at"}[new_status]
    setattr(team_match, stamp, now)
    fields.append(stamp)
    team_match.save(update_fields=fields + (["decided_by"] if stamp == "decided_at" else []))


# --- checking what organisers ask for -------------------------------------------------------


def _two_seat_game(slug: str) -> engine.Game:
    the_game = game_for(slug)
    if not the_game.min_seats <= 2 <= the_game.max_seats:
        raise ServiceError("invalid", _("%(game)s is not played by two: a team match needs a "
                                        "two-seat game.") % {"game": the_game.name})
    return the_game


def _settings(game: str, options: dict | None, boards: Any, hours_per_phase: Any
              ) -> dict[str, Any]:
    the_game = _two_seat_game(game)
    try:
        clean = the_game.validate_options(options or {})
    except engine.RuleError as error:
        raise ServiceError("invalid_options", _("The game options are not valid."),
                           error.problems) from None
    return {"game": the_game.slug, "options": clean,
            "boards": _whole(boards, _("The number of boards"), 1, MAX_BOARDS, empty_ok=False),
            "hours_per_phase": _decimal(hours_per_phase, _("Hours per phase"), "0.001",
                                        "8760")}


def _club(club_id: Any) -> Club:
    club = Club.objects.filter(pk=id_or_none(club_id)).first() \
        if id_or_none(club_id) is not None else None
    if club is None:
        raise ServiceError("not_found", _("There is no club %(id)s.") % {
            "id": str(club_id)[:20]})
    return club


def _captain(team_match: TeamMatch, club_id: Any, by: AbstractBaseUser | None) -> Club:
    """The side ``club_id`` of the team match, if ``by`` organises it."""
    side = team_match.side_of(id_or_none(club_id))
    if side is None:
        raise ServiceError("not_found", _("That club does not play this team match."))
    club = team_match.club_a if side == "a" else team_match.club_b
    require_organiser(club, by)
    return club


# --- challenges -----------------------------------------------------------------------------


@transaction.atomic
def team_match_challenge(*, by: AbstractBaseUser, club_id: Any, opponent_id: Any, game: str,
                         boards: Any, options: dict | None = None, hours_per_phase: Any = 72,
                         starts_at: datetime | None = None,
                         now: datetime | None = None) -> TeamMatch:
    """An organiser of ``club_id`` challenges the club ``opponent_id`` to a team match; its
    boards' matches start at ``starts_at`` (by default three days on) once accepted."""
    now = now or timezone.now()
    club = club_lock(club_id)
    require_organiser(club, by)
    opponent = _club(opponent_id)
    if opponent.pk == club.pk:
        raise ServiceError("invalid", _("A club cannot challenge itself."))
    clean = _settings(game, options, boards, hours_per_phase)
    starts_at = starts_at or now + timedelta(days=DEFAULT_START_DAYS)
    if starts_at <= now:
        raise ServiceError("invalid", _("The start must be in the future."))
    return TeamMatch.objects.create(club_a=club, club_b=opponent, starts_at=starts_at,
                                    created_by=by, **clean)


@transaction.atomic
def team_match_accept(*, team_match_id: Any, by: AbstractBaseUser,
                      now: datetime | None = None) -> TeamMatch:
    """An organiser of the challenged club accepts."""
    now = now or timezone.now()
    _league, team_match = team_match_lock(team_match_id)
    require_organiser(team_match.club_b, by)
    if team_match.status != Status.PROPOSED:
        raise ServiceError("not_open", _("This team match is %(status)s.") % {
            "status": team_match.get_status_display().lower()})
    if team_match.starts_at <= now:  # accepted late: start as soon as it can
        team_match.starts_at = now + timedelta(days=1)
        team_match.save(update_fields=["starts_at"])
    team_match.decided_by = by
    _set_status(team_match, Status.ACCEPTED, now)
    return team_match


@transaction.atomic
def team_match_decline(*, team_match_id: Any, by: AbstractBaseUser,
                       now: datetime | None = None) -> TeamMatch:
    """An organiser of the challenged club declines, or one of the challenger withdraws."""
    _league, team_match = team_match_lock(team_match_id)
    if team_match.league_id is not None:
        raise ServiceError("not_allowed", _("A team league's match cannot be declined."))
    try:
        require_organiser(team_match.club_b, by)
    except ServiceError:
        require_organiser(team_match.club_a, by)
    if team_match.status != Status.PROPOSED:
        raise ServiceError("not_open", _("This team match is %(status)s.") % {
            "status": team_match.get_status_display().lower()})
    team_match.decided_by = by
    _set_status(team_match, Status.DECLINED, now or timezone.now())
    return team_match


# --- rosters --------------------------------------------------------------------------------


def _users(ids: Any, what: str) -> list[Any]:
    """The users of ``ids`` (ids or users), in that order, each once."""
    if ids is None:
        return []
    if isinstance(ids, str | bytes) or not hasattr(ids, "__iter__"):
        raise ServiceError("invalid", _("%(what)s must be a list of players.") % {"what": what})
    wanted = [getattr(item, "pk", item) for item in ids]
    numbers = [id_or_none(item) for item in wanted]
    if any(number is None for number in numbers):
        raise ServiceError("invalid", _("%(what)s holds something that is not a player.") % {
            "what": what})
    found = get_user_model().objects.in_bulk(numbers)
    missing = [n for n in numbers if n not in found]
    if missing:
        raise ServiceError("not_found", _("There is no player %(id)s.") % {"id": missing[0]})
    return [found[n] for n in numbers]


def _roster_open(team_match: TeamMatch) -> None:
    if team_match.status not in (Status.PROPOSED, Status.ACCEPTED):
        raise ServiceError("not_open", _("The rosters of a team match that is %(status)s "
                                         "cannot change.") % {
            "status": team_match.get_status_display().lower()})


@transaction.atomic
def team_roster_set(*, team_match_id: Any, club_id: Any, by: AbstractBaseUser,
                    players: Any, alternates: Any = (), by_rating: bool = True) -> list[TeamPlayer]:
    """A captain names the club's roster: ``players`` on boards 1, 2, … (at most one per
    board; fewer leaves the last boards unfielded) and ``alternates`` in their order. With
    ``by_rating`` the players go on the boards by their rating on the game's site ladder,
    strongest on board 1 (equal ratings: the earlier account first); without it, in the
    order given. Replaces the club's roster."""
    _league, team_match = team_match_lock(team_match_id)
    club = _captain(team_match, club_id, by)
    _roster_open(team_match)
    on_boards = _users(players, _("The players"))
    extra = _users(alternates, _("The alternates"))
    everyone = on_boards + extra
    if len(on_boards) > team_match.boards:
        raise ServiceError("invalid", _("This team match has %(count)s boards: name at most "
                                        "%(count)s players (and the rest as alternates).") % {
            "count": team_match.boards})
    if len(extra) > MAX_ALTERNATES:
        raise ServiceError("invalid", _("Name at most %(count)s alternates.") % {
            "count": MAX_ALTERNATES})
    if len({user.pk for user in everyone}) != len(everyone):
        raise ServiceError("invalid", _("A player is named twice."))
    members = set(Membership.objects.filter(club=club, user_id__in=[u.pk for u in everyone])
                  .values_list("user_id", flat=True))
    for user in everyone:
        if user.pk not in members:
            raise ServiceError("invalid", _("%(player)s is not a member of %(club)s.") % {
                "player": user.get_username(), "club": club.name})
    other = TeamPlayer.objects.filter(team_match=team_match).exclude(club=club).filter(
        user_id__in=[u.pk for u in everyone]).select_related("user").first()
    if other is not None:
        raise ServiceError("invalid", _("%(player)s already plays for the other club in this "
                                        "team match.") % {"player": other.user.get_username()})
    ladder = site_ladder(game=team_match.game)
    ratings = {user.pk: ladder_rating_of(ladder, user.pk) for user in everyone}
    if by_rating:
        on_boards.sort(key=lambda user: (-ratings[user.pk], user.pk))
    TeamPlayer.objects.filter(team_match=team_match, club=club).delete()
    rows = [TeamPlayer(team_match=team_match, club=club, user=user, board=number,
                       rating=ratings[user.pk])
            for number, user in enumerate(on_boards, start=1)]
    rows += [TeamPlayer(team_match=team_match, club=club, user=user, board=None,
                        position=position, rating=ratings[user.pk])
             for position, user in enumerate(extra, start=1)]
    return TeamPlayer.objects.bulk_create(rows)


@transaction.atomic
def team_board_swap(*, team_match_id: Any, club_id: Any, by: AbstractBaseUser, board: Any,
                    alternate: Any) -> TeamPlayer:
    """A captain puts an alternate on ``board`` until that board's match starts; the player
    who was there becomes an alternate in the alternate's place."""
    _league, team_match = team_match_lock(team_match_id)
    club = _captain(team_match, club_id, by)
    number = _whole(board, _("The board"), 1, team_match.boards, empty_ok=False)
    started = TeamBoard.objects.filter(team_match=team_match, number=number).first()
    if started is not None:
        if started.match_id is not None:
            raise ServiceError("not_open", _("Board %(board)s's match has started: its player "
                                             "can no longer change.") % {"board": number})
        raise ServiceError("not_open", _("Board %(board)s is decided: its player can no longer "
                                         "change.") % {"board": number})
    _roster_open(team_match)
    user_id = id_or_none(getattr(alternate, "pk", alternate))
    coming = TeamPlayer.objects.filter(team_match=team_match, club=club, board=None,
                                       user_id=user_id).first() if user_id else None
    if coming is None:
        raise ServiceError("invalid", _("Choose one of the club's alternates for this team "
                                        "match."))
    if Membership.objects.filter(club=club, user_id=coming.user_id).first() is None:
        raise ServiceError("invalid", _("%(player)s is no longer a member of %(club)s.") % {
            "player": coming.user.get_username(), "club": club.name})
    going = TeamPlayer.objects.filter(team_match=team_match, club=club, board=number).first()
    position = coming.position
    if going is not None:
        going.board = None
        going.position = position
        going.save(update_fields=["board", "position"])
    coming.board = number
    coming.position = 0
    coming.save(update_fields=["board", "position"])
    return coming


def team_roster(team_match: TeamMatch, club_id: int) -> dict[str, Any]:
    """A club's roster as the pages read it: ``boards`` (number -> TeamPlayer or None) and
    ``alternates`` in order."""
    rows = list(TeamPlayer.objects.filter(team_match=team_match, club_id=club_id)
                .select_related("user"))
    by_board = {row.board: row for row in rows if row.board is not None}
    return {"boards": {n: by_board.get(n) for n in range(1, team_match.boards + 1)},
            "alternates": sorted((row for row in rows if row.board is None),
                                 key=lambda row: (row.position, row.pk))}


def roster_complete(team_match: TeamMatch) -> bool:
    """Both clubs have a player on every board."""
    return TeamPlayer.objects.filter(team_match=team_match, board__isnull=False).count() \
        == 2 * team_match.boards


# --- starting and scoring -------------------------------------------------------------------


def _title(team_match: TeamMatch, number: int) -> str:
    # Read by players of every language: clubs and board number, as a team crosstable shows.
    head = f"{team_match.league.name} {team_match.round}: " if team_match.league_id else ""
    return f"{head}{team_match.club_a.name} – {team_match.club_b.name} #{number}"[:120]


def _still_member(player: TeamPlayer | None) -> Any:
    if player is None:
        return None
    if not Membership.objects.filter(club_id=player.club_id, user_id=player.user_id).exists():
        return None  # left the club since they were named: the board is not fielded
    return player.user


def _start(team_match: TeamMatch, league: TeamLeague | None, now: datetime) -> TeamMatch:
    """Create each board's match, forfeit the boards a club could not field (caller holds the
    locks)."""
    _set_status(team_match, Status.PLAYING, now)
    rosters = {club_id: team_roster(team_match, club_id)["boards"]
               for club_id in (team_match.club_a_id, team_match.club_b_id)}
    public = team_match.club_a.is_public and team_match.club_b.is_public
    for number in range(1, team_match.boards + 1):
        a = _still_member(rosters[team_match.club_a_id][number])
        b = _still_member(rosters[team_match.club_b_id][number])
        row = TeamBoard(team_match=team_match, number=number, player_a=a, player_b=b,
                        a_first=number % 2 == 1)
        if a is not None and b is not None:
            seats = [{"kind": "human", "user": a}, {"kind": "human", "user": b}]
            row.match = match_create(
                creator=team_match.created_by, game=team_match.game,
                options=team_match.options,
                seats=seats if row.a_first else seats[::-1],
                hours_per_phase=team_match.hours_per_phase, is_public=public,
                title=_title(team_match, number))
        else:
            row.unfielded = (TeamBoard.Unfielded.BOTH if a is None and b is None
                             else TeamBoard.Unfielded.A if a is None else TeamBoard.Unfielded.B)
            # A forfeit: a 1 or a 0 for club A; neither fielded: nothing for either side.
            row.score = None if a is None and b is None else ONE if b is None else ZERO
            row.adjudicated = "forfeit"
            row.finished_at = now
        row.save()
    _finish_if_done(team_match, league, now)
    return team_match


@transaction.atomic
def team_match_start(*, team_match_id: Any, by: AbstractBaseUser | None = None,
                     now: datetime | None = None) -> TeamMatch:
    """Start an accepted team match: at its start time (the sweeper, ``by`` None), or sooner
    when an organiser of either club asks and both clubs have a player on every board."""
    now = now or timezone.now()
    league, team_match = team_match_lock(team_match_id)
    if by is not None:
        try:
            require_organiser(team_match.club_a, by)
        except ServiceError:
            require_organiser(team_match.club_b, by)
    if team_match.status != Status.ACCEPTED:
        raise ServiceError("not_open", _("This team match is %(status)s.") % {
            "status": team_match.get_status_display().lower()})
    if team_match.starts_at > now and not roster_complete(team_match):
        raise ServiceError("not_open", _(
            "A team match starts before its time only when both clubs have a player on every "
            "board."))
    return _start(team_match, league, now)


def team_matches_start_due(*, now: datetime | None = None) -> int:
    """The sweeper: start every accepted team match whose start time has come."""
    now = now or timezone.now()
    started = 0
    for team_match_id in list(TeamMatch.objects.filter(status=Status.ACCEPTED,
                                                       starts_at__lte=now)
                              .values_list("pk", flat=True)):
        try:
            team_match_start(team_match_id=team_match_id, now=now)
            started += 1
        except ServiceError as error:  # started meanwhile
            logger.info("team match %s not started: %s", team_match_id, error.message)
        except Exception:  # one failing team match (a game gone) must not stop the others
            logger.exception("starting team match %s failed", team_match_id)
    return started


def _a_seat(board: TeamBoard) -> int:
    return 1 if board.a_first else 2


def _board_score(board: TeamBoard, match: Match) -> tuple[Decimal, str] | None:
    """Club A's score on a board whose match is over (None while it is played)."""
    ending = ending_of(match)
    if match.status == Match.Status.FINISHED and ending is not None and ending.has_result:
        ranking = [list(group) for group in ending.ranking]
        if len(ranking[0]) > 1:
            return HALF, ""
        return (ONE if _a_seat(board) in ranking[0] else ZERO), ""
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.VOIDED):
        # No result to read: the seat that missed more deadlines loses, else a draw.
        missed = dict(Seat.objects.filter(match=match).values_list("number", "missed_total"))
        mine, theirs = missed.get(_a_seat(board), 0), missed.get(3 - _a_seat(board), 0)
        if mine == theirs:
            return HALF, "draw"
        return (ZERO if mine > theirs else ONE), "forfeit"
    return None


def _finish_if_done(team_match: TeamMatch, league: TeamLeague | None, now: datetime) -> bool:
    """Score the team match by ``team_match`` once every board is over (caller holds locks)."""
    boards = list(TeamBoard.objects.filter(team_match=team_match).order_by("number"))
    if team_match.status != Status.PLAYING or any(not b.done for b in boards):
        return False
    result = core.team_match([None if b.score is None else float(b.score) for b in boards])
    team_match.points_a, team_match.points_b = (Decimal(str(p)) for p in result["points"])
    team_match.winner_id = {0: team_match.club_a_id, 1: team_match.club_b_id,
                            None: None}[result["winner"]]
    team_match.save(update_fields=["points_a", "points_b", "winner"])
    _set_status(team_match, Status.FINISHED, now)
    team_match_finished.send(sender=TeamMatch, team_match=team_match)
    if league is not None and not TeamMatch.objects.filter(league=league).exclude(
            status=Status.FINISHED).exists():
        league.status = TeamLeague.Status.FINISHED
        league.finished_at = now
        league.save(update_fields=["status", "finished_at"])
    return True


def team_board_result_record(*, match_id: Any, now: datetime | None = None) -> bool:
    """Record a board's result once (the match_ended receiver and the sweeper call this; a
    second call changes nothing) and score the team match when it was the last board."""
    found = TeamBoard.objects.filter(match_id=match_id).values_list(
        "team_match_id", flat=True).first()
    if found is None:
        return False
    with transaction.atomic():
        league, team_match = team_match_lock(found)
        board = TeamBoard.objects.get(match_id=match_id)
        if board.done:
            return False
        scored = _board_score(board, Match.objects.get(pk=match_id))
        if scored is None:
            return False
        now = now or timezone.now()
        board.score, board.adjudicated = scored
        board.finished_at = now
        board.save(update_fields=["score", "adjudicated", "finished_at"])
        _finish_if_done(team_match, league, now)
    return True


# --- team leagues ---------------------------------------------------------------------------


@transaction.atomic
def team_league_create(*, by: AbstractBaseUser, club_id: Any, name: str, game: str,
                       boards: Any, clubs: Any, options: dict | None = None,
                       hours_per_phase: Any = 72, cycles: Any = 1,
                       round_days: Any = 14) -> TeamLeague:
    """An organiser of ``club_id`` (the host, which plays in it) invites ``clubs`` to a team
    league; each joins when one of its organisers says so."""
    host = club_lock(club_id)
    require_organiser(host, by)
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ServiceError("invalid", _("A team league needs a name of 1 to 120 characters."))
    clean = _settings(game, options, boards, hours_per_phase)
    if isinstance(clubs, str | bytes) or not hasattr(clubs, "__iter__"):
        raise ServiceError("invalid", _("Choose the clubs to invite."))
    invited = []
    for club_id_ in clubs:
        club = _club(getattr(club_id_, "pk", club_id_))
        if club.pk != host.pk and club not in invited:
            invited.append(club)
    if not invited:
        raise ServiceError("invalid", _("Invite at least one other club."))
    league = TeamLeague.objects.create(
        host=host, name=name, created_by=by,
        cycles=_whole(cycles, _("The cycles"), 1, 2, empty_ok=False),
        round_days=_whole(round_days, _("The days per round"), 1, 365, empty_ok=False),
        **clean)
    TeamLeagueClub.objects.create(league=league, club=host, joined_at=timezone.now())
    TeamLeagueClub.objects.bulk_create(TeamLeagueClub(league=league, club=club)
                                       for club in invited)
    return league


@transaction.atomic
def team_league_join(*, league_id: Any, club_id: Any, by: AbstractBaseUser) -> TeamLeagueClub:
    """An organiser of an invited club says it plays."""
    league = team_league_lock(league_id)
    place = TeamLeagueClub.objects.filter(league=league, club_id=id_or_none(club_id)) \
        .select_related("club").first() if id_or_none(club_id) is not None else None
    if place is None:
        raise ServiceError("not_found", _("That club is not invited to this team league."))
    require_organiser(place.club, by)
    if league.status != TeamLeague.Status.REGISTRATION:
        raise ServiceError("not_open", _("This team league has started."))
    if place.joined_at is None:
        place.joined_at = timezone.now()
        place.save(update_fields=["joined_at"])
    return place


@transaction.atomic
def team_league_start(*, league_id: Any, by: AbstractBaseUser,
                      first_round_at: datetime | None = None,
                      now: datetime | None = None) -> TeamLeague:
    """The host's organiser starts the league with the clubs that joined (invited clubs that
    did not are left out): every round's team matches are made at once, round 1 starting at
    ``first_round_at`` (by default in three days, time to name the rosters) and each next
    round ``round_days`` later."""
    now = now or timezone.now()
    league = team_league_lock(league_id)
    require_organiser(league.host, by)
    if league.status != TeamLeague.Status.REGISTRATION:
        raise ServiceError("not_open", _("This team league has started."))
    places = list(TeamLeagueClub.objects.filter(league=league, joined_at__isnull=False)
                  .select_related("club").order_by("joined_at", "club_id"))
    if len(places) < 2:
        raise ServiceError("invalid", _("A team league needs at least two clubs that joined."))
    first_round_at = first_round_at or now + timedelta(days=LEAGUE_FIRST_ROUND_DAYS)
    if first_round_at < now:
        raise ServiceError("invalid", _("The first round cannot start in the past."))
    for number, place in enumerate(places, start=1):
        place.number = number
        place.save(update_fields=["number"])
    clubs = {place.number: place.club for place in places}
    for round_number, pairs in enumerate(core.round_robin(len(places), league.cycles),
                                         start=1):
        starts_at = first_round_at + timedelta(days=league.round_days * (round_number - 1))
        for first, second in pairs:
            if second is None:  # a bye: this club rests this round
                continue
            TeamMatch.objects.create(
                club_a=clubs[first], club_b=clubs[second], league=league, round=round_number,
                game=league.game, options=league.options, boards=league.boards,
                hours_per_phase=league.hours_per_phase, status=Status.ACCEPTED,
                starts_at=starts_at, created_by=by, decided_at=now)
    league.status = TeamLeague.Status.RUNNING
    league.started_at = now
    league.save(update_fields=["status", "started_at"])
    return league
