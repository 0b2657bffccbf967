"""Reads for the competitions' pages: leaderboards, standings, crosstables, brackets."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import engine
from competitions import bracket as brackets
from competitions import pairing as core
from competitions.models import (
    Club,
    ClubMatch,
    ClubRemoval,
    Entry,
    Ladder,
    Membership,
    Pairing,
    Rating,
    RatingChange,
    TeamBoard,
    TeamLeague,
    TeamLeagueClub,
    TeamMatch,
    TeamPlayer,
    Tournament,
)
from competitions.services.ladders import decayed_sigma
from competitions.services.rounds import (
    core_games,
    core_players,
    core_pod_games,
    elimination_state,
    numbered_entries,
)
from games.dates import floatformat
from games.models import Match


def clubs_visible(user: Any) -> QuerySet[Club]:
    """Public clubs, and the invite-only clubs the user belongs to."""
    clubs = Club.objects.all()
    if user.is_authenticated and user.is_staff:
        return clubs
    if user.is_authenticated:
        return clubs.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    return clubs.filter(is_public=True)


def site_ladders() -> QuerySet[Ladder]:
    return Ladder.objects.filter(club__isnull=True).order_by("name")


def club_matches(club: Club) -> QuerySet[Match]:
    """Matches of the club: organisers' club matches, its ladders' and its tournaments'."""
    return Match.objects.filter(
        Q(pk__in=ClubMatch.objects.filter(club=club).values("match_id"))
        | Q(pk__in=Pairing.objects.filter(round__tournament__club=club).values("match_id"))
        | Q(challenge__ladder__club=club)
    ).defer("state", "options")


def club_removals(club: Club) -> QuerySet[ClubRemoval]:
    """The people removed from the club who may not join again yet, oldest first."""
    return ClubRemoval.objects.filter(club=club, lifted_at__isnull=True).select_related("user")


