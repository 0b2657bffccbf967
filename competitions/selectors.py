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
