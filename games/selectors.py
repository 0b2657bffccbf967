"""Reads for pages, mail and API. Nothing here ever returns another seat's sealed sheet."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games.audit_words import told
from games.endings import ending_words
from games.fields import JSONField
from games.models import Match, ModerationEntry, Phase, Seat, SeatTenure, Submission
from games.plugins import seat_name
from games.prepared import Prepared, run_together
from games.services.timing import seat_clocks
from games.words import say


def _game(match: Match) -> engine.Game | None:
    try:
        return engine.get(match.game)
    except KeyError:
        return None


def _prompted_seats(match: Match) -> set[int]:
    game = _game(match)
    if game is None or match.status != Match.Status.ACTIVE or match.state is None:
        return set()
    return set(game.prompts(match.state))


# "My matches" shows every current match and the finished ones a page at a time.
FINISHED_PAGE = 25


def matches_for_user(user: AbstractBaseUser, *, finished_before: int | None = None,
                     finished_limit: int = FINISHED_PAGE) -> list[Match]:
    """The user's matches: waiting for my sheet first, then other active, open, then the
    newest ``finished_limit`` finished or aborted ones (those joined before seat id
    ``finished_before`` when given, and then no current ones: a further page).

    Each match gets ``my_seat`` (Seat) and ``waiting_for_me`` (bool) attributes. The queries
    never read more rows than they show, however many matches the user has finished (indexes
    ``match_current`` and ``seat_user_newest``)."""
    if user is None or not user.is_authenticated:
        return []
    if finished_before is not None:
        return _as_finished(_finished_page(finished_limit, before=True)(
            user_id=user.pk, before=finished_before))
    # Both lists in one round trip, their SQL compiled once per connection.
    seats, finished_seats_ = run_together(
        (_CURRENT_SEATS, {"user_id": user.pk}),
        (_finished_page(finished_limit, before=False), {"user_id": user.pk}))
    rows = []
    unsent = [seat.match for seat in seats
              if seat.match.status == Match.Status.ACTIVE and not seat.has_submitted]
    prompted = _prompted_many(unsent)
    for seat in seats:
        match = seat.match
        match.my_seat = seat
        match.waiting_for_me = seat.number in prompted.get(match.pk, ())
        bucket = 0 if match.waiting_for_me else (
            1 if match.status == Match.Status.ACTIVE else 2)
        when = match.deadline.timestamp() if bucket <= 1 and match.deadline else 0.0
        rows.append(((bucket, when, -match.created_at.timestamp(), match.pk), match))
    rows.sort(key=lambda row: row[0])
    return [match for _, match in rows] + _as_finished(finished_seats_)


def matches_finished_for_user(user: AbstractBaseUser, *, before: int | None = None,
                              limit: int = FINISHED_PAGE) -> list[Match]:
    """The user's finished or aborted matches, the most recently joined first (by seat id,
    below ``before`` when given): one page, read through the (user, -id) index of seats."""
    page = _finished_page(limit, before=before is not None)
    return _as_finished(page(user_id=user.pk, **({"before": before} if before is not None
                                                 else {})))


def _as_finished(seats: list[Seat]) -> list[Match]:
    out = []
    for seat in seats:
        match = seat.match
        match.my_seat = seat
        match.waiting_for_me = False
        out.append(match)
    return out


# What lists of "my matches" read of each seat and its match (pages, API, the prompts' keys).
MY_MATCHES_FIELDS = ("id", "number", "match_id", "user_id", "match__id", "match__game",
                     "match__title", "match__status", "match__phase_number", "match__phase_name",
                     "match__deadline", "match__created_at", "match__seed", "match__logbook_seq")


def current_seats(user: AbstractBaseUser) -> QuerySet[Seat]:
    """The user's seats in open and active matches, with their matches."""
    return (Seat.objects.filter(user=user,
                                match__status__in=[Match.Status.ACTIVE, Match.Status.OPEN])
            .select_related("match").only(*MY_MATCHES_FIELDS))


