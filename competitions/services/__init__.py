"""The competitions' services (writes). Views, tasks and receivers call only these.

They raise ``games.services.ServiceError`` (code + a sentence for people) for anything refused.
"""

from __future__ import annotations

import logging
from typing import Any

from competitions.services.clubs import (
    club_create,
    club_invite_email,
    club_invite_link_reset,
    club_join_by_token,
    club_leave,
    club_match_create,
    club_member_remove,
    club_member_set_role,
    club_removal_lift,
    club_request_decide,
    club_request_join,
    membership_of,
    require_organiser,
)
from competitions.services.ladders import (
    challenge_accept,
    challenge_create,
    challenge_decline,
    challenges_expire,
    ladder_create,
    ladder_match_record,
    ladder_match_void,
    match_rate,
    site_ladder,
)
from competitions.services.leagues import (
    league_bot_enter,
    league_bot_remove,
    league_create,
    league_join,
    league_leave,
    league_result_record,
    season_end,
    season_last_week,
    season_start,
)
from competitions.services.rounds import pairing_result_record, round_adjudicate
from competitions.services.sweep import competitions_sweep
from competitions.services.teams import (
    team_board_result_record,
    team_board_swap,
    team_league_create,
    team_league_join,
    team_league_start,
    team_match_accept,
    team_match_challenge,
    team_match_decline,
    team_match_start,
    team_roster_set,
)
from competitions.services.tournaments import (
    tournament_bot_enter,
    tournament_bot_remove,
    tournament_cancel,
    tournament_create,
    tournament_register,
    tournament_registration_set,
    tournament_start,
    tournament_withdraw,
)

logger = logging.getLogger(__name__)


def match_ended_record(*, match_id: Any) -> None:
    """Everything the competitions do when a match ends; each part exactly once."""
    try:
        match_rate(match_id=match_id)
    except Exception:  # the rating must not stop the tournament; the sweeper retries
        logger.exception("rating match %s failed", match_id)
    pairing_result_record(match_id=match_id)
    league_result_record(match_id=match_id)
    team_board_result_record(match_id=match_id)


__all__ = [
    "challenge_accept", "challenge_create", "challenge_decline", "challenges_expire",
    "club_create", "club_invite_email", "club_invite_link_reset", "club_join_by_token",
    "club_leave", "club_match_create", "club_member_remove", "club_member_set_role",
    "club_removal_lift", "club_request_decide", "club_request_join", "competitions_sweep",
    "ladder_create", "ladder_match_record", "ladder_match_void", "league_bot_enter",
    "league_bot_remove", "league_create", "league_join", "league_leave", "league_result_record",
    "match_ended_record", "match_rate", "membership_of", "pairing_result_record",
    "require_organiser", "round_adjudicate", "season_end", "season_last_week", "season_start",
    "site_ladder", "team_board_result_record", "team_board_swap", "team_league_create",
    "team_league_join", "team_league_start", "team_match_accept", "team_match_challenge",
    "team_match_decline", "team_match_start", "team_roster_set", "tournament_bot_enter",
    "tournament_bot_remove", "tournament_cancel", "tournament_create", "tournament_register",
    "tournament_registration_set", "tournament_start", "tournament_withdraw",
]
