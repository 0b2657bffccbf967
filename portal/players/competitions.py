"""What the competitions add to a player's page (``portal.players.sections``): their ratings
per ladder, each with its graph over time, their seasons, team matches and clubs; and the page
kept for club members opens to the members of a club the player belongs to. Registered by the
player pages' app (``portal.players.apps``): the competitions sit below the portal and import
nothing of it.

A rating is shown once the player has ``RATED_GAMES_SHOWN`` rated games on that ladder
("new player" before). For a reader other than the player (or a moderator), the graph and its
table leave out the points of private matches; the rating itself is the ladder's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from competitions.models import Ladder, Membership, Rating, RatingChange
from competitions.selectors import clubs_visible
from competitions.services.ladders import decayed_sigma
from portal.players.graph import line_graph, line_summary
from portal.players.sections import PageReader, Section, audience_register, section_register

RATED_GAMES_SHOWN = 5
SHOWN_ROWS = 20  # seasons and team matches listed, newest first


def _viewer(reader: PageReader) -> Any:
    return reader.viewer if reader.viewer is not None else AnonymousUser()


def ladders_visible(reader: PageReader) -> Any:
    return Ladder.objects.filter(Q(club__isnull=True) | Q(club__in=clubs_visible(
        _viewer(reader))))


def ratings_section(reader: PageReader) -> dict[str, Any] | None:
    ratings = list(Rating.objects.filter(user_id=reader.player.pk,
                                         ladder__in=ladders_visible(reader))
                   .select_related("ladder", "ladder__club").order_by("ladder__name"))
    if not ratings:
        return None
    rows = []
    for rating in ratings:
        changes = RatingChange.objects.filter(
            user_id=reader.player.pk, update__ladder_id=rating.ladder_id,
            update__voided=False).select_related("update").order_by("update__played_at",
                                                                    "update_id")
        if not reader.sees_private:
            changes = changes.filter(update__match__is_public=True)
        shown = rating.games_played >= RATED_GAMES_SHOWN
        points = [(c.update.played_at, c.conservative_after) for c in changes] if shown else []
        sigma = decayed_sigma(rating.ladder, rating.sigma, rating.last_active, timezone.now())
        rows.append({
            "ladder": rating.ladder, "games": rating.games_played, "shown": shown,
            "to_go": max(RATED_GAMES_SHOWN - rating.games_played, 0),
            "rating": rating.mu - 3 * sigma,
            "points": [{"at": at, "value": value} for at, value in points],
            "graph": line_graph(points, key=f"rating-{rating.ladder_id}",
                                title=_("Rating on %(ladder)s over time") % {
                                    "ladder": rating.ladder.name}),
            "summary": line_summary(points),
        })
    return {"ratings": rows}


def clubs_section(reader: PageReader) -> dict[str, Any] | None:
    memberships = list(Membership.objects.filter(
        user_id=reader.player.pk, club__in=clubs_visible(_viewer(reader)))
        .select_related("club").order_by("club__name"))
    return {"memberships": memberships} if memberships else None


def shares_a_club(viewer: Any, player: Any) -> bool:
    return Membership.objects.filter(user_id=viewer.pk, club__memberships__user_id=player.pk
                                     ).exists()


def ratings_data(context: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"ladder": row["ladder"].name, "ladder_id": row["ladder"].pk, "games": row["games"],
             "rating": round(row["rating"], 2) if row["shown"] else None,
             "history": [{"at": p["at"].isoformat(), "rating": round(p["value"], 2)}
                         for p in row["points"]]} for row in context["ratings"]]


def clubs_data(context: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"club": m.club.name, "slug": m.club.slug, "role": m.role}
            for m in context["memberships"]]


def seasons_section(reader: PageReader) -> dict[str, Any] | None:
    """The player's league seasons, newest first: the league, the season, the division, the
    place (once the season is over) and where it took them."""
    from competitions.models import DivisionPlace
    from competitions.selectors import leagues_visible

    places = list(DivisionPlace.objects.filter(
        member__user_id=reader.player.pk,
        division__season__league__in=leagues_visible(_viewer(reader)))
        .select_related("division__season__league")
        .order_by("-division__season__starts_at", "-pk")[:SHOWN_ROWS])
    return {"places": places} if places else None


def team_matches_section(reader: PageReader) -> dict[str, Any] | None:
    """The team matches the player was named for (board or alternate), newest first, those
    the reader may see."""
    from competitions.models import TeamPlayer
    from competitions.selectors import team_match_visible

    viewer = _viewer(reader)
    rows = []
    for place in (TeamPlayer.objects.filter(user_id=reader.player.pk)
                  .select_related("team_match__club_a", "team_match__club_b", "club")
                  .order_by("-team_match__created_at", "-pk")[:SHOWN_ROWS * 2]):
        if len(rows) == SHOWN_ROWS:
            break
        if any(row.team_match_id == place.team_match_id for row in rows):
            continue
        if reader.sees_private or team_match_visible(place.team_match, viewer):
            rows.append(place)
    return {"places": rows} if rows else None


def seasons_data(context: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"league": p.division.season.league.name, "league_id": p.division.season.league_id,
             "season": p.division.season.number, "division": p.division.number,
             "status": p.division.season.status, "rank": p.rank, "move": p.move or None}
            for p in context["places"]]


def team_matches_data(context: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"team_match_id": p.team_match_id, "club": p.club.name,
             "against": (p.team_match.club_b if p.club_id == p.team_match.club_a_id
                         else p.team_match.club_a).name,
             "board": p.board, "status": p.team_match.status} for p in context["places"]]


def register() -> None:
    section_register(Section(key="ratings", order=20,
                             template="competitions/player_ratings.html",
                             context=ratings_section, data=ratings_data))
    section_register(Section(key="seasons", order=25,
                             template="competitions/player_seasons.html",
                             context=seasons_section, data=seasons_data))
    section_register(Section(key="team-matches", order=27,
                             template="competitions/player_team_matches.html",
                             context=team_matches_section, data=team_matches_data))
    section_register(Section(key="clubs", order=50, template="competitions/player_clubs.html",
                             context=clubs_section, data=clubs_data))
    audience_register(shares_a_club)