def _current_seats_with_sheets(user_id: int) -> QuerySet[Seat]:
    """``current_seats``, each with whether the player's sheet for the current phase is in."""
    my_sheet = Submission.objects.filter(
        phase__match=OuterRef("match_id"),
        phase__number=OuterRef("match__phase_number"),
        seat=OuterRef("pk"),
    )
    return current_seats(user_id).annotate(has_submitted=Exists(my_sheet))


_CURRENT_SEATS = Prepared(Seat, _current_seats_with_sheets, server_side=True, user_id="int")


@functools.lru_cache(maxsize=16)
def _finished_page(limit: int, *, before: bool) -> Prepared:
    """A page of ``finished_seats`` (its limit is written into the SQL: one per limit)."""
    if before:
        return Prepared(Seat, lambda user_id, before: finished_seats(user_id, before=before)
                        [:limit], server_side=True, user_id="int", before="int")
    return Prepared(Seat, lambda user_id: finished_seats(user_id)[:limit], server_side=True,
                    user_id="int")


def finished_seats(user: AbstractBaseUser, *, before: int | None = None) -> QuerySet[Seat]:
    """The user's seats in finished and aborted matches, newest first (below ``before``)."""
    seats = (Seat.objects.filter(user=user, match__status__in=[Match.Status.FINISHED,
                                                               Match.Status.ABORTED])
             .select_related("match").only(*MY_MATCHES_FIELDS, "match__result")  # (its outcome)
             .order_by("-pk"))
    return seats.filter(pk__lt=before) if before is not None else seats


def lobby_open() -> QuerySet[Match]:
    """Public matches waiting for players, newest first (the lobby slices a page of it; their
    open seats are counted from ``lobby_seats``)."""
    return (Match.objects.filter(status=Match.Status.OPEN, is_public=True)
            .only(*LOBBY_FIELDS).order_by("-created_at", "-pk"))


def lobby_running() -> QuerySet[Match]:
    """Public matches in play, the next deadline first."""
    return (Match.objects.filter(is_public=True, status=Match.Status.ACTIVE)
            .only(*LOBBY_FIELDS, "phase_number", "phase_name", "deadline")
            .order_by("deadline", "pk"))


class LobbyPlayer(NamedTuple):
    """A player in a lobby list: the username and the reliability record's short and long
    forms (a tuple: the Jinja2 template reads its fields as attributes, cheaply)."""

    name: str
    badge: str
    title: str


def lobby_page(start: int, stop: int) -> tuple[list[Match], list[Match]]:
    """The lobby's page of each list, ``[start:stop]`` of ``lobby_open`` and ``lobby_running``,
    in one round trip (their SQL compiled once per connection and page: it is the same for
    every reader of a page)."""
    waiting, running = run_together(*((lobby_list, {}) for lobby_list in
                                      lobby_lists(start, stop)))
    return waiting, running


@functools.lru_cache(maxsize=64)
def lobby_lists(start: int, stop: int) -> tuple[Prepared, Prepared]:
    """The queries of ``lobby_page``: a page's offset and limit are written into the SQL, so
    each page is compiled on its own."""
    return (Prepared(Match, lambda: lobby_open()[start:stop]),
            Prepared(Match, lambda: lobby_running()[start:stop]))


# The seats of some matches, with their players' names and reliability records.
LOBBY_SEATS = Prepared(Seat, lambda ids: (
    Seat.objects.filter(match_id__any_of=ids).order_by("match_id", "number")
    .values_list("match_id", "status", "user__username",
                 *(f"user__reliability__{field}" for field in RELIABILITY_SHOWN))),
    server_side=True, ids="ints")


