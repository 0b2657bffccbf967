"""The API's request and response shapes (django-ninja / pydantic: the OpenAPI schema)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from ninja import Field, Schema


class Problem(Schema):
    path: str
    message: str


class Error(Schema):
    code: str = Field(description="For programs: not_found, invalid, stale_phase, …")
    message: str = Field(description="For people.")
    problems: list[Problem] = Field(default=[], description="The engine's problems, each with "
                                                            "its field path (or text line).")


class GameOut(Schema):
    slug: str
    name: str
    min_seats: int
    max_seats: int
    bots: list[str]
    default_options: dict[str, Any]


class ClockOut(Schema):
    """A seat's correspondence clock (matches played on clocks)."""

    seconds_left: int
    text: str
    running: bool
    due: datetime | None = None
    on_leave_until: datetime | None = Field(
        None, description="The seat's player is on leave until then: its clock is stopped.")


class SeatOut(Schema):
    number: int
    name: str
    player: str | None
    bot: str | None
    status: str
    seeking: bool = Field(False, description="The seat seeks a new commander (its player left "
                                             "it, or was flagged): see /lobby/seeking.")
    prompted: bool = False
    submitted: bool = False
    clock: ClockOut | None = None


class MatchSummary(Schema):
    id: int
    game: str
    game_name: str
    title: str
    status: str
    phase_number: int
    phase_name: str
    deadline: datetime | None
    my_seat: int | None = None
    waiting_for_me: bool = False


class LobbyMatch(Schema):
    id: int
    game: str
    game_name: str
    title: str
    hours_per_phase: float
    created_at: datetime
    created_by: str | None
    seats: list[SeatOut]


class PhaseOut(Schema):
    number: int
    kind: str
    name: str
    deadline: datetime | None


class SheetOut(Schema):
    revision: int
    receipt: str
    salt: str
    source: str
    submitted_at: datetime
    data: Any


class PromptOut(Schema):
    seat: int
    phase_number: int
    phase_kind: str
    phase: str
    required: bool
    deadline: datetime | None
    text_help: str
    legal_actions: Any = Field(description="The engine's legal_actions for the seat: a list of "
                                           "complete actions, or the sheet's parts with the "
                                           "choices open to each.")
    default_sheet: Any = Field(description="What my seat plays if it misses the deadline.")
    my_sheet: SheetOut | None


class DiceOut(Schema):
    commitment: str | None = Field(description="SHA-256 of the seed and its salt, published "
                                               "from the start (null for older matches).")
    seed: int | None = Field(description="Revealed when the match has finished.")
    salt: str | None = Field(description="Revealed when the match has finished.")


class MatchView(Schema):
    id: int
    game: str
    game_name: str
    title: str
    status: str
    is_public: bool
    press: str = Field(description="Messages between the players: full, public or none.")
    reveal_private: bool = Field(description="Private messages shown to all once the match "
                                             "has ended.")
    phase: PhaseOut | None
    my_seat: int | None
    seats: list[SeatOut]
    board: Any = Field(description="The engine's view of the match for my seat.")
    prompt: PromptOut | None
    result: dict[str, Any] | None
    ending: str = Field("", description="How the match ended, in words (the status and the "
                                        "sentence every surface says; empty while in play).")
    finished_at: datetime | None
    dice: DiceOut


class ResultOut(Schema):
    id: int
    status: str
    finished: bool
    result: dict[str, Any] | None = Field(description="ranking, scores, reason, winners, "
                                                      "is_draw, ending (null while in play; "
                                                      "docs/api.md)")
    finished_at: datetime | None
    how: Literal["rules", "forfeit", "nobody", "agreement", "cancel", "concession"] | None = \
        Field(None, description="How the match ended (null while in play, or aborted by a "
                                "moderator).")
    ended_by: Literal["draw", "cancel", "concede"] | None = Field(
        None, description="How the players ended it, if they did: a draw or a cancel they "
                          "agreed to, a concession (docs/votes.md).")
    outcome: str = Field("", description="Who won, in a few words (\"Winner: Bravo.\", "
                                         "\"A draw.\", \"No result.\", \"Cancelled.\").")
    ending: str = Field("", description="How the match ended, in one sentence.")


class SeatRef(Schema):
    seat: int
    name: str


class BallotOut(Schema):
    seat: int
    name: str
    vote: Literal["yes", "no"]


class VoteOut(Schema):
    """A proposal to end the match (or a concession) as the reader may see it: a secret
    ballot shows only its tally (yes, waiting) until it closes."""

    id: int
    kind: Literal["draw", "cancel", "concede"]
    status: Literal["open", "passed", "failed", "expired", "closed"]
    secret: bool
    opened_at: datetime
    expires_at: datetime | None = None
    closed_at: datetime | None = None
    closed_why: str = Field("", description="Why it closed without passing or failing.")
    phase_number: int
    proposed_by: int | None = Field(None, description="The proposing (or conceding) seat; "
                                                      "null while a secret ballot is open.")
    proposed_by_me: bool
    voters: int = Field(description="The seats still in, whose yes it needs.")
    yes: int
    no: int
    waiting: int = Field(description="Voters who have not voted.")
    my_ballot: Literal["yes", "no"] | None = None
    ballots: list[BallotOut] | None = Field(None, description="Who voted what; null while "
                                                              "a secret ballot is open.")
    waiting_for: list[SeatRef] | None = None


