"""The JSON API under /api/v1/ (django-ninja): the same services and selectors as the pages.

Every answer about a match is what the token's user may see: the engine's view for their seat,
their own sheet and nobody else's. Refusals are the services' errors (code, message, the
engine's problems) with the pages' status codes; malformed input is a 422 from the schema.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Path, Query, Status
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.parser import Parser

import engine
from engine.ending import How
from engine.jsontext import JSONLimitError, read_json
from games import plugins, records, selectors
from games.endings import ending_of, ending_sentence, ending_status, ending_words
from games.models import ConditionalSheet, Match, Seat, Submission
from games.plans import plan_described, plans_offered
from games.services import (
    ServiceError,
    match_create,
    plan_clear,
    plan_for,
    plan_set,
    seat_concede,
    seat_join,
    seat_leave,
    seat_take,
    sheet_ahead_clear,
    sheet_ahead_set,
    sheet_submit,
    vote_cast,
    vote_propose,
)
from games.services.plans import conditions_offered
from games.views.access import status_for
from games.votes import match_votes
from games.words import problem_dicts, sentence
from portal.api import schemas
from portal.api.auth import TokenAuth, TokenRateThrottle


class BoundedParser(Parser):
    """Request bodies read within the site's JSON bounds (depth, size, finite numbers)."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data: dict[str, Any] = read_json(request.body)
        return data


api = NinjaAPI(
    parser=BoundedParser(),
    title="Tank Portal API",
    version="1",
    description="Play your matches from a program. Authenticate with a token from your "
                "profile page: `Authorization: Bearer tp_…`.",
    urls_namespace="api",
    auth=TokenAuth(),
    throttle=[TokenRateThrottle()],
    openapi_url="/openapi.json",
    docs_url="/docs",
)

MatchId = Annotated[int, Path(ge=1, le=2**62)]
# Every refusal has the same shape: 401 no live token, 429 over the rate limit, 422 a request
# the schema refuses, and the services' refusals (400 invalid, 403, 404, 409 stale or late).
ERRORS: dict[int, type] = {code: schemas.Error for code in (400, 401, 403, 404, 409, 422, 429)}


@api.exception_handler(ServiceError)
def _service_error(request: HttpRequest, error: ServiceError) -> HttpResponse:
    return api.create_response(request, error.as_dict(), status=status_for(error))


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    problems = [{"path": ".".join(str(p) for p in e.get("loc", ())),
                 "message": str(e.get("msg", "invalid"))} for e in error.errors]
    return api.create_response(
        request, {"code": "invalid", "message": _("The request is not valid."),
                  "problems": problems}, status=422)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    response = api.create_response(
        request, {"code": "unauthorized", "message": _("Send a live API token: "
                                                    "Authorization: Bearer tp_… (create one on "
                                                    "your profile page)."),
                  "problems": []}, status=401)
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    """The framework's own refusals (a body that is not JSON, …) in the API's error shape."""
    code = "invalid" if error.status_code == 400 else f"http_{error.status_code}"
    message = str(error.message) if hasattr(error, "message") else str(error)
    cause = error.__cause__
    if isinstance(cause, JSONLimitError):  # (the body parser's refusal, see BoundedParser)
        message = sentence(cause.text)
    elif isinstance(cause, ValueError):
        message = _("The request's body is not JSON: %(error)s.") % {"error": cause}
    return api.create_response(request, {"code": code, "message": message, "problems": []},
                               status=error.status_code)


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, error: Throttled) -> HttpResponse:
    response = api.create_response(
        request, {"code": "throttled", "message": _("Too many requests with this token; "
                                                 "wait a little."), "problems": []}, status=429)
    if error.wait:
        response["Retry-After"] = str(int(error.wait) + 1)
    return response


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not selectors.match_visible_to(match, request.user):
        raise ServiceError("not_found", _("There is no match %(id)s.") % {"id": match_id})
    return match