def lobby_seats(match_ids: list[int]) -> tuple[dict[int, list[LobbyPlayer]], dict[int, int]]:
    """For the lobby's matches, in one query of their seats (as plain rows, no models; its SQL
    compiled once per connection): {match id: its players in seat order} and {match id: its
    number of open seats}."""
    from games.services.reliability import reliability_badge, reliability_describe

    players: dict[int, list[LobbyPlayer]] = {}
    open_seats: dict[int, int] = {}
    if not match_ids:
        return players, open_seats
    described: dict[tuple, LobbyPlayer] = {}  # (a player sits in several listed matches)
    for match_id, status, name, *record in LOBBY_SEATS(ids=list(match_ids)):
        if status == Seat.Status.OPEN:
            open_seats[match_id] = open_seats.get(match_id, 0) + 1
        if name is None:  # an open seat or a bot's
            continue
        key = (name, *record)
        player = described.get(key)
        if player is None:
            # (the record's fields as attributes, as the descriptions read them; no model)
            shown = _Record(*record) if record[0] is not None else None
            player = described[key] = LobbyPlayer(
                name, reliability_badge(shown),
                _("Reliability: %(record)s") % {"record": reliability_describe(shown)})
        players.setdefault(match_id, []).append(player)
    return players, open_seats


RELIABILITY_SHOWN = ("score", "deadlines", "deadlines_missed", "matches_finished",
                     "matches_abandoned")


class _Record(NamedTuple):
    """A reliability record's fields the lobby shows (``RELIABILITY_SHOWN``), without a model."""

    score: int
    deadlines: int
    deadlines_missed: int
    matches_finished: int
    matches_abandoned: int


# (options: a game's plug-in may say its pace from them, a game of gamedays its schedule)
LOBBY_FIELDS = ("id", "game", "title", "status", "hours_per_phase", "options", "created_at",
                "min_reliability", "clock_bank_hours", "clock_increment_hours", "clock_cap_hours",
                "max_shift_hours", "timing")


def _prompted_many(matches: list[Match]) -> dict[int, set[int]]:
    """{match id: the seats its open phase prompts} for active matches whose state was not
    loaded: what the prompts are depends only on the state, fixed for a phase (and, in
    continuous phases, for a logbook entry), so each is read from the cache or worked out from
    states loaded in one query."""
    if not matches:
        return {}
    from games import pagecache

    keys = {m.pk: "prompts:" + "-".join(str(part) for part in (
        m.pk, m.seed, m.phase_number, m.logbook_seq, m.deadline.timestamp() if m.deadline
        else "")) for m in matches}
    # (kept in the process too: a key names a phase's prompts, which never change)
    found = pagecache.get_many(list(keys.values()))
    out = {pk: set(found[key]) for pk, key in keys.items() if key in found}
    missing = [m.pk for m in matches if keys[m.pk] not in found]
    if missing:
        made = {}
        for match in Match.objects.filter(pk__in=missing).only("id", "game", "status", "state"):
            out[match.pk] = _prompted_seats(match)
            made[keys[match.pk]] = sorted(out[match.pk])
        pagecache.set_many(made)
    return out


_MATCH_SEATS = Prepared(Seat, lambda match_id: Seat.objects.filter(match_id=match_id)
                        .select_related("user").order_by("number"),
                        server_side=True, match_id="int")


def match_seats(match: Match, rows: list[Seat] | None = None) -> list[Seat]:
    """``list(match.seats.select_related("user"))``, by SQL compiled once per connection
    (every page of a match reads it). ``rows``: ``MATCH_SEATS``' answer, read already."""
    seats = _MATCH_SEATS(match_id=match.pk) if rows is None else rows
    for seat in seats:
        Seat.match.field.set_cached_value(seat, match)
    return seats


def match_seat_for_user(match: Match, user: AbstractBaseUser | None) -> Seat | None:
    """The user's seat in ``match`` or None (spectator, anonymous)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(match=match, user=user).first()


def match_visible_to(match: Match, user: AbstractBaseUser | None) -> bool:
    """Public matches are visible to all; private ones to their players and staff."""
    if match.is_public:
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or match.created_by_id == user.pk or match.seats.filter(
        user=user).exists()


def phase_submission_status(match: Match) -> dict[int, bool]:
    """For the open phase: {seat number: has submitted} for every prompted seat. Never content."""
    if match.status != Match.Status.ACTIVE:
        return {}
    prompted = _prompted_seats(match)
    submitted = set(
        Submission.objects.filter(
            phase__match=match, phase__number=match.phase_number, phase__status=Phase.Status.OPEN
        ).values_list("seat__number", flat=True)
    )
    return {number: number in submitted for number in sorted(prompted)}


class PhaseNumber(NamedTuple):
    """An older resolved phase in a match page's list: what its replay steps and links read."""

    pk: int
    number: int
    name: str