class VotesOut(Schema):
    locked: bool = Field(description="A moderator locked voting on this match.")
    open: list[VoteOut]
    closed: list[VoteOut] = Field(description="The latest closed proposals and concessions.")
    my_seat: int | None
    may_vote: bool
    may_propose: list[Literal["draw", "cancel"]]
    may_concede: bool
    no_voter: str = Field(default="", description=(
        "Why no proposal is offered to this seat, in the reader's language: a seat still in "
        "has nobody to vote (a bot, an empty seat). Empty otherwise."))


class VoteIn(Schema):
    kind: Literal["draw", "cancel"]
    secret: bool = False


class BallotIn(Schema):
    vote: Literal["yes", "no"]


class ConcedeIn(Schema):
    confirm: Literal[True] = Field(description="true: a concession cannot be undone.")


class ConcedeOut(Schema):
    match_id: int
    seat: int
    match_status: str
    result: dict[str, Any] | None


class SheetIn(Schema):
    phase_number: int = Field(ge=0, le=2**31, description="The phase the sheet is for "
                                                          "(a stale one is refused: 409).")
    data: Any = Field(default=None, description="The sheet as JSON (the engine's shape).")
    text: str | None = Field(default=None, max_length=20_000,
                             description="Or the sheet in the game's text grammar.")


class PlanIn(Schema):
    tree: Any = Field(default=None, description="The plan as JSON: a list of branches "
                      "{\"when\": [{\"seat\": 2, \"move\": ...}], \"play\": ..., "
                      "\"then\": [...]} (docs/conditional-orders.md).")
    text: str | None = Field(default=None, max_length=20_000,
                             description="Or the plan in its text grammar, a branch a line.")


class PlanLine(Schema):
    depth: int
    text: str


class PlanOut(Schema):
    seat: int
    tree: list[Any] = Field(description="The branches still ahead (empty: no plan).")
    words: list[PlanLine] = Field(description="The plan in sentences, a branch each.")
    text: str = Field(description="The plan in its text grammar.")
    played: int = Field(description="How many moves of the plan have been played.")
    after_phase: int | None = Field(description="Its conditions cover the moves from this "
                                                "phase on.")
    notice: dict[str, Any] | None = Field(description="Why the last plan ended (reason: "
                                                      "unmatched, illegal, ended).")
    notice_words: str


class SheetAheadIn(Schema):
    conditions: list[Any] = Field(description="Conditions in the game's terms, all to hold "
                                  "after the open phase resolves (docs/conditional-orders.md).")
    data: Any = Field(default=None, description="The sheet for the next phase as JSON.")
    text: str | None = Field(default=None, max_length=20_000,
                             description="Or in the game's text grammar.")


class SheetAheadOut(Schema):
    seat: int
    conditions_offered: list[str] = Field(description="The condition kinds the game offers.")
    for_phase: int | None
    conditions: list[Any]
    sheet: dict[str, Any] | None = Field(description="{\"data\": …} or {\"text\": …}; null "
                                                     "once it was submitted or discarded.")
    notice: dict[str, Any] | None = Field(description="What became of the last one (reason: "
                                                      "submitted, conditions, illegal, sent).")


class ReceiptOut(Schema):
    submission_id: int
    receipt: str
    salt: str
    revision: int
    data: Any
    warnings: list[Problem]
    complete: bool


class JoinIn(Schema):
    seat_number: int | None = Field(default=None, ge=1, le=1000)
    invite_token: str | None = Field(default=None, max_length=64)


class JoinOut(Schema):
    match_id: int
    seat: int
    match_status: str


class SeekingSeatOut(Schema):
    """A seat of a public match in play that seeks a new commander."""

    match_id: int
    game: str
    game_name: str
    title: str
    seat: int
    seat_name: str
    token: str = Field(description="Take the seat with POST /seeking/take {\"token\": …}.")
    offered_at: datetime
    autopilot: bool = Field(description="The game's bot plays it until someone takes it.")
    phase_number: int
    deadline: datetime | None


class TakeIn(Schema):
    token: str = Field(max_length=64, description="The seat's token (its link's last part).")
    confirm: bool = Field(False, description="Must be true: you take the seat as it stands.")


class LeaveIn(Schema):
    confirm: bool = Field(False, description="Must be true to leave a match in play: the "
                                             "seat then seeks a new commander.")


class LeaveOut(Schema):
    match_id: int
    seat: int
    seeking: bool
    match_status: str


class SeatIn(Schema):
    kind: Literal["me", "open", "bot"]
    bot: str | None = Field(default=None, max_length=40)