def _seats_out(game: engine.Game | None, seats: list[Seat]) -> list[dict[str, Any]]:
    return [{"number": s.number,
             "name": game.seat_name(s.number) if game
             else _("Seat %(number)s") % {"number": s.number},
             "player": s.user.get_username() if s.user else None,
             "bot": s.bot or None, "status": s.status, "seeking": s.seeking} for s in seats]


@api.get("/games", response={200: list[schemas.GameOut], **ERRORS}, tags=["lobby"])
def games(request: HttpRequest) -> list[dict[str, Any]]:
    """The games this site offers (slug, seats, bots, default options)."""
    out = []
    for slug in plugins.installed():
        game = engine.get(slug)
        out.append({"slug": slug, "name": game.name or slug, "min_seats": game.min_seats,
                    "max_seats": game.max_seats, "bots": list(game.bots),
                    "default_options": game.default_options()})
    return out


@api.get("/lobby", response={200: list[schemas.LobbyMatch], **ERRORS}, tags=["lobby"])
def lobby(request: HttpRequest) -> list[dict[str, Any]]:
    """Public matches waiting for players, newest first."""
    rows = (selectors.matches_open_to_join(request.user).select_related("created_by")
            .annotate(open_seats=Count("seats", filter=Q(seats__status=Seat.Status.OPEN)))
            [:100])
    out = []
    for match in rows:
        game = engine.games().get(match.game)
        out.append({"id": match.pk, "game": match.game,
                    "game_name": game.name if game else match.game, "title": str(match),
                    "hours_per_phase": float(match.hours_per_phase),
                    "created_at": match.created_at,
                    "created_by": match.created_by.get_username() if match.created_by else None,
                    "seats": _seats_out(game, list(match.seats.all()))})
    return out


@api.post("/matches", response={201: schemas.MatchView, **ERRORS}, tags=["lobby"])
def create(request: HttpRequest, body: schemas.MatchIn) -> Status:
    """Create a match: seats are me, open (anyone may join) or a bot; it starts when full."""
    seats = []
    for entry in body.seats:
        if entry.kind == "me":
            seats.append({"kind": "human", "user": request.user})
        elif entry.kind == "open":
            seats.append({"kind": "human", "user": None})
        else:
            seats.append({"kind": "bot", "bot": entry.bot})
    match = match_create(creator=request.user, game=body.game, options=body.options,
                         seats=seats, hours_per_phase=body.hours_per_phase,
                         is_public=body.is_public, title=body.title,
                         autopilot=body.autopilot, press=body.press,
                         reveal_private=body.reveal_private)
    match.refresh_from_db()
    return Status(201, selectors.match_seat_view(match, request.user))


@api.post("/matches/{match_id}/join", response={200: schemas.JoinOut, **ERRORS},
          tags=["lobby"])
def join(request: HttpRequest, match_id: MatchId, body: schemas.JoinIn) -> dict[str, Any]:
    """Take an open seat (the first one unless ``seat_number``); private matches need the
    invitation's token."""
    if body.invite_token is None:
        _visible_match(request, match_id)
    seat = seat_join(match_id=match_id, user=request.user, seat_number=body.seat_number,
                     invite_token=body.invite_token)
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    return {"match_id": match_id, "seat": seat.number, "match_status": status}


@api.get("/lobby/seeking", response={200: list[schemas.SeekingSeatOut], **ERRORS},
         tags=["lobby"])
def seeking(request: HttpRequest) -> list[dict[str, Any]]:
    """Seats of public matches in play that seek a new commander, longest waiting first (a
    private match's seat is offered by its link only; none of a match you hold or held a seat
    of)."""
    rows = selectors.seats_seeking(limit=100, user=request.user)
    return [{"match_id": row.match_id, "game": row.game, "game_name": row.game_name,
             "title": row.match_label, "seat": row.seat_number, "seat_name": row.seat_name,
             "token": row.offer_token, "offered_at": row.offered_at,
             "autopilot": bool(row.autopilot_bot), "phase_number": row.phase_number,
             "deadline": row.deadline} for row in rows]