# (in the model's order of fields, as Model.from_db reads them)
PAGE_PHASE_FIELDS = tuple(field.attname for field in Phase._meta.concrete_fields
                          if field.attname in {"id", "match_id", "number", "name", "kind",
                                               "status", "resolved_at", "extended",
                                               "leave_extended"})


# The match page's phases (``match_page_phases``) as rows of ``PAGE_PHASE_FIELDS``.
_PAGE_PHASE_ROWS = Prepared(Phase, lambda match_id, number: (
    Phase.objects.filter(match_id=match_id)
    .filter(Q(status=Phase.Status.RESOLVED) | Q(number=number))
    .order_by("number").values_list(*PAGE_PHASE_FIELDS)),
    server_side=True, match_id="int", number="int")


def page_phase_values(match: Match) -> dict[str, int]:
    return {"match_id": match.pk, "number": match.phase_number}


PAGE_PHASE_ROWS = _PAGE_PHASE_ROWS
MATCH_SEATS = _MATCH_SEATS


def match_page_phases(match: Match, *, latest: int, rows: list[tuple] | None = None
                      ) -> tuple[list[Phase | PhaseNumber], Phase | None]:
    """For the match page, in one query: every resolved phase, oldest first (as
    ``match_history`` orders them), and the current unresolved phase (open or quarantined;
    what its notes show) or None. Only the ``latest`` resolved phases (the page shows them)
    and the current one are made models (their other fields deferred); the older ones are
    ``PhaseNumber`` rows, so that a long match costs a small row per phase, not a model."""
    if rows is None:  # (else ``page_phase_rows``' answer, read already)
        rows = _PAGE_PHASE_ROWS(**page_phase_values(match))
    pk, number, name, status = (PAGE_PHASE_FIELDS.index(field)
                                for field in ("id", "number", "name", "status"))
    resolved_rows = [row for row in rows if row[status] == Phase.Status.RESOLVED]
    db = Phase.objects.db
    older = len(resolved_rows) - latest
    resolved: list[Phase | PhaseNumber] = [
        PhaseNumber(row[pk], row[number], row[name]) if index < older
        else Phase.from_db(db, PAGE_PHASE_FIELDS, row)
        for index, row in enumerate(resolved_rows)]
    current = next((Phase.from_db(db, PAGE_PHASE_FIELDS, row) for row in rows
                    if row[number] == match.phase_number
                    and row[status] != Phase.Status.RESOLVED), None)
    return resolved, current


def phase_sheets(match: Match, phase: Phase | None, *, prompted: set[int], seats: list[Seat],
                 author: Seat | None, user: AbstractBaseUser | None
                 ) -> tuple[dict[int, bool], Submission | None]:
    """For the open ``phase``, in one query: {seat number: has submitted} for every prompted
    seat (``phase_submission_status``) and ``author``'s own sheet if ``user`` holds that seat
    (``submission_for_author``). The other seats' rows are read without their content: their
    sheets never leave the database."""
    numbers = {seat.pk: seat.number for seat in seats}
    if match.status != Match.Status.ACTIVE or phase is None or phase.status != Phase.Status.OPEN:
        return {number: False for number in sorted(prompted)}, None
    own = (author.pk if author is not None and user is not None and user.is_authenticated
           and author.match_id == match.pk and author.user_id == user.pk else None)
    # (seat id 0 is nobody's: then every row comes without content)
    rows = _PHASE_SHEET_ROWS(phase_id=phase.pk, own_seat_id=own or 0)
    seat = SHEET_FIELDS.index("seat_id")
    submitted = {numbers.get(row[seat]) for row in rows}
    mine = None
    for row in rows:
        if own is not None and row[seat] == own:
            mine = Submission.from_db(Submission.objects.db, SHEET_FIELDS, row[:-1])
            mine.data = row[-1]
    return {number: number in submitted for number in sorted(prompted)}, mine


