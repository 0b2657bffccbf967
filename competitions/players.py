"""What the competitions add to a player's page (``portal.players.sections``): their ratings
per ladder, each with its graph over time, and their clubs; and the page kept for club
members opens to the members of a club the player belongs to.

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


def register() -> None:
    section_register(Section(key="ratings", order=20,
                             template="competitions/player_ratings.html",
                             context=ratings_section, data=ratings_data))
    section_register(Section(key="clubs", order=50, template="competitions/player_clubs.html",
                             context=clubs_section, data=clubs_data))
    audience_register(shares_a_club)