@api.post("/seeking/take", response={200: schemas.JoinOut, **ERRORS}, tags=["lobby"])
def take(request: HttpRequest, body: schemas.TakeIn) -> dict[str, Any]:
    """Take command of a seat that seeks one (its token: from /lobby/seeking, or its link),
    confirmed: you play it from where it stands, with a record of your own."""
    if not body.confirm:
        raise ServiceError("invalid", _("Send \"confirm\": true: you take the seat as it "
                                        "stands."))
    seat = seat_take(token=body.token, user=request.user)
    return {"match_id": seat.match_id, "seat": seat.number, "match_status": "active"}


@api.post("/matches/{match_id}/leave", response={200: schemas.LeaveOut, **ERRORS},
          tags=["lobby"])
def leave(request: HttpRequest, match_id: MatchId, body: schemas.LeaveIn) -> dict[str, Any]:
    """Leave my seat: of an open match at once; of a match in play only with
    ``"confirm": true``, and the seat then seeks a new commander (an abandoned match in my
    reliability record)."""
    match = _visible_match(request, match_id)
    if match.status == Match.Status.ACTIVE and not body.confirm:
        raise ServiceError("invalid", _("Send \"confirm\": true to leave a match in play: "
                                        "your seat then seeks a new commander."))
    seat = seat_leave(match_id=match.pk, user=request.user)
    return {"match_id": match.pk, "seat": seat.number, "seeking": seat.seeking,
            "match_status": match.status}


@api.get("/matches", response={200: list[schemas.MatchSummary], **ERRORS}, tags=["play"])
def my_matches(request: HttpRequest) -> list[dict[str, Any]]:
    """My matches: waiting for my sheet first, then other active ones, open, finished."""
    out = []
    for match in selectors.matches_for_user(request.user):
        game = engine.games().get(match.game)
        out.append({"id": match.pk, "game": match.game,
                    "game_name": game.name if game else match.game, "title": str(match),
                    "status": match.status, "phase_number": match.phase_number,
                    "phase_name": match.phase_name, "deadline": match.deadline,
                    "my_seat": match.my_seat.number, "waiting_for_me": match.waiting_for_me})
    return out


