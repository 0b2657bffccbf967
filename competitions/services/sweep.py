"""The competitions' sweeper (beat): start due tournaments, end due rounds and seasons (the
next season starts), tell a season's last week, catch up on
results and ratings a lost signal left behind, expire challenges. Every step is idempotent."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from competitions.models import (
    LeagueMatch,
    Pairing,
    RatingUpdate,
    Round,
    Season,
    TeamBoard,
    Tournament,
)
from competitions.services.ladders import challenges_expire, match_rate
from competitions.services.leagues import (
    LAST_WEEK,
    league_result_record,
    season_end,
    season_last_week,
)
from competitions.services.rounds import pairing_result_record, round_adjudicate
from competitions.services.teams import team_board_result_record, team_matches_start_due
from competitions.services.tournaments import tournament_cancel, tournament_start
from games.models import Match
from games.services import ServiceError

logger = logging.getLogger(__name__)
CATCH_UP_WINDOW = timedelta(days=2)
CATCH_UP_LIMIT = 200


@contextlib.contextmanager
def _one_item(what: str, item_id: int) -> Iterator[None]:
    """One failing item (a game no longer installed, a bug) must not stop the sweep."""
    try:
        yield
    except Exception:
        logger.exception("competitions sweep: %s %s failed", what, item_id)


def competitions_sweep(*, now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {"started": 0, "adjudicated": 0, "recorded": 0, "rated": 0, "expired": 0,
              "seasons_ended": 0, "team_matches_started": 0}
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION,
                                    starts_at__lte=now).values_list("pk", flat=True)
    for tournament_id in list(due):
        try:
            tournament_start(tournament_id=tournament_id, now=now)
            counts["started"] += 1
        except ServiceError as error:
            if error.code == "invalid":  # too few players at the start time
                tournament = Tournament.objects.get(pk=tournament_id)
                if tournament.created_by is not None:
                    tournament_cancel(tournament_id=tournament_id, by=tournament.created_by,
                                      note=f"not started: {error.message}")
            logger.info("tournament %s not started: %s", tournament_id, error.message)
    for round_id in list(Round.objects.filter(status=Round.Status.RUNNING, ends_at__lte=now)
                         .values_list("pk", flat=True)):
        with _one_item("ending round", round_id):
            counts["adjudicated"] += round_adjudicate(round_id=round_id, now=now)
    stuck = Pairing.objects.filter(
        finished_at=None, match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED,
                                             Match.Status.VOIDED]
    ).values_list("match_id", flat=True)[:CATCH_UP_LIMIT]
    for match_id in list(stuck):
        with _one_item("recording the result of match", match_id):
            counts["recorded"] += pairing_result_record(match_id=match_id, now=now)
    league_stuck = LeagueMatch.objects.filter(
        finished_at=None, match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED,
                                             Match.Status.VOIDED]
    ).values_list("match_id", flat=True)[:CATCH_UP_LIMIT]
    for match_id in list(league_stuck):
        with _one_item("recording the league result of match", match_id):
            counts["recorded"] += league_result_record(match_id=match_id, now=now)
    for season_id in list(Season.objects.filter(status=Season.Status.RUNNING, ends_at__lte=now)
                          .values_list("pk", flat=True)):
        with _one_item("ending season", season_id):
            counts["adjudicated"] += season_end(season_id=season_id, now=now)
            counts["seasons_ended"] += not Season.objects.filter(
                pk=season_id, status=Season.Status.RUNNING).exists()
    for season_id in list(Season.objects.filter(
            status=Season.Status.RUNNING, last_week_noticed=False,
            ends_at__lte=now + LAST_WEEK).values_list("pk", flat=True)):
        with _one_item("noticing the last week of season", season_id):
            season_last_week(season_id=season_id, now=now)
    stuck_boards = TeamBoard.objects.filter(
        finished_at=None, match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED,
                                             Match.Status.VOIDED]
    ).values_list("match_id", flat=True)[:CATCH_UP_LIMIT]
    for match_id in list(stuck_boards):
        with _one_item("recording the team board of match", match_id):
            counts["recorded"] += team_board_result_record(match_id=match_id, now=now)
    counts["team_matches_started"] = team_matches_start_due(now=now)
    unrated = (Match.objects.filter(status=Match.Status.FINISHED,
                                    finished_at__gte=now - CATCH_UP_WINDOW)
               .exclude(seats__bot__gt="")
               # (a league match scored at its season's end plays on unrated: never retried)
               .exclude(league_match__adjudicated=True)
               .filter(~Exists(RatingUpdate.objects.filter(match=OuterRef("pk"),
                                                           ladder__club__isnull=True)))
               .values_list("pk", flat=True)[:CATCH_UP_LIMIT])
    for match_id in list(unrated):
        with _one_item("rating match", match_id):
            counts["rated"] += match_rate(match_id=match_id)
    counts["expired"] = challenges_expire(now=now)
    return counts