# What the match page reads of the open phase's sheets (every field but the content).
SHEET_FIELDS = tuple(field.attname for field in Submission._meta.concrete_fields
                     if field.attname != "data")


# The phase's sheets as rows of ``SHEET_FIELDS`` and, last, the content of seat
# ``own_seat_id``'s sheet alone (a ``CASE``: the others' is NULL, it never leaves the database).
_PHASE_SHEET_ROWS = Prepared(Submission, lambda phase_id, own_seat_id: (
    Submission.objects.filter(phase_id=phase_id)
    .annotate(own_data=Case(When(seat_id=own_seat_id, then=F("data")),
                            default=Value(None), output_field=JSONField()))
    .values_list(*SHEET_FIELDS, "own_data")), server_side=True, phase_id="int", own_seat_id="int")


def match_open_phase(match: Match) -> Phase | None:
    """The match's current unresolved phase (open or quarantined), if any; sealed data deferred."""
    return (
        Phase.objects.filter(match=match, number=match.phase_number)
        .exclude(status=Phase.Status.RESOLVED)
        .defer("state_before")
        .first()
    )


def match_moderation_log(match: Match, rows: list[tuple] | None = None
                         ) -> list[dict[str, Any]]:
    """The public short form of the match's audit trail (moderators' actions and leave), oldest
    first: when and what, never who moderated or why (those stay in the admin). ``rows``:
    ``MODERATION_LOG_ROWS``' answer, read already."""
    if rows is None:
        rows = _MODERATION_LOG_ROWS(match_id=match.pk)
    return [{"at": at, "summary": told(words, summary), "phase": phase}
            for at, summary, phase, words in rows]


# ``match_moderation_log``'s rows: when, what (its words, and the English line) and in which
# phase, oldest first.
_MODERATION_LOG_ROWS = Prepared(ModerationEntry, lambda match_id: (
    ModerationEntry.objects.filter(match_id=match_id).order_by("at", "pk")
    .values_list("at", "summary", "phase_number", "details__words")),
    server_side=True, match_id="int")
MODERATION_LOG_ROWS = _MODERATION_LOG_ROWS


def match_history(match: Match) -> QuerySet[Phase]:
    """Resolved phases, oldest first, with revealed sheets and events (never state_before)."""
    return (
        Phase.objects.filter(match=match, status=Phase.Status.RESOLVED)
        .defer("state_before")
        .order_by("number")
    )


def submission_for_author(match: Match, seat: Seat, user: AbstractBaseUser | None
                          ) -> Submission | None:
    """The author's own sheet for the open phase (with its receipt); None for anyone else."""
    if (user is None or not user.is_authenticated or seat.match_id != match.pk
            or seat.user_id != user.pk):
        return None
    return Submission.objects.filter(
        phase__match=match, phase__number=match.phase_number, phase__status=Phase.Status.OPEN,
        seat=seat,
    ).first()