def club_members(club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by(
        "role", "user__username")


# The most opponents a ladder page offers to pick from (the rest are typed).
OPPONENTS_OFFERED = 300


def ladder_opponents(ladder: Ladder, user: Any) -> list[str]:
    """The user names ``user`` may pick to challenge on ``ladder``: the club's members for a
    club's ladder, the players rated on it for a site-wide one; by name, ``user`` left out."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.exclude(pk=getattr(user, "pk", None))
    if ladder.club_id:
        users = users.filter(club_memberships__club_id=ladder.club_id)
    else:
        users = users.filter(pk__in=Rating.objects.filter(ladder=ladder).values("user_id"))
    field = get_user_model().USERNAME_FIELD
    return list(users.order_by(field).values_list(field, flat=True)[:OPPONENTS_OFFERED])


def ladder_leaderboard(ladder: Ladder, now: datetime | None = None) -> list[dict[str, Any]]:
    """Rows by conservative rating (mu - 3 sigma, with inactivity decay), best first."""
    now = now or timezone.now()
    rows = []
    for rating in Rating.objects.filter(ladder=ladder).select_related("user"):
        sigma = decayed_sigma(ladder, rating.sigma, rating.last_active, now)
        rows.append({"user": rating.user, "mu": rating.mu, "sigma": sigma,
                     "conservative": rating.mu - 3 * sigma, "games": rating.games_played,
                     "last_active": rating.last_active})
    rows.sort(key=lambda r: (-r["conservative"], r["user"].get_username()))
    for position, row in enumerate(rows, start=1):
        row["rank"] = position
    return rows


def rating_history(ladder: Ladder, user_id: int) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(update__ladder=ladder, user_id=user_id).select_related(
        "update").order_by("update__played_at", "update_id")


def tournament_standings(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Standings rows best first, each with entry_id, name, start_number, rank and the
    format's figures (points and tie-breaks; pods: points and wins; elimination: place)."""
    entries = numbered_entries(tournament)
    if not entries:
        return []
    by_number = {e.start_number: e for e in entries}
    if tournament.is_elimination:
        matches, state = elimination_state(tournament, entries)
        places = brackets.bracket_placings(matches, state, len(entries))
        rows = [{"id": sn, "rank": places.get(sn)} for sn in by_number]
        rows.sort(key=lambda r: (r["rank"] is None, r["rank"] or 0, r["id"]))
    elif tournament.format == Tournament.Format.PODS:
        rows = core.pods_standings(core_players(entries), core_pod_games(tournament, entries))
    else:
        rows = core.standings(core_players(entries), core_games(tournament, entries))
    for row in rows:
        entry = by_number[row["id"]]
        row.update(entry_id=entry.pk, name=entry.name, is_bot=entry.is_bot,
                   username=entry.user.get_username() if entry.user_id else "",
                   start_number=entry.start_number, withdrawn=entry.status != "active")
    return rows


def tournament_crosstable(*, tournament: Tournament) -> dict[str, Any]:
    """Per player and round: opponent start number, colour (w = first), result (+ = -)."""
    entries = numbered_entries(tournament)
    number = {e.pk: e.start_number for e in entries}
    rounds = list(tournament.rounds.order_by("number"))
    cells: dict[int, dict[int, str]] = defaultdict(dict)
    bye = pgettext("crosstable", "bye")
    first, second = pgettext("crosstable: the first player", "w"), pgettext(
        "crosstable: the second player", "b")
    for p in Pairing.objects.filter(round__tournament=tournament).select_related("round"):
        r = p.round.number
        if p.pod:
            for eid in p.pod:
                cells[eid][r] = bye if len(p.pod) == 1 else pgettext(
                    "crosstable", "pod %(board)s") % {"board": p.board}
            continue
        if p.second_id is None:
            cells[p.first_id][r] = (f"{bye} {floatformat(p.score, '-1')}"
                                    if p.score is not None else bye)
            continue
        for me, other, mine, theirs, colour in (
                (p.first_id, p.second_id, p.score, p.second_score, first),
                (p.second_id, p.first_id, p.second_score, p.score, second)):
            if p.finished_at is None:
                mark = "…"
            elif mine == theirs:
                mark = "="
            else:
                mark = "+" if (mine or 0) > (theirs or 0) else "-"
            if p.forfeit:
                mark = {"+": "+f", "-": "-f"}.get(mark, mark)
            cells[me][r] = f"{number[other]}{colour}{mark}"
    standings = {row["entry_id"]: row for row in tournament_standings(tournament=tournament)}
    rows = [{"entry": e, "cells": [cells[e.pk].get(rnd.number, "") for rnd in rounds],
             "standing": standings.get(e.pk)} for e in entries]
    return {"rounds": rounds, "rows": rows}


def tournament_bracket(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The bracket drawn as columns: one per (bracket, round), its matches and their sides."""
    entries = numbered_entries(tournament)
    if not tournament.is_elimination or len(entries) < 2:
        return []
    by_number = {e.start_number: e for e in entries}
    pairings = {p.bracket_match: p for p in Pairing.objects.filter(
        round__tournament=tournament).exclude(bracket_match="")}
    matches, state = elimination_state(tournament, entries)
    columns: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)

    def side(value: int | None) -> dict[str, Any]:
        if value is None:
            return {"label": "…", "seed": None}
        if value == brackets.EMPTY:
            return {"label": pgettext("bracket", "bye"), "seed": None}
        return {"label": by_number[value].name, "seed": value}

    for match in matches:
        row = state[match.key]
        pairing = pairings.get(match.key)
        columns[(match.bracket, match.round)].append({
            "key": match.key, "first": side(row["first"]), "second": side(row["second"]),
            "winner": row["winner"], "bye": row["bye"],
            "match_id": pairing.match_id if pairing else None,
            "score": (pairing.score, pairing.second_score) if pairing else None,
        })
    titles = {"W": _("Winners' round %(number)s"), "L": _("Losers' round %(number)s")}
    return [{"title": titles[b] % {"number": r} if b != "F" else _("Grand final"),
             "bracket": b, "matches": ms} for (b, r), ms in columns.items()]


def tournament_bots_available(*, tournament: Tournament) -> tuple[str, ...]:
    """The bots an organiser may enter now: the game's, while registration is open."""
    if tournament.status != Tournament.Status.REGISTRATION or not tournament.registration_open:
        return ()
    try:
        return tuple(engine.get(tournament.game).bots)
    except KeyError:  # a game no longer installed
        return ()


def entries_of(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("user").order_by(
        "start_number", "registered_at")


# --- leagues --------------------------------------------------------------------------------


def leagues_visible(user: Any) -> QuerySet[Any]:
    """Site-wide leagues and those of the clubs ``user`` may see."""
    from competitions.models import League

    return League.objects.filter(Q(club__isnull=True) | Q(club__in=clubs_visible(user))) \
        .select_related("club")


def league_players(league: Any) -> list[Any]:
    """The league's players now (not those who left), in the order they joined."""
    from competitions.models import LeagueMember

    return list(LeagueMember.objects.filter(league=league, left_at=None).select_related("user")
                .order_by("joined_at", "pk"))


def _zone(move: str, finished: bool) -> str:
    """Where a row stands, in words (a page never says it by colour alone)."""
    if finished:
        return {"up": pgettext("league move", "Promoted"),
                "down": pgettext("league move", "Relegated"),
                "left": pgettext("league move", "Left the league")}.get(move, "")
    return {"up": _("Promotion place"), "down": _("Relegation place"),
            "left": _("Left the league")}.get(move, "")


def season_tables(season: Any, viewer: Any = None) -> dict[int, list[dict[str, Any]]]:
    """Each division's standings (by division number): rows ``{member_id, name, rank,
    points, wins, played, move, zone, mine}``, best first. A finished season shows the final
    standings it kept; a running one the standings now and the places that go up and down if
    it ended now."""
    from competitions import seasons as rules
    from competitions.models import DivisionPlace, LeagueMatch
    from competitions.services.leagues import league_rules, season_results

    finished = season.status == season.Status.FINISHED
    places = list(DivisionPlace.objects.filter(division__season=season)
                  .select_related("division", "member__user"))
    by_id = {p.member_id: p for p in places}
    played: dict[int, int] = defaultdict(int)
    for seats in LeagueMatch.objects.filter(division__season=season).exclude(
            finished_at=None).values_list("seats", flat=True):
        for pid in seats:
            played[pid] += 1
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) \
        else None
    divisions, results, tables = season_results(season)
    moves = {p.member_id: p.move for p in places} if finished else rules.season_moves(
        divisions, results, league_rules(season.league, []))
    if not finished:  # a division that has played nothing yet has nobody in any place
        started = set(LeagueMatch.objects.filter(division__season=season).exclude(
            finished_at=None).values_list("division__number", flat=True))
        moves = {pid: move if by_id[pid].division.number in started or move == "left" else ""
                 for pid, move in moves.items()}
    out: dict[int, list[dict[str, Any]]] = {}
    for number, rows in tables.items():
        out[number] = []
        for row in rows:
            place = by_id[row["id"]]
            rank = place.rank if finished and place.rank is not None else row["rank"]
            out[number].append({
                "member_id": row["id"], "name": place.member.name, "rank": rank,
                "points": floatformat(row["points"], "-1"), "points_value": row["points"],
                "wins": row["wins"],
                "played": played[row["id"]], "move": moves.get(row["id"], ""),
                "zone": _zone(moves.get(row["id"], ""), finished),
                "mine": viewer_id is not None and place.member.user_id == viewer_id,
                "is_bot": place.member.is_bot})
        if finished:
            out[number].sort(key=lambda r: (r["rank"], r["name"]))
    return out


def season_divisions(season: Any, viewer: Any = None) -> list[dict[str, Any]]:
    """The season's divisions with their standings, division 1 first."""
    tables = season_tables(season, viewer)
    return [{"division": division, "rows": tables.get(division.number, []),
             "heading_id": f"s{season.number}-d{division.number}-heading"}
            for division in season.divisions.order_by("number")]


def division_table(division: Any, viewer: Any = None) -> list[dict[str, Any]]:
    return season_tables(division.season, viewer).get(division.number, [])


def division_matches(division: Any) -> list[dict[str, Any]]:
    """The division's matches, round by round: who plays whom, in play or the score."""
    from competitions.models import DivisionPlace, LeagueMatch

    names = {p.member_id: p.member.name for p in DivisionPlace.objects.filter(
        division=division).select_related("member__user")}
    rows = []
    for lm in LeagueMatch.objects.filter(division=division).select_related("match") \
            .order_by("round_number", "board"):
        ranking = lm.ranking or []
        rows.append({
            "round": lm.round_number, "board": lm.board, "match_id": lm.match_id,
            "players": [names.get(pid, "?") for pid in lm.seats],
            "done": lm.finished_at is not None, "adjudicated": lm.adjudicated,
            "winners": [names.get(pid, "?") for pid in ranking[0]]
            if len(ranking) > 1 else [],
            "drawn": len(ranking) == 1,
            "still_playing": lm.adjudicated and lm.match.status == Match.Status.ACTIVE})
    return rows


def league_archive(league: Any) -> list[dict[str, Any]]:
    """Every season, newest first: its divisions' final (or current) standings, each
    division's champions, who went up and who went down."""
    from competitions.models import Season

    seasons = []
    for season in Season.objects.filter(league=league).order_by("-number"):
        divisions = season_divisions(season)
        for entry in divisions:
            rows = entry["rows"]
            entry["champions"] = [r["name"] for r in rows if r["rank"] == 1] \
                if season.status == Season.Status.FINISHED else []
            entry["promoted"] = [r["name"] for r in rows if r["move"] == "up"]
            entry["relegated"] = [r["name"] for r in rows if r["move"] == "down"]
        seasons.append({"season": season, "divisions": divisions})
    return seasons


def player_seasons(user: Any, *, game: str, viewer: Any = None) -> list[Any]:
    """A player's places in the seasons of the leagues of ``game`` that ``viewer`` may see,
    newest first (their page on the game's ladder lists them)."""
    from competitions.models import DivisionPlace

    return list(DivisionPlace.objects.filter(
        member__user=user, division__season__league__game=game,
        division__season__league__in=leagues_visible(viewer))
        .select_related("division__season__league")
        .order_by("-division__season__starts_at", "-pk")[:100])


# --- team matches and team leagues ----------------------------------------------------------


def _member_of_any(user: Any, club_ids: list[int]) -> bool:
    return user.is_authenticated and Membership.objects.filter(
        user_id=user.pk, club_id__in=club_ids).exists()


def team_match_visible(team_match: TeamMatch, user: Any) -> bool:
    """Whoever sees both clubs, and the members of either (an invite-only club's team match
    is for its members and the other club's)."""
    clubs = [team_match.club_a_id, team_match.club_b_id]
    return (clubs_visible(user).filter(pk__in=clubs).count() == 2
            or _member_of_any(user, clubs))


def team_league_visible(league: TeamLeague, user: Any) -> bool:
    """Whoever sees the host club, and the members of any club in the league."""
    return (clubs_visible(user).filter(pk=league.host_id).exists()
            or _member_of_any(user, list(league.teams.values_list("club_id", flat=True))))


def clubs_captained(user: Any, club_ids: list[int]) -> set[int]:
    """Of ``club_ids``, the clubs ``user`` may captain (their owners and organisers; staff)."""
    if not user.is_authenticated:
        return set()
    if user.is_staff:
        return set(club_ids)
    return set(Membership.objects.filter(
        user_id=user.pk, club_id__in=club_ids,
        role__in=[Membership.Role.OWNER, Membership.Role.ORGANISER])
        .values_list("club_id", flat=True))


def _scores_shown(value: Any) -> str:
    return floatformat(float(value), "-1") if value is not None else ""


def team_match_page(team_match: TeamMatch, user: Any) -> dict[str, Any]:
    """What the team match's page shows ``user``: the boards (once started) or both rosters,
    and for each club the user captains, its members to choose from and its alternates."""
    from competitions.services.teams import roster_complete, team_roster

    clubs = [team_match.club_a, team_match.club_b]
    captained = clubs_captained(user, [c.pk for c in clubs])
    boards = list(TeamBoard.objects.filter(team_match=team_match)
                  .select_related("player_a", "player_b", "match"))
    sides = []
    for club in clubs:
        roster = team_roster(team_match, club.pk)
        side = {"club": club, "side": team_match.side_of(club.pk),
                "boards": list(roster["boards"].items()), "alternates": roster["alternates"],
                "captain": club.pk in captained, "members": None, "named": False}
        if side["captain"] and team_match.status in (TeamMatch.Status.PROPOSED,
                                                     TeamMatch.Status.ACCEPTED):
            taken = set(TeamPlayer.objects.filter(team_match=team_match).exclude(
                club=club).values_list("user_id", flat=True))
            side["members"] = [m.user for m in Membership.objects.filter(club=club)
                               .exclude(user_id__in=taken).select_related("user")
                               .order_by("user__username")]
            side["named"] = any(row for _n, row in side["boards"])
        sides.append(side)
    rows = []
    for board in boards:
        score_a = board.score
        rows.append({
            "board": board,
            "first": team_match.club_a if board.a_first else team_match.club_b,
            "score_a": _scores_shown(score_a),
            "score_b": _scores_shown(1 - score_a) if score_a is not None else "",
        })
    return {
        "team_match": team_match, "sides": sides, "boards": rows,
        "can_answer": team_match.status == TeamMatch.Status.PROPOSED
        and team_match.club_b_id in captained and team_match.league_id is None,
        "can_withdraw": team_match.status == TeamMatch.Status.PROPOSED
        and team_match.club_a_id in captained and team_match.league_id is None,
        "can_start": team_match.status == TeamMatch.Status.ACCEPTED and bool(captained)
        and roster_complete(team_match),
        "points_a": _scores_shown(team_match.points_a),
        "points_b": _scores_shown(team_match.points_b),
    }


def team_league_standings(league: TeamLeague) -> list[dict[str, Any]]:
    """The league's table by ``team_standings``, each row with its club and matches played."""
    clubs = {place.club_id: place.club for place in TeamLeagueClub.objects.filter(
        league=league, joined_at__isnull=False).select_related("club")}
    scores: dict[int, list[Any]] = defaultdict(list)
    for team_match_id, score in TeamBoard.objects.filter(
            team_match__league=league, team_match__status=TeamMatch.Status.FINISHED) \
            .order_by("team_match_id", "number").values_list("team_match_id", "score"):
        scores[team_match_id].append(None if score is None else float(score))
    matches = [{"first": a, "second": b, "boards": scores[pk]} for pk, a, b in
               TeamMatch.objects.filter(league=league, status=TeamMatch.Status.FINISHED)
               .values_list("pk", "club_a_id", "club_b_id")]
    played: dict[int, int] = dict.fromkeys(clubs, 0)
    for match in matches:
        played[match["first"]] += 1
        played[match["second"]] += 1
    return [{**row, "club": clubs[row["id"]], "played": played[row["id"]],
             "board_points_shown": floatformat(row["board_points"], "-1")}
            for row in core.team_standings(sorted(clubs), matches)]


def team_league_page(league: TeamLeague, user: Any) -> dict[str, Any]:
    places = list(league.teams.select_related("club").order_by("number", "club__name"))
    captained = clubs_captained(user, [p.club_id for p in places])
    rounds: dict[int, list[TeamMatch]] = defaultdict(list)
    for team_match in league.team_matches.select_related("club_a", "club_b", "winner") \
            .order_by("round", "pk"):
        rounds[team_match.round or 0].append(team_match)
    return {
        "league": league, "places": places, "standings": team_league_standings(league),
        "rounds": sorted(rounds.items()),
        "can_start": league.status == TeamLeague.Status.REGISTRATION
        and league.host_id in captained,
        "can_join": [p for p in places if p.joined_at is None and p.club_id in captained
                     and league.status == TeamLeague.Status.REGISTRATION],
    }


def club_team_matches(club: Club) -> QuerySet[TeamMatch]:
    """The club's team matches, either side, newest first."""
    return TeamMatch.objects.filter(Q(club_a=club) | Q(club_b=club)).select_related(
        "club_a", "club_b", "league", "winner")


def club_team_leagues(club: Club) -> QuerySet[TeamLeague]:
    """The team leagues the club hosts or is invited to."""
    return TeamLeague.objects.filter(teams__club=club).distinct().order_by("-created_at")
