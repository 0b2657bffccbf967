"""The one exception type services raise for anything a player or moderator did wrong."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Problem
from games.words import problem_dicts


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``problems`` for fields.

    Codes in use: not_found, not_allowed, not_open, not_active, seat_taken, already_seated,
    no_open_seat, bad_invite, invalid_seats, invalid_options, unknown_game, stale_phase,
    unknown_phase, deadline_passed, not_your_seat, not_your_turn, invalid, bad_transition,
    unsupported_phase, capped, cooldown (continuous: too soon after the seat's last action),
    window_closed (continuous: outside the gameday window), unreliable (a reliability record
    below the match's or tournament's minimum), paused / not_paused (a moderator's pause),
    replay_mismatch, engine_failed (moderators' roll-back and force resolve), kicked (a player a
    moderator removed from the match, taking a seat in it again), held_before (a player who
    held a seat of a match in play, taking another seat of it); for votes to end a match:
    votes_locked (a moderator's lock), seat_out (the seat conceded, forfeited or is out by the
    rules), vote_open (a proposal of that kind is open), vote_closed, already_voted, no_voter
    (a seat still in is a bot's or empty); for messages: no_press / no_private_press
    (messages the match's press does not allow), rate_limited (too many messages a minute).
    """

    def __init__(self, code: str, message: str, problems: Iterable[Problem] = ()) -> None:
        self.code = code
        self.message = message
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__(message)

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "message": self.message,
            "problems": problem_dicts(self.problems),
        }
