"""The JSON API under /api/v1/ (django-ninja): the same services and selectors as the pages.

Every answer about a match is what the token's user may see: the engine's view for their seat,
their own sheet and nobody else's. Refusals are the services' errors (code, message, the
engine's problems) with the pages' status codes; malformed input is a 422 from the schema.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Path, Query, Status
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

import engine
from games import plugins, records, selectors
from games.models import Match, Seat, Submission
from games.services import ServiceError, match_create, seat_join, sheet_submit
from games.views.access import status_for
from portal.api import schemas
from portal.api.auth import TokenAuth, TokenRateThrottle

api = NinjaAPI(
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
        request, {"code": "invalid", "message": "The request is not valid.",
                  "problems": problems}, status=422)


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    response = api.create_response(
        request, {"code": "unauthorized", "message": "Send a live API token: "
                  "Authorization: Bearer tp_… (create one on your profile page).",
                  "problems": []}, status=401)
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    """The framework's own refusals (a body that is not JSON, …) in the API's error shape."""
    code = "invalid" if error.status_code == 400 else f"http_{error.status_code}"
    return api.create_response(request, {"code": code, "message": str(error.message)
                                         if hasattr(error, "message") else str(error),
                                         "problems": []}, status=error.status_code)


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, error: Throttled) -> HttpResponse:
    response = api.create_response(
        request, {"code": "throttled", "message": "Too many requests with this token; wait "
                  "a little.", "problems": []}, status=429)
    if error.wait:
        response["Retry-After"] = str(int(error.wait) + 1)
    return response


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not selectors.match_visible_to(match, request.user):
        raise ServiceError("not_found", f"There is no match {match_id}.")
    return match


def _seats_out(game: engine.Game | None, seats: list[Seat]) -> list[dict[str, Any]]:
    return [{"number": s.number,
             "name": game.seat_name(s.number) if game else f"Seat {s.number}",
             "player": s.user.get_username() if s.user else None,
             "bot": s.bot or None, "status": s.status} for s in seats]


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
                         is_public=body.is_public, title=body.title, press=body.press,
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
            raise ServiceError("not_your_seat", "You have no seat in this match.")
        raise ServiceError("not_your_turn", "Your seat has nothing to do now.")
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
        raise ServiceError("not_your_seat", "You have no seat in this match.")
    if (body.data is None) == (body.text is None):
        raise ServiceError("invalid", "Send the sheet as either data or text.")
    receipt = sheet_submit(match_id=match.pk, seat_number=seat.number, user=request.user,
                           phase_number=body.phase_number, data=body.data, text=body.text,
                           source=Submission.Source.API)
    return {"submission_id": receipt.submission_id, "receipt": receipt.receipt,
            "salt": receipt.salt, "revision": receipt.revision,
            "data": selectors.json_data(receipt.data),
            "warnings": [w.as_dict() for w in receipt.warnings], "complete": receipt.complete}


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
    """How the match ended (``result`` is null while it is in play)."""
    match = _visible_match(request, match_id)
    return {"id": match.pk, "status": match.status,
            "finished": match.status in (Match.Status.FINISHED, Match.Status.ABORTED),
            "result": match.result, "finished_at": match.finished_at}