class MatchIn(Schema):
    game: str = Field(max_length=40)
    seats: list[SeatIn] = Field(max_length=200)
    options: dict[str, Any] = {}
    hours_per_phase: float = Field(default=24, ge=0, le=10_000)
    is_public: bool = True
    title: str = Field(default="", max_length=120)
    autopilot: bool = Field(default=False, description="The game's bot plays a seat that seeks "
                                                       "a new commander until someone takes it.")
    press: Literal["full", "public", "none"] = Field(
        default="full", description="Messages between the players: public and private "
                                    "(full), public only, or none (gunboat).")
    reveal_private: bool = Field(default=False, description="Show the private messages to "
                                 "everyone once the match has ended.")


class ChannelOut(Schema):
    channel: str | list[int] = Field(description="\"public\", a private channel's seat "
                                                 "numbers, or the game's channel key.")
    label: str
    unread: int = Field(description="Others' messages I have not read on the match page.")
    can_send: bool


class MessageOut(Schema):
    id: int
    channel: str | list[int]
    seat: int
    author: str = Field(description="The seat's name and the player who wrote.")
    text: str | None = Field(description="Plain text; null once a moderator hid it.")
    hidden: bool
    at: datetime


class MessagesOut(Schema):
    channels: list[ChannelOut]
    messages: list[MessageOut]


class MessageIn(Schema):
    channel: str | list[int] = Field(
        description="\"public\", a list of seat numbers (a private channel; mine is in it), "
                    "or one of the game's channel keys (e.g. \"council\").")
    text: str = Field(max_length=20_000, description="Plain text (at most 2000 characters).")


class LeagueOut(Schema):
    """A league: one game, in seasons of divisions with promotion and relegation."""

    id: int
    name: str
    game: str
    club: str | None = Field(description="The club's slug; null for a site-wide league.")
    seats_per_match: int
    division_size: int
    season_days: int
    hours_per_phase: float
    bots_allowed: bool
    waits_for_last_match: bool
    moves: int | None = Field(description="Players up and down per division; null: a quarter.")
    relegate_forfeits: int | None
    players: int
    current_season: int | None = Field(description="The latest season's number.")


class SeasonSummary(Schema):
    number: int
    status: Literal["running", "finished"]
    starts_at: datetime
    ends_at: datetime
    finished_at: datetime | None
    divisions: int


class LeagueDetail(LeagueOut):
    seasons: list[SeasonSummary]


class DivisionRow(Schema):
    rank: int
    player: str = Field(description="The user name, or the bot's name.")
    bot: bool
    points: float
    wins: int
    played: int
    move: Literal["up", "down", "stay", "left", ""] = Field(
        description="A finished season: where the player went. A running one: where they would "
                    "go if it ended now (promotion or relegation place).")


class DivisionOut(Schema):
    number: int
    standings: list[DivisionRow]


class SeasonOut(Schema):
    league: int
    number: int
    status: Literal["running", "finished"]
    starts_at: datetime
    ends_at: datetime
    finished_at: datetime | None
    divisions: list[DivisionOut]


class TeamClubOut(Schema):
    id: int
    name: str
    slug: str


class TeamBoardOut(Schema):
    number: int
    player_a: str | None = Field(description="Club A's player; null: nobody fielded.")
    player_b: str | None = Field(description="Club B's player; null: nobody fielded.")
    seat_1: Literal["a", "b"] = Field(description="The club holding seat 1 on this board.")
    match_id: int | None = Field(description="The board's match; null for an unfielded board.")
    unfielded: Literal["", "a", "b", "both"]
    score_a: float | None = Field(description="Club A's score (1, 0.5, 0); null until the "
                                              "board is over, and when nobody played it.")
    done: bool


class TeamMatchSummary(Schema):
    id: int
    club_a: TeamClubOut
    club_b: TeamClubOut
    league_id: int | None
    round: int | None
    game: str
    boards: int
    status: Literal["proposed", "accepted", "declined", "playing", "finished"]
    starts_at: datetime
    points_a: float | None
    points_b: float | None
    winner: Literal["a", "b", "draw"] | None = Field(
        description="Once finished: the winning club's side, or draw.")


class TeamMatchOut(TeamMatchSummary):
    hours_per_phase: float
    board_rows: list[TeamBoardOut] = Field(description="Once started, every board.")
    rosters: dict[str, list[str | None]] = Field(
        description="Before the start: each side's named player per board (a, b).")


class TeamStandingOut(Schema):
    club: TeamClubOut
    rank: int
    match_points: int
    board_points: float
    played: int


class TeamLeagueOut(Schema):
    id: int
    name: str
    host: TeamClubOut
    game: str
    boards: int
    cycles: int
    status: Literal["registration", "running", "finished"]
    clubs: list[TeamClubOut] = Field(description="The clubs that joined.")
    standings: list[TeamStandingOut]
    team_match_ids: list[int]
