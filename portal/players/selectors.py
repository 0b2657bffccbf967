"""Reads for a player's page: their record per game, reliability history, current matches.

What others see never counts a private match (``PageReader.sees_private`` is False): not in
the record, not in the reliability history, not among the current matches.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

import engine
from games.endings import ending_of
from games.models import Match, MatchReliability, Reliability, Seat, SeatTenure
from portal.players.models import PagePrivacy
from portal.players.sections import PageReader, shares_a_circle

Ending = SeatTenure.Ending
# A command that ended this way is a match abandoned (as the reliability record counts it).
ABANDONING = {Ending.LEFT, Ending.MISSED, Ending.FORFEITED, Ending.KICKED}
HISTORY_SHOWN = 20


@dataclass
class GameRecord:
    game: str
    name: str
    won: int = 0
    drawn: int = 0
    lost: int = 0
    abandoned: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost + self.abandoned


@dataclass
class PlayerPage:
    reader: PageReader
    records: list[GameRecord] = field(default_factory=list)
    reliability: Reliability | None = None
    reliability_history: list[MatchReliability] = field(default_factory=list)
    current: list[Match] = field(default_factory=list)


def player_by_username(username: str) -> Any:
    """The active account of that name, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()


def page_reader(*, player: Any, viewer: Any) -> PageReader:
    signed_in = viewer is not None and viewer.is_authenticated
    sees_private = signed_in and (viewer.pk == player.pk or viewer.is_staff)
    return PageReader(player=player, viewer=viewer if signed_in else None,
                      sees_private=sees_private)


def page_open_to(reader: PageReader) -> bool:
    """A page kept for club members opens to its player, moderators and club mates only."""
    if reader.sees_private:
        return True
    members_only = PagePrivacy.objects.filter(user_id=reader.player.pk,
                                              members_only=True).exists()
    return not members_only or (reader.viewer is not None
                                and shares_a_circle(reader.viewer, reader.player))


def _matches_shown(reader: PageReader) -> QuerySet[Match]:
    matches = Match.objects.defer("state", "options")
    return matches if reader.sees_private else matches.filter(is_public=True)


def _outcome(match: Match, seat: int) -> str:
    """"won", "drawn", "lost", or "none" for a match that ended without a result (nobody
    left to act), which counts neither way."""
    ending = ending_of(match)
    return ending.outcome_for(seat) if ending is not None else "none"


def game_records(reader: PageReader) -> list[GameRecord]:
    """Per game, the finished matches the player played: won, drawn, lost (holding a seat at
    the end) or abandoned (left it, was flagged after missed deadlines, forfeited or removed).
    A command handed over by a moderator with no fault of theirs counts neither way."""
    finished = _matches_shown(reader).filter(status=Match.Status.FINISHED)
    player_id = reader.player.pk
    tenures: dict[int, list[SeatTenure]] = defaultdict(list)
    for tenure in SeatTenure.objects.filter(user_id=player_id, match__in=finished):
        tenures[tenure.match_id].append(tenure)
    # Matches played before commands were recorded: the seat the player held.
    held = dict(Seat.objects.filter(user_id=player_id, match__in=finished)
                .exclude(match_id__in=list(tenures)).values_list("match_id", "number"))
    matches = {m.pk: m for m in finished.filter(pk__in=[*tenures, *held])
               .only("pk", "game", "result")}
    records: dict[str, GameRecord] = {}
    for match_id, match in matches.items():
        game = engine.games().get(match.game)
        record = records.setdefault(match.game, GameRecord(
            game=match.game, name=str(game.name) if game is not None and game.name
            else match.game))
        mine = tenures.get(match_id, [])
        # (a finished match's commands are closed when its reliability is counted: one still
        # open held the seat to the end too)
        at_end = [t for t in mine if t.ending in (Ending.END, "")]
        if at_end:
            outcome = _outcome(match, at_end[-1].seat_number)
        elif any(t.ending in ABANDONING for t in mine):
            outcome = "abandoned"
        elif match_id in held:
            outcome = _outcome(match, held[match_id])
        else:
            continue
        if outcome == "none":
            continue
        setattr(record, outcome, getattr(record, outcome) + 1)
    return sorted(records.values(), key=lambda r: (-r.played, r.name))


def reliability_history(reader: PageReader) -> list[MatchReliability]:
    """The player's counted commands, newest first (the matches shown to this reader)."""
    return list(MatchReliability.objects.filter(
        user_id=reader.player.pk, update__match__in=_matches_shown(reader))
        .select_related("update").order_by("-update__created_at", "-pk")[:HISTORY_SHOWN])


def current_matches(reader: PageReader) -> list[Match]:
    return list(_matches_shown(reader).filter(
        status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
        seats__user_id=reader.player.pk).distinct().order_by("-created_at")[:50])


def player_page(reader: PageReader) -> PlayerPage:
    return PlayerPage(
        reader=reader, records=game_records(reader),
        reliability=Reliability.objects.filter(user_id=reader.player.pk).first(),
        reliability_history=reliability_history(reader),
        current=current_matches(reader))


def members_only(user: Any) -> bool:
    return PagePrivacy.objects.filter(user_id=user.pk, members_only=True).exists()