def match_board_view(match: Match, user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """The engine's view of the current state for this user's seat (or as a spectator)."""
    game = _game(match)
    if game is None or match.state is None:
        return None
    seat = match_seat_for_user(match, user)
    return game.view(match.state, seat.number if seat else None)


def matches_open_to_join(user: AbstractBaseUser | None = None) -> QuerySet[Match]:
    """Public matches waiting for players (for the lobby), newest first."""
    return (
        Match.objects.filter(status=Match.Status.OPEN, is_public=True)
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created_at")
    )


class SeekingSeat(NamedTuple):
    """A seat of a public match in play that seeks a new commander, as the lobby lists it."""

    match_id: int
    title: str
    game: str
    seat_number: int
    offer_token: str
    offered_at: Any
    autopilot_bot: str
    phase_number: int
    deadline: Any

    @property
    def game_name(self) -> str:
        game = engine.games().get(self.game)
        return game.name if game is not None else self.game

    @property
    def seat_name(self) -> str:
        """The seat's name in the reader's language, as the match page gives it."""
        return seat_name(self.game, self.seat_number)

    @property
    def match_label(self) -> str:
        return self.title or f"{self.game} #{self.match_id}"


def seats_seeking(*, limit: int = 50, user: Any = None) -> list[SeekingSeat]:
    """Seats of public matches in play seeking a new commander, longest waiting first (one
    query, through the partial index ``seat_seeking``). A private match's seat is offered by
    its link only. For ``user``, not the seats of a match they hold a seat of, nor of one
    where they held another seat (``seat_take`` refuses them)."""
    if user is not None and user.is_authenticated:
        rows = _seeking_query(limit, for_user=True)(user_id=user.pk)
    else:
        rows = _seeking_query(limit, for_user=False)()
    return [SeekingSeat(*row) for row in rows]


def _seats_seeking(limit: int, user_id: int | None = None) -> QuerySet[Seat]:
    rows = Seat.objects.filter(offer_token__isnull=False, match__status=Match.Status.ACTIVE,
                               match__is_public=True)
    if user_id is not None:
        rows = rows.exclude(Exists(SeatTenure.objects.filter(
            match_id=OuterRef("match_id"), user_id=user_id)
            .exclude(seat_number=OuterRef("number"))))
        rows = rows.exclude(match__in=Seat.objects.filter(user_id=user_id).values("match_id"))
    return (rows.order_by("offered_at", "pk")
            .values_list("match_id", "match__title", "match__game", "number", "offer_token",
                         "offered_at", "bot", "match__phase_number", "match__deadline")[:limit])


@functools.lru_cache(maxsize=8)
def _seeking_query(limit: int, *, for_user: bool) -> Prepared:
    """``_seats_seeking`` compiled once per connection (the lobby asks on every view)."""
    if for_user:
        return Prepared(Seat, lambda user_id: _seats_seeking(limit, user_id), server_side=True,
                        user_id="int")
    return Prepared(Seat, lambda: _seats_seeking(limit), server_side=True)


def json_data(value: Any) -> Any:
    """``value`` as plain JSON data (sets become sorted lists, mappings get string keys)."""
    import dataclasses
    import json

    def fallback(item: Any) -> Any:
        if isinstance(item, set | frozenset):
            return sorted(item, key=str)
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            return dataclasses.asdict(item)
        if hasattr(item, "items"):
            return dict(item.items())
        if hasattr(item, "__iter__"):
            return list(item)
        return str(item)

    return json.loads(json.dumps(value, default=fallback))


def match_seat_prompt(match: Match, user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """What the user's seat is asked to do in the open phase: the prompt, the deadline, the
    legal actions and the grammar help, and their own sheet so far (with its receipt). None
    when the user has no seat or it is not prompted."""
    game = _game(match)
    seat = match_seat_for_user(match, user)
    if (game is None or seat is None or match.status != Match.Status.ACTIVE
            or match.state is None):
        return None
    prompt = game.prompts(match.state).get(seat.number)
    if prompt is None:
        return None
    try:
        legal = json_data(game.legal_actions(match.state, seat.number))
    except NotImplementedError:
        legal = None
    sheet = submission_for_author(match, seat, user)
    try:
        default = json_data(game.default_submission(match.state, seat.number))
    except (NotImplementedError, ValueError):
        default = None
    return {
        "seat": seat.number,
        "phase_number": match.phase_number,
        "phase_kind": prompt.kind.value,
        "phase": prompt.phase,
        "required": prompt.required,
        "deadline": match.deadline,
        "text_help": say(game.text_help(match.state, seat.number)),
        "legal_actions": legal,
        # What the seat plays if it misses the deadline (a valid sheet to start from).
        "default_sheet": default,
        "my_sheet": None if sheet is None else {
            "revision": sheet.revision,
            "receipt": sheet.receipt,
            "salt": sheet.salt,
            "source": sheet.source,
            "submitted_at": sheet.updated_at,
            "data": json_data(game.view_submission(match.state, seat.number, sheet.data)),
        },
    }


def match_seat_view(match: Match, user: AbstractBaseUser | None) -> dict[str, Any]:
    """Everything the user's seat (or a spectator, without one) may know of a match, as plain
    data: the one place a seat's view is assembled (the API's match view; add per-seat data
    here). The board is the engine's ``view`` for that seat; no other seat's sheet is in it."""
    game = _game(match)
    seat = match_seat_for_user(match, user)
    active = match.status == Match.Status.ACTIVE and match.state is not None and game is not None
    prompts = game.prompts(match.state) if active else {}
    submitted = phase_submission_status(match) if active else {}
    clocks = seat_clocks(match, timezone.now(), prompts) if active else {}
    seats = []
    for row in match.seats.select_related("user"):
        clock = clocks.get(row.number)
        seats.append({
            "number": row.number,
            "name": game.seat_name(row.number) if game else f"Seat {row.number}",
            "player": row.user.get_username() if row.user else None,
            "bot": row.bot or None,
            "status": row.status,
            "seeking": row.seeking,
            "prompted": row.number in prompts,
            "submitted": bool(submitted.get(row.number)),
            "clock": {"seconds_left": int(clock.left.total_seconds()), "text": clock.text,
                      "running": clock.running, "due": clock.due,
                      "on_leave_until": clock.on_leave_until} if clock else None,
        })
    board = None
    if game is not None and match.state is not None:
        board = json_data(game.view(match.state, seat.number if seat else None))
    return {
        "id": match.pk,
        "game": match.game,
        "game_name": game.name if game else match.game,
        "title": str(match),
        "status": match.status,
        "is_public": match.is_public,
        "press": match.press,
        "reveal_private": match.reveal_private,
        "phase": {
            "number": match.phase_number, "kind": match.phase_kind, "name": match.phase_name,
            "deadline": match.deadline,
        } if active else None,
        "my_seat": seat.number if seat else None,
        "seats": seats,
        "board": board,
        "prompt": match_seat_prompt(match, user) if seat and seat.number in prompts else None,
        "result": match.result,
        "ending": ending_words(match),
        "finished_at": match.finished_at,
        "dice": match_dice(match),
    }


def match_dice(match: Match) -> dict[str, Any]:
    """The match's seed commitment (public from the start) and, once it has finished, the
    seed and salt that open it; never the seed of a match that has not finished."""
    revealed = match.status == Match.Status.FINISHED
    return {"commitment": match.seed_commitment or None,
            "seed": match.seed if revealed else None,
            "salt": (match.seed_salt or None) if revealed else None}


def match_poll(match_id: int, user: AbstractBaseUser | None) -> dict[str, Any] | None:
    """What the submission-status poll needs to answer "nothing changed", in one query: the
    match's status and phase, how many seats have submitted in the open phase (a count, never
    who sealed what), and whether ``user`` sits in it (for private matches). None if there is
    no such match."""
    submitted = (
        Submission.objects.filter(phase__match=OuterRef("pk"),
                                  phase__number=OuterRef("phase_number"),
                                  phase__status=Phase.Status.OPEN)
        .order_by().values("phase__match").annotate(n=Count("pk")).values("n")
    )
    rows = Match.objects.filter(pk=match_id).annotate(
        submitted=Subquery(submitted, output_field=IntegerField()))
    if user is not None and user.is_authenticated:
        rows = rows.annotate(seated=Exists(Seat.objects.filter(match=OuterRef("pk"),
                                                               user_id=user.pk)))
    fields = ["pk", "status", "phase_number", "is_public", "created_by_id", "submitted"]
    row = rows.values(*fields, *(["seated"] if "seated" in rows.query.annotations else [])).first()
    if row is None:
        return None
    row["submitted"] = row["submitted"] or 0
    row.setdefault("seated", False)
    return row


def gameday_number(*, match: Match, key: str) -> int:
    """Which gameday of ``match`` the one named ``key`` is, counting from 1 (its tick's place
    among the match's ticks; the next one when it has not been ticked yet)."""
    from games.models import Action

    ticks = Action.objects.filter(match=match, kind=Action.Kind.TICK)
    tick = ticks.filter(gameday=key).order_by("seq").values_list("seq", flat=True).first()
    if tick is None:
        return ticks.count() + 1
    return ticks.filter(seq__lte=tick).count()
