"""Every refusal's code, and the one exception type services raise for anything a player or
moderator did wrong.

``Code`` is the vocabulary: what programs read (the API's and the mail refusals' ``code``), the
HTTP status a page or the API answers with, and what the code means in a sentence (the message
when a refusal gives none of its own). Pages, the API and mail all read it from here;
docs/errors.md lists it (``scripts/error_codes.py`` writes that table, a test compares).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from django.utils.translation import gettext_lazy as _

from engine import Problem
from games.words import problem_dicts


class Code(StrEnum):
    """A refusal's code, its HTTP status and what it means."""

    status: int
    meaning: str

    def __new__(cls, value: str, status: int, meaning: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        member.meaning = meaning
        return member

    # What was asked for
    INVALID = "invalid", 400, _("The request is not valid.")
    INVALID_OPTIONS = "invalid_options", 400, _("The match's options are not valid.")
    INVALID_SEATS = "invalid_seats", 400, _("The seats asked for are not valid.")
    UNKNOWN_GAME = "unknown_game", 400, _("There is no such game on this site.")
    UNKNOWN_PHASE = "unknown_phase", 400, _("The game does not know this phase.")
    UNSUPPORTED_PHASE = "unsupported_phase", 400, _("This cannot be done in this phase.")
    CAPPED = "capped", 400, _("Over a limit (of matches, messages or positions).")
    NOT_FOUND = "not_found", 404, _("No such thing, or not one you may see.")
    # Who asks
    NOT_ALLOWED = "not_allowed", 403, _("You may not do this.")
    NOT_YOUR_SEAT = "not_your_seat", 403, _("This seat is not yours.")
    BAD_INVITE = "bad_invite", 403, _("The invitation is not valid.")
    UNRELIABLE = "unreliable", 403, _("Your reliability is below this match's minimum.")
    KICKED = "kicked", 403, _("A moderator removed you from this match.")
    HELD_BEFORE = "held_before", 403, _("You held another seat of this match before.")
    REMOVED = "removed", 403, _("You were removed from this competition.")
    # When
    STALE_PHASE = "stale_phase", 409, _("This phase has passed: reload the page.")
    DEADLINE_PASSED = "deadline_passed", 409, _("The deadline has passed.")
    NOT_YOUR_TURN = "not_your_turn", 409, _("It is not your turn.")
    NOT_ACTIVE = "not_active", 409, _("The match is not in play.")
    NOT_OPEN = "not_open", 409, _("It is not open (any more).")
    NOT_FINISHED = "not_finished", 409, _("The match has not finished yet.")
    BAD_TRANSITION = "bad_transition", 409, _("This cannot be done in its present state.")
    SEAT_TAKEN = "seat_taken", 409, _("The seat is already taken.")
    NO_OPEN_SEAT = "no_open_seat", 409, _("There is no open seat.")
    ALREADY_SEATED = "already_seated", 409, _("You already have a seat in this match.")
    PAUSED = "paused", 409, _("A moderator paused the match.")
    NOT_PAUSED = "not_paused", 409, _("The match is not paused.")
    COOLDOWN = "cooldown", 409, _("Too soon after your last action.")
    WINDOW_CLOSED = "window_closed", 409, _("Outside the match's playing hours.")
    CLOCK_RAN_OUT = "clock_ran_out", 409, _("The seat's clock ran out.")
    SEAT_OUT = "seat_out", 409, _("The seat is out of the match.")
    # Votes to end a match
    VOTES_LOCKED = "votes_locked", 403, _("A moderator locked the votes of this match.")
    VOTE_OPEN = "vote_open", 409, _("A vote of this kind is already open.")
    VOTE_CLOSED = "vote_closed", 409, _("The vote is closed.")
    ALREADY_VOTED = "already_voted", 409, _("You have already voted.")
    NO_VOTER = "no_voter", 409, _("A seat still in play has nobody to vote.")
    # Messages
    NO_PRESS = "no_press", 403, _("This match allows no messages.")
    NO_PRIVATE_PRESS = "no_private_press", 403, _("This match allows no private messages.")
    RATE_LIMITED = "rate_limited", 429, _("Too many at once: wait a little.")
    # Moderators' repairs
    REPLAY_MISMATCH = "replay_mismatch", 409, _("The replay does not give the stored state.")
    ENGINE_FAILED = "engine_failed", 409, _("The game's rules failed on this phase.")
    ENGINE_ERROR = "engine_error", 409, _("The game's rules failed.")
    # Orders and messages by e-mail (their refusal is a reply, not a page)
    NO_TOKEN = "no_token", 400, _("Not sent to a reply address.")
    BAD_TOKEN = "bad_token", 400, _("The reply address is not valid.")
    WRONG_SENDER = "wrong_sender", 403, _("Sent from another address than the player's.")
    NOT_AUTHENTIC = "not_authentic", 403, _("The mail failed the receiving server's checks.")
    MATCH_OVER = "match_over", 409, _("The match is over.")
    PHASE_RESOLVED = "phase_resolved", 409, _("The phase has already been resolved.")
    TOO_LARGE = "too_large", 413, _("Too large.")
    NUL = "nul", 400, _("A header holds a NUL character.")
    ATTACHMENTS = "attachments", 400, _("Attachments are not read.")
    EMPTY = "empty", 400, _("Nothing in it.")
    NO_TEXT = "no_text", 400, _("No text part to read.")
    CHARSET = "charset", 400, _("The text's character set cannot be read.")
    TOO_LONG = "too_long", 400, _("The text is too long.")
    # Mail that is not answered at all
    NO_SENDER = "no_sender", 400, _("No sender.")
    BOUNCE = "bounce", 400, _("A delivery report.")
    LOOP = "loop", 400, _("An automatic reply.")


class ServiceError(Exception):
    """A refused request: ``code`` (a ``Code``) for programs, ``message`` for people (the
    code's meaning if not given), ``problems`` for fields."""

    def __init__(self, code: Code | str, message: str | None = None,
                 problems: Iterable[Problem] = ()) -> None:
        self.code = Code(code)  # (a code not in the vocabulary is a bug: ValueError)
        self.message = str(self.code.meaning) if message is None else message
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__(self.message)

    @property
    def status(self) -> int:
        """The HTTP status a page or the API answers this refusal with."""
        return self.code.status

    def as_dict(self) -> dict:
        return {
            "code": str(self.code),
            "message": self.message,
            "problems": problem_dicts(self.problems),
        }