@api.get("/matches/{match_id}", response={200: schemas.MatchView, **ERRORS}, tags=["play"])
def match_view(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """The match as my seat sees it (as a spectator without a seat): the engine's view, who
    is prompted and who has submitted (never what), my prompt and my own sheet."""
    return selectors.match_seat_view(_visible_match(request, match_id), request.user)


@api.get("/matches/{match_id}/prompt", response={200: schemas.PromptOut, **ERRORS},
         tags=["play"])
def prompt(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """What my seat is asked for in the open phase, its legal actions and my sheet so far."""
    match = _visible_match(request, match_id)
    found = selectors.match_seat_prompt(match, request.user)
    if found is None:
        if selectors.match_seat_for_user(match, request.user) is None:
            raise ServiceError("not_your_seat", _("You have no seat in this match."))
        raise ServiceError("not_your_turn", _("Your seat has nothing to do now."))
    return found


@api.post("/matches/{match_id}/orders", response={200: schemas.ReceiptOut, **ERRORS},
          tags=["play"])
def orders(request: HttpRequest, match_id: MatchId, body: schemas.SheetIn) -> dict[str, Any]:
    """Submit my seat's sheet for the phase (JSON ``data`` or ``text`` in the game's grammar):
    the same service as the match page, the same receipt. A sealed sheet may be replaced
    until the deadline."""
    match = _visible_match(request, match_id)
    seat = selectors.match_seat_for_user(match, request.user)
    if seat is None:
        raise ServiceError("not_your_seat", _("You have no seat in this match."))
    if (body.data is None) == (body.text is None):
        raise ServiceError("invalid", _("Send the sheet as either data or text."))
    receipt = sheet_submit(match_id=match.pk, seat_number=seat.number, user=request.user,
                           phase_number=body.phase_number, data=body.data, text=body.text,
                           source=Submission.Source.API)
    return {"submission_id": receipt.submission_id, "receipt": receipt.receipt,
            "salt": receipt.salt, "revision": receipt.revision,
            "data": selectors.json_data(receipt.data),
            "warnings": problem_dicts(receipt.warnings), "complete": receipt.complete}


def _plan_seat(request: HttpRequest, match_id: int) -> tuple[Match, Seat, engine.Game]:
    """My seat in a visible match whose game takes plans (else the API's refusal)."""
    match = _visible_match(request, match_id)
    seat = selectors.match_seat_for_user(match, request.user)
    if seat is None:
        raise ServiceError("not_your_seat", _("You have no seat in this match."))
    game = engine.games().get(match.game)
    if not plans_offered(game):
        raise ServiceError("unsupported_phase", _("This game takes no plans."))
    return match, seat, game


def _plan_out(match: Match, seat: Seat, game: engine.Game, plan: Any) -> dict[str, Any]:
    return {"seat": seat.number, **plan_described(game, match.state, seat.number, plan)}


@api.get("/matches/{match_id}/plan", response={200: schemas.PlanOut, **ERRORS},
         tags=["play"])
def plan(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """My seat's plan: the moves it plays ahead of its turn when the others' moves match
    (docs/conditional-orders.md), and why the last one ended. Nobody else's."""
    match, seat, game = _plan_seat(request, match_id)
    return _plan_out(match, seat, game, plan_for(match=match, seat=seat, user=request.user))


@api.put("/matches/{match_id}/plan", response={200: schemas.PlanOut, **ERRORS},
         tags=["play"])
def plan_put(request: HttpRequest, match_id: MatchId, body: schemas.PlanIn) -> dict[str, Any]:
    """Set (replace) my seat's plan, as JSON ``tree`` or ``text``; an empty one clears it.
    Each move is checked for its shape only: whether it is legal is decided when it is
    played."""
    match, seat, game = _plan_seat(request, match_id)
    if (body.tree is None) == (body.text is None):
        raise ServiceError("invalid", _("Send the plan as either tree or text."))
    stored = plan_set(match_id=match.pk, seat_number=seat.number, user=request.user,
                      tree=body.tree, text=body.text)
    return _plan_out(match, seat, game, stored if stored.pk else None)


@api.delete("/matches/{match_id}/plan", response={200: schemas.PlanOut, **ERRORS},
            tags=["play"])
def plan_delete(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """Clear my seat's plan (and the notice of the last one)."""
    match, seat, game = _plan_seat(request, match_id)
    plan_clear(match_id=match.pk, seat_number=seat.number, user=request.user)
    return _plan_out(match, seat, game, None)


def _sheet_ahead_out(match: Match, seat: Seat, game: engine.Game) -> dict[str, Any]:
    row = ConditionalSheet.objects.filter(match=match, seat=seat, user=seat.user_id).first()
    return {"seat": seat.number, "conditions_offered": list(conditions_offered(game)),
            "for_phase": row.for_phase if row else None,
            "conditions": row.conditions if row else [], "sheet": row.data if row else None,
            "notice": row.notice if row else None}


def _sheet_ahead_seat(request: HttpRequest, match_id: int) -> tuple[Match, Seat, engine.Game]:
    match = _visible_match(request, match_id)
    seat = selectors.match_seat_for_user(match, request.user)
    if seat is None:
        raise ServiceError("not_your_seat", _("You have no seat in this match."))
    game = engine.games().get(match.game)
    if not conditions_offered(game):
        raise ServiceError("unsupported_phase", _("This game takes no sheets entered ahead."))
    return match, seat, game


@api.get("/matches/{match_id}/sheet-ahead", response={200: schemas.SheetAheadOut, **ERRORS},
         tags=["play"])
def sheet_ahead(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """My seat's sheet entered ahead for the next phase, its conditions, and what became of
    the last one. Nobody else's."""
    return _sheet_ahead_out(*_sheet_ahead_seat(request, match_id))


@api.put("/matches/{match_id}/sheet-ahead", response={200: schemas.SheetAheadOut, **ERRORS},
         tags=["play"])
def sheet_ahead_put(request: HttpRequest, match_id: MatchId,
                    body: schemas.SheetAheadIn) -> dict[str, Any]:
    """Enter my seat's sheet for the next phase, submitted after the open phase resolves if
    every condition holds then (else discarded, and the notice says why)."""
    match, seat, game = _sheet_ahead_seat(request, match_id)
    sheet_ahead_set(match_id=match.pk, seat_number=seat.number, user=request.user,
                    conditions=body.conditions, data=body.data, text=body.text)
    return _sheet_ahead_out(match, seat, game)


@api.delete("/matches/{match_id}/sheet-ahead",
            response={200: schemas.SheetAheadOut, **ERRORS}, tags=["play"])
def sheet_ahead_delete(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """Withdraw my seat's sheet entered ahead."""
    match, seat, game = _sheet_ahead_seat(request, match_id)
    sheet_ahead_clear(match_id=match.pk, seat_number=seat.number, user=request.user)
    return _sheet_ahead_out(match, seat, game)


@api.get("/matches/{match_id}/record", response={200: dict[str, Any], **ERRORS},
         tags=["play"])
def record(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """A finished match's record (docs/records.md): the same JSON as the match page's
    download, to replay with ``python -m engine replay``. 409 while the match is in play."""
    return records.match_record(_visible_match(request, match_id))


@api.get("/matches/{match_id}/messages", response={200: schemas.MessagesOut, **ERRORS},
         tags=["messages"])
def messages(request: HttpRequest, match_id: MatchId, channel: str | None = None,
             after: Annotated[int, Query(ge=0, le=2**62)] = 0) -> dict[str, Any]:
    """The channels I read (with my unread counts) and their messages after message ``after``,
    oldest first, 200 at most: page on with the last id. ``channel`` ("public", "seats-1-3" or
    a game channel's key) keeps to one channel. Spectators read the public channel only;
    nothing here marks a message read."""
    from portal.chat import api as chat_api

    return chat_api.messages_read(match=_visible_match(request, match_id), user=request.user,
                                  channel=channel, after=after)


@api.post("/matches/{match_id}/messages", response={201: schemas.MessageOut, **ERRORS},
          tags=["messages"])
def message_send(request: HttpRequest, match_id: MatchId, body: schemas.MessageIn) -> Status:
    """Send a message from my seat: ``{"channel": "public" | [seat numbers] | "<game channel
    key>", "text": "..."}``. Answers the message (its id, channel and time). A match played
    without messages (gunboat) refuses with 403, a seat over its rate limit with 429."""
    from portal.chat import api as chat_api

    match = _visible_match(request, match_id)
    return Status(201, chat_api.message_send(match=match, user=request.user,
                                             channel=body.channel, text=body.text))


@api.get("/matches/{match_id}/result", response={200: schemas.ResultOut, **ERRORS},
         tags=["play"])
def result(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """How the match ended (``result`` is null while it is in play): the stored ending
    (its "ending" object for machines) and the words every surface says."""
    match = _visible_match(request, match_id)
    ending = ending_of(match)
    return {"id": match.pk, "status": match.status,
            "finished": match.status in (Match.Status.FINISHED, Match.Status.ABORTED),
            "result": match.result, "finished_at": match.finished_at,
            "how": ending.how.value if ending is not None else None,
            "ended_by": ENDED_BY.get(ending.how) if ending is not None else None,
            "outcome": ending_status(match.game, ending) if ending is not None else "",
            "ending": ending_sentence(match.game, ending) if ending is not None
            else ending_words(match)}


# The players' ways of ending a match, as ``ended_by`` has always named them.
ENDED_BY = {How.AGREEMENT: "draw", How.CANCEL: "cancel", How.CONCESSION: "concede"}


# -- votes to end a match (docs/votes.md) --------------------------------------------------------

def _votes_out(match: Match, user: Any) -> dict[str, Any]:
    shown = match_votes(match, user)
    shown["may_propose"] = [option["kind"] for option in shown["may_propose"]]
    return shown


def _one_vote(match: Match, user: Any, vote_id: int) -> dict[str, Any]:
    shown = _votes_out(match, user)
    return next(v for v in shown["open"] + shown["closed"] if v["id"] == vote_id)


def _seated(request: HttpRequest, match: Match) -> None:
    """Permission before work: only a seat's player proposes, votes or concedes."""
    if selectors.match_seat_for_user(match, request.user) is None:
        raise ServiceError("not_your_seat", _("You have no seat in this match."))


@api.get("/matches/{match_id}/votes", response={200: schemas.VotesOut, **ERRORS},
         tags=["votes"])
def votes(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    """The proposals to end the match (open, and the latest closed ones with the
    concessions) as I may see them, and what my seat may do. A secret ballot shows only its
    tally until it closes, to everyone."""
    return _votes_out(_visible_match(request, match_id), request.user)


@api.post("/matches/{match_id}/votes", response={201: schemas.VoteOut, **ERRORS},
          tags=["votes"])
def propose(request: HttpRequest, match_id: MatchId, body: schemas.VoteIn) -> Status:
    """Propose a draw (among the seats still in) or to cancel the match; my yes is its first
    ballot. It passes when every seat still in votes yes."""
    match = _visible_match(request, match_id)
    _seated(request, match)
    vote = vote_propose(match_id=match.pk, user=request.user, kind=body.kind,
                        secret=body.secret)
    return Status(201, _one_vote(match, request.user, vote.pk))


@api.post("/matches/{match_id}/votes/{vote_id}/ballot",
          response={200: schemas.VoteOut, **ERRORS}, tags=["votes"])
def ballot(request: HttpRequest, match_id: MatchId, vote_id: Annotated[int, Path(ge=1, le=2**62)],
           body: schemas.BallotIn) -> dict[str, Any]:
    """Vote yes or no, once. A no rejects it; the last yes passes it (a draw finishes the
    match, a cancel aborts it)."""
    match = _visible_match(request, match_id)
    _seated(request, match)
    vote_cast(match_id=match.pk, vote_id=vote_id, user=request.user, yes=body.vote == "yes")
    match.refresh_from_db()
    return _one_vote(match, request.user, vote_id)


@api.post("/matches/{match_id}/concede", response={200: schemas.ConcedeOut, **ERRORS},
          tags=["votes"])
def concede(request: HttpRequest, match_id: MatchId, body: schemas.ConcedeIn) -> dict[str, Any]:
    """My seat concedes, at once (``{"confirm": true}``): as the game's rules treat a seat
    that gives up. A two-seat match ends; in a bigger one the seat leaves and the others
    play on."""
    match = _visible_match(request, match_id)
    _seated(request, match)
    vote = seat_concede(match_id=match.pk, user=request.user, source="api")
    match.refresh_from_db()
    return {"match_id": match.pk, "seat": vote.seat_number, "match_status": match.status,
            "result": match.result}


# --- leagues (read-only) ----------------------------------------------------------------------

LeagueId = Annotated[int, Path(ge=1, le=2**62)]
SeasonNumber = Annotated[int, Path(ge=1, le=32767)]


def _visible_league(request: HttpRequest, league_id: int) -> Any:
    from competitions.selectors import leagues_visible

    league = leagues_visible(request.user).filter(pk=league_id).first()
    if league is None:
        raise ServiceError("not_found", _("There is no league %(id)s.") % {"id": league_id})
    return league


def _league_out(league: Any) -> dict[str, Any]:
    from competitions.models import LeagueMember

    latest = league.seasons.order_by("-number").values_list("number", flat=True).first()
    return {"id": league.pk, "name": league.name, "game": league.game,
            "club": league.club.slug if league.club_id else None,
            "seats_per_match": league.seats_per_match, "division_size": league.division_size,
            "season_days": league.season_days, "hours_per_phase": float(league.hours_per_phase),
            "bots_allowed": league.bots_allowed,
            "waits_for_last_match": league.waits_for_last_match, "moves": league.moves,
            "relegate_forfeits": league.relegate_forfeits,
            "players": LeagueMember.objects.filter(league=league, left_at=None).count(),
            "current_season": latest}


def _season_summary(season: Any) -> dict[str, Any]:
    return {"number": season.number, "status": season.status, "starts_at": season.starts_at,
            "ends_at": season.ends_at, "finished_at": season.finished_at,
            "divisions": season.divisions.count()}


@api.get("/leagues", response={200: list[schemas.LeagueOut], **ERRORS}, tags=["leagues"])
def leagues(request: HttpRequest) -> list[dict[str, Any]]:
    """The leagues I may see: site-wide ones and those of the clubs I may see."""
    from competitions.selectors import leagues_visible

    return [_league_out(league) for league in leagues_visible(request.user)[:200]]


@api.get("/leagues/{league_id}", response={200: schemas.LeagueDetail, **ERRORS},
         tags=["leagues"])
def league(request: HttpRequest, league_id: LeagueId) -> dict[str, Any]:
    """A league and its seasons, newest first."""
    found = _visible_league(request, league_id)
    return {**_league_out(found),
            "seasons": [_season_summary(s) for s in found.seasons.order_by("-number")]}


@api.get("/leagues/{league_id}/seasons/{number}", response={200: schemas.SeasonOut, **ERRORS},
         tags=["leagues"])
def season(request: HttpRequest, league_id: LeagueId, number: SeasonNumber) -> dict[str, Any]:
    """A season's divisions, each with its standings (final once the season is over)."""
    from competitions.selectors import season_divisions

    found = _visible_league(request, league_id)
    chosen = found.seasons.filter(number=number).first()
    if chosen is None:
        raise ServiceError("not_found", _("There is no such season."))
    divisions = [{"number": entry["division"].number, "standings": [
        {"rank": row["rank"], "player": row["name"], "bot": row["is_bot"],
         "points": float(row["points_value"]), "wins": row["wins"], "played": row["played"],
         "move": row["move"]} for row in entry["rows"]]}
        for entry in season_divisions(chosen)]
    return {**_season_summary(chosen), "league": found.pk, "divisions": divisions}


# -- team matches and team leagues (read-only) -----------------------------------------------

TEAM_LIST_LIMIT = 100


def _club_out(club: Any) -> dict[str, Any]:
    return {"id": club.pk, "name": club.name, "slug": club.slug}


def _team_match_summary(team_match: Any) -> dict[str, Any]:
    winner = None
    if team_match.status == "finished":
        winner = ("draw" if team_match.winner_id is None
                  else "a" if team_match.winner_id == team_match.club_a_id else "b")
    return {
        "id": team_match.pk, "club_a": _club_out(team_match.club_a),
        "club_b": _club_out(team_match.club_b), "league_id": team_match.league_id,
        "round": team_match.round, "game": team_match.game, "boards": team_match.boards,
        "status": team_match.status, "starts_at": team_match.starts_at,
        "points_a": None if team_match.points_a is None else float(team_match.points_a),
        "points_b": None if team_match.points_b is None else float(team_match.points_b),
        "winner": winner}


def _visible_team_matches(request: HttpRequest) -> Any:
    from competitions import selectors as competitions
    from competitions.models import Membership, TeamMatch

    clubs = competitions.clubs_visible(request.user).values("pk")
    mine = Membership.objects.filter(user_id=request.user.pk).values("club_id")
    return TeamMatch.objects.filter(
        (Q(club_a__in=clubs) & Q(club_b__in=clubs)) | Q(club_a__in=mine) | Q(club_b__in=mine)
    ).select_related("club_a", "club_b").order_by("-created_at", "-pk")


@api.get("/team-matches", response={200: list[schemas.TeamMatchSummary], **ERRORS},
         tags=["competitions"])
def team_matches(request: HttpRequest) -> list[dict[str, Any]]:
    """The newest team matches I may see (both clubs visible to me, or mine), 100 at most."""
    return [_team_match_summary(tm) for tm in _visible_team_matches(request)[:TEAM_LIST_LIMIT]]


@api.get("/team-matches/{team_match_id}", response={200: schemas.TeamMatchOut, **ERRORS},
         tags=["competitions"])
def team_match(request: HttpRequest,
               team_match_id: Annotated[int, Path(ge=1, le=2**62)]) -> dict[str, Any]:
    """A team match: its boards once started, the rosters' board players before."""
    from competitions.models import TeamBoard, TeamPlayer

    team_match = _visible_team_matches(request).filter(pk=team_match_id).first()
    if team_match is None:
        raise ServiceError("not_found", _("There is no team match %(id)s.") % {
            "id": team_match_id})
    boards = [{
        "number": row.number,
        "player_a": row.player_a.get_username() if row.player_a else None,
        "player_b": row.player_b.get_username() if row.player_b else None,
        "seat_1": "a" if row.a_first else "b", "match_id": row.match_id,
        "unfielded": row.unfielded, "score_a": None if row.score is None else float(row.score),
        "done": row.done}
        for row in TeamBoard.objects.filter(team_match=team_match)
        .select_related("player_a", "player_b").order_by("number")]
    rosters: dict[str, list[str | None]] = {"a": [None] * team_match.boards,
                                            "b": [None] * team_match.boards}
    for row in TeamPlayer.objects.filter(team_match=team_match, board__isnull=False) \
            .select_related("user"):
        side = team_match.side_of(row.club_id)
        if side and 1 <= row.board <= team_match.boards:
            rosters[side][row.board - 1] = row.user.get_username()
    return {**_team_match_summary(team_match),
            "hours_per_phase": float(team_match.hours_per_phase),
            "board_rows": boards, "rosters": rosters}


def _team_league_out(league: Any) -> dict[str, Any]:
    from competitions import selectors as competitions

    rows = competitions.team_league_standings(league)
    return {
        "id": league.pk, "name": league.name, "host": _club_out(league.host),
        "game": league.game, "boards": league.boards, "cycles": league.cycles,
        "status": league.status,
        "clubs": [_club_out(p.club) for p in league.teams.filter(joined_at__isnull=False)
                  .select_related("club").order_by("number", "club__name")],
        "standings": [{"club": _club_out(row["club"]), "rank": row["rank"],
                       "match_points": row["match_points"],
                       "board_points": float(row["board_points"]), "played": row["played"]}
                      for row in rows],
        "team_match_ids": list(league.team_matches.order_by("round", "pk")
                               .values_list("pk", flat=True))}


def _visible_leagues(request: HttpRequest) -> Any:
    from competitions import selectors as competitions
    from competitions.models import Membership, TeamLeague

    mine = Membership.objects.filter(user_id=request.user.pk).values("club_id")
    return TeamLeague.objects.filter(
        Q(host__in=competitions.clubs_visible(request.user).values("pk"))
        | Q(teams__club__in=mine)).distinct().select_related("host").order_by("-created_at",
                                                                              "-pk")


@api.get("/team-leagues", response={200: list[schemas.TeamLeagueOut], **ERRORS},
         tags=["competitions"])
def team_leagues(request: HttpRequest) -> list[dict[str, Any]]:
    """The newest team leagues I may see, with their standings, 100 at most."""
    return [_team_league_out(league) for league in _visible_leagues(request)[:TEAM_LIST_LIMIT]]


@api.get("/team-leagues/{league_id}", response={200: schemas.TeamLeagueOut, **ERRORS},
         tags=["competitions"])
def team_league(request: HttpRequest,
                league_id: Annotated[int, Path(ge=1, le=2**62)]) -> dict[str, Any]:
    league = _visible_leagues(request).filter(pk=league_id).first()
    if league is None:
        raise ServiceError("not_found", _("There is no team league %(id)s.") % {
            "id": league_id})
    return _team_league_out(league)


@api.get("/players/{username}", response={200: dict[str, Any], **ERRORS}, tags=["players"])
def player(request: HttpRequest, username: Annotated[str, Path(max_length=150)]
           ) -> dict[str, Any]:
    """A player's page as the token's user may read it: their record per game, reliability
    and its history, current matches (private ones only to themselves), ratings and clubs."""
    from portal.players.api import player_data

    return player_data(request, username)
