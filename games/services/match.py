"""Creating, starting, aborting matches, and the one function that changes a match's status."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.services import window_of
from dbops.bulk import one_round_trip, rows_insert, rows_update
from durable.outbox import outbox_write, task_event
from engine import RuleError
from games.models import Match, MatchStatusChange, Seat
from games.services.common import game_for, match_lock, phase_open, rules_ending
from games.services.errors import ServiceError
from games.services.queue import signal_event
from games.services.tenures import tenure_rows
from games.services.timing import needs_windows
from games.services.vacation import seats_with_hours_and_leave

MAX_HOURS_PER_PHASE = Decimal("8760")  # a year; the field holds up to 9999.999
MIN_HOURS_PER_PHASE = Decimal("0.001")
MAX_CLOCK_HOURS = Decimal(30 * 24)  # a bank's cap; with a one-hour window, 720 days of play
MAX_SHIFT_HOURS = Decimal(7 * 24)


def match_set_status(
    *, match: Match, new_status: str, by: AbstractBaseUser | None = None, note: str = "",
    events: list[tuple] | None = None, save: bool = True,
) -> Match:
    """Move ``match`` to ``new_status`` if Match.TRANSITIONS allows it, writing an audit row.

    The caller holds the match row lock (``match_lock``) inside a transaction. The "match ended"
    signal is promised in the outbox: appended to ``events`` when the caller writes its own
    (one statement for everything), else written here. With ``save=False`` the caller saves
    the match row (with its other changes, in one UPDATE).
    """
    old_status = match.status
    if new_status not in Match.TRANSITIONS.get(old_status, set()):
        raise ServiceError(
            "bad_transition",
            _("A match that is “%(old)s” cannot become “%(new)s”.") % {
                "old": Match.Status(old_status).label,
                "new": Match.Status(new_status).label if new_status in Match.Status.values
                else new_status},
        )
    now = timezone.now()
    match.status = new_status
    fields = ["status"]
    if new_status == Match.Status.ACTIVE:
        match.started_at = now
        fields.append("started_at")
    if new_status in (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.VOIDED):
        match.finished_at = now
        match.deadline = None
        match.complete_at = None
        fields += ["finished_at", "deadline", "complete_at"]
        ended = [signal_event("match_ended", match.pk, match_id=match.pk, status=new_status),
                 task_event("games.tasks.reliability_record", match.pk, match_id=match.pk)]
        if events is not None:
            events.extend(ended)
        else:
            outbox_write(ended)
    if save:
        match.save(update_fields=fields)
    rows_insert([MatchStatusChange(
        match=match,
        old_status=old_status,
        new_status=new_status,
        changed_by=by if by is not None and by.is_authenticated else None,
        note=note[:255],
    )])
    return match


def _clean_hours(hours_per_phase: Any) -> Decimal:
    try:
        hours = Decimal(str(hours_per_phase))
    except (InvalidOperation, ValueError):
        raise ServiceError(
            "invalid_options", _("“%(value)s” is not a number of hours.")
            % {"value": hours_per_phase}
        ) from None
    if not hours.is_finite() or not MIN_HOURS_PER_PHASE <= hours <= MAX_HOURS_PER_PHASE:
        raise ServiceError(
            "invalid_options",
            _("Hours per phase must be between %(low)s and %(high)s.")
            % {"low": MIN_HOURS_PER_PHASE, "high": MAX_HOURS_PER_PHASE},
        )
    return hours.quantize(Decimal("0.001"))


def _clean_timing(bank: Any, increment: Any, cap: Any, max_shift: Any
                  ) -> dict[str, Decimal | None]:
    """The clock and deadline-shift options, checked: hours as numbers, the bank and the
    increment within the cap, the cap at most 30 days; the shift 0 (never) to 7 days."""
    def hours(value: Any, name: str, low: Decimal, high: Decimal) -> Decimal:
        try:
            number = Decimal(str(value))
        except (InvalidOperation, ValueError):
            raise ServiceError("invalid_options", _("“%(value)s” is not a number of hours "
                                                    "(%(field)s).")
                               % {"value": value, "field": name}) from None
        if not number.is_finite() or not low <= number <= high:
            raise ServiceError("invalid_options", _("The %(field)s must be between %(low)s and "
                                                    "%(high)s hours, not %(value)s.")
                               % {"field": name, "low": low, "high": high, "value": value})
        return number.quantize(Decimal("0.001"))

    shift = hours(max_shift, _("maximum deadline shift"), Decimal(0), MAX_SHIFT_HOURS)
    if bank in (None, ""):
        return {"clock_bank_hours": None, "clock_increment_hours": Decimal(0),
                "clock_cap_hours": None, "max_shift_hours": shift}
    cap = hours(cap if cap not in (None, "") else MAX_CLOCK_HOURS, _("clock cap"),
                Decimal(1), MAX_CLOCK_HOURS)
    bank = hours(bank, _("time bank"), Decimal(1), cap)
    increment = hours(increment or 0, _("increment per phase"), Decimal(0), cap)
    return {"clock_bank_hours": bank, "clock_increment_hours": increment,
            "clock_cap_hours": cap, "max_shift_hours": shift}


def _clean_seats(game: Any, seats: Any) -> list[dict[str, Any]]:
    from engine import Problem

    if not isinstance(seats, list | tuple):
        raise ServiceError("invalid_seats", _("Seats must be a list, one entry per seat."))
    if not game.min_seats <= len(seats) <= game.max_seats:
        values = {"game": game.name, "low": game.min_seats, "high": game.max_seats,
                  "count": len(seats)}
        raise ServiceError("invalid_seats", (
            _("%(game)s is played by %(low)s seats, not %(count)s.")
            if game.min_seats == game.max_seats
            else _("%(game)s is played by %(low)s to %(high)s seats, not %(count)s.")) % values)
    problems = []
    users = set()
    cleaned = []
    for index, entry in enumerate(seats, start=1):
        path = f"seats.{index}"
        kind = entry.get("kind") if isinstance(entry, dict) else None
        if kind == "human":
            user = entry.get("user")
            if user is not None and not getattr(user, "pk", None):
                problems.append(Problem(path, _("The player is not a saved account.")))
                continue
            if user is not None and user.pk in users:
                problems.append(Problem(path, _("%(player)s already has a seat in this match.")
                                        % {"player": user}))
                continue
            if user is not None:
                users.add(user.pk)
            cleaned.append({"user": user, "bot": ""})
        elif kind == "bot":
            bot = entry.get("bot")
            if bot not in game.bots:
                problems.append(Problem(path, _("%(game)s has no bot “%(bot)s” (bots: %(bots)s).")
                                        % {"game": game.name, "bot": bot,
                                           "bots": ", ".join(game.bots) or _("none")}))
                continue
            cleaned.append({"user": None, "bot": bot})
        else:
            problems.append(Problem(path, _('Each seat is {"kind": "human"} or '
                                            '{"kind": "bot"}.')))
    if problems:
        raise ServiceError("invalid_seats", _("Some seats are not valid."), problems)
    return cleaned


@transaction.atomic
def match_create(
    *,
    creator: AbstractBaseUser,
    game: str,
    options: dict,
    seats: list[dict],
    hours_per_phase: Any,
    miss_policy: str = Match.MissPolicy.REPLACE,
    miss_limit: int = 3,
    is_public: bool = True,
    title: str = "",
    min_reliability: int | None = None,
    clock_bank_hours: Any = None,
    clock_increment_hours: Any = 0,
    clock_cap_hours: Any = None,
    max_shift_hours: Any = 12,
    allow_vacations: bool = True,
    autopilot: bool = False,
    press: str = Match.Press.FULL,
    reveal_private: bool = False,
) -> Match:
    """Create a match; if every seat is already filled (e.g. creator + bot) it starts now.

    ``min_reliability`` (a percentage) keeps players below it from taking a seat. With
    ``clock_bank_hours`` each seat plays on a correspondence clock (that bank, plus
    ``clock_increment_hours`` per phase, up to ``clock_cap_hours``) instead of the fixed
    ``hours_per_phase``; ``max_shift_hours`` (0: never) caps how far a fixed deadline moves
    out of the night of a seat that owes input. ``autopilot``: the game's bot plays a seat
    seeking a new commander until someone takes it (``games.services.seeking``).
    ``press`` says which messages the players may
    send (full, public, none) and ``reveal_private`` whether private ones are shown to all once
    the match ends (docs/messages.md)."""
    the_game = game_for(game)
    try:
        clean_options = the_game.validate_options(options if options is not None else {})
    except RuleError as error:
        raise ServiceError("invalid_options", _("The game options are not valid."),
                           error.problems) from None
    clean_seats = _clean_seats(the_game, seats)
    hours = _clean_hours(hours_per_phase)
    timing = _clean_timing(clock_bank_hours, clock_increment_hours, clock_cap_hours,
                           max_shift_hours)
    if miss_policy not in Match.MissPolicy.values:
        raise ServiceError("invalid_options", _("Unknown missed-deadline policy “%(policy)s”.")
                           % {"policy": miss_policy})
    if (isinstance(miss_limit, bool) or not isinstance(miss_limit, int)
            or not 1 <= miss_limit <= 100):
        raise ServiceError("invalid_options", _("The miss limit must be a whole number, 1 to 100."))
    if min_reliability is not None and (isinstance(min_reliability, bool) or not isinstance(
            min_reliability, int) or not 0 <= min_reliability <= 100):
        raise ServiceError("invalid_options",
                           _("The minimum reliability must be a percentage, 0 to 100."))
    if press not in Match.Press.values:
        raise ServiceError("invalid_options", _("Unknown press %(press)s: choose %(choices)s.") % {
            "press": repr(str(press)[:20]), "choices": ", ".join(Match.Press.values)})
    title = (title or "").strip()
    if len(title) > Match._meta.get_field("title").max_length:
        raise ServiceError("invalid_options", _("The title is too long (120 characters at most)."))

    match = Match(
        game=the_game.slug,
        title=title,
        options=clean_options,
        is_public=bool(is_public),
        allow_vacations=bool(allow_vacations),
        autopilot=bool(autopilot),
        press=press,
        reveal_private=bool(reveal_private),
        created_by=creator if creator is not None and creator.is_authenticated else None,
        hours_per_phase=hours,
        miss_policy=miss_policy,
        miss_limit=miss_limit,
        min_reliability=min_reliability or None,
        **timing,
    )
    rows_insert([match])
    now = timezone.now()
    seat_rows = [
        Seat(match=match, number=number, user=seat["user"], bot=seat["bot"],
             status=Seat.Status.TAKEN if seat["user"] is not None or seat["bot"]
             else Seat.Status.OPEN,
             joined_at=now if seat["user"] is not None or seat["bot"] else None)
        for number, seat in enumerate(clean_seats, start=1)
    ]
    with one_round_trip():
        rows_insert(seat_rows)
        rows_insert([MatchStatusChange(match=match, old_status="", new_status=match.status,
                                       changed_by=match.created_by, note="created")])
    if all(seat.status == Seat.Status.TAKEN for seat in seat_rows):
        return _start(match, the_game, seat_rows, by=creator)
    return match


@transaction.atomic
def match_start(*, match_id: Any, by: AbstractBaseUser | None = None) -> Match:
    """Start an open match whose seats are all filled: engine start, then phase 1 opens."""
    match = match_lock(match_id)
    if match.status != Match.Status.OPEN:
        raise ServiceError("not_open", _("This match has already started or ended."))
    seats = list(match.seats.select_related("user"))
    if any(seat.status == Seat.Status.OPEN for seat in seats):
        raise ServiceError("not_open", _("The match cannot start: some seats are still open."))
    return _start(match, game_for(match.game), seats, by=by)


def _start(match: Match, game: Any, seats: list[Seat], *, by: AbstractBaseUser | None
           ) -> Match:
    """Start ``match`` (locked or just created by the caller) with its filled ``seats``: the
    engine's start position, then phase 1 opens; one UPDATE of the match, its side effects in
    one outbox INSERT."""
    _name_seats(match, game, seats)
    state = game.start(len(seats), match.options, match.seed)
    now = timezone.now()
    windows: dict[int, Any] = {}
    away: set[int] = set()
    if any(seat.user_id for seat in seats):
        # The players' active hours and leave, in one query.
        hours_matter = needs_windows(match)
        for row in seats_with_hours_and_leave(ids=[match.pk], now=now):
            if row.user_id is None:
                continue
            windows[row.number] = window_of(row) if hours_matter else None
            if row.on_leave_until:
                away.add(row.number)
    events: list[tuple] = []
    fields = ["status", "started_at", "options", "state", "phase_number", "phase_kind",
              "phase_name", "deadline", "complete_at", "timing"]
    with one_round_trip():  # the status row, phase 1, the match and the outbox: one wait
        match_set_status(match=match, new_status=Match.Status.ACTIVE, by=by,
                         note="all seats filled", events=events, save=False)
        phase = phase_open(match=match, game=game, state=state, number=1, now=now,
                           events=events, bots={seat.number: seat.bot for seat in seats
                                                if seat.bot},
                           windows=windows, away=away)
        if phase is None:  # a game that is over before it began: record it, do not hang
            match.state = state
            result = game.result(state)
            match.result = rules_ending(game, result) if result else None
            match_set_status(match=match, new_status=Match.Status.FINISHED, by=by,
                             note="nothing to play", events=events, save=False)
            fields += ["result", "finished_at"]
        rows_update([match], fields)
        rows_insert(tenure_rows(match=match, seats=seats, at=now))
        outbox_write(events)
    return match


def _name_seats(match: Match, game: Any, seats: list[Seat]) -> None:
    """A game with a "names" option (display names in its logbook and text grammar) gets the
    players' user names, unless the creator set them; names the game refuses are left out.
    (The caller saves the match's options.)"""
    if "names" not in game.default_options() or match.options.get("names"):
        return
    names = {str(seat.number): seat.user.get_username() for seat in seats
             if seat.user is not None}
    try:
        match.options = game.validate_options({**match.options, "names": names})
    except RuleError:
        return


@transaction.atomic
def match_abort(*, match_id: Any, by: AbstractBaseUser | None, note: str) -> Match:
    """Abort an open or active match (its creator or staff)."""
    match = match_lock(match_id)
    is_staff = by is not None and getattr(by, "is_staff", False)
    is_creator = by is not None and match.created_by_id is not None and match.created_by_id == by.pk
    if not (is_staff or is_creator):
        raise ServiceError("not_allowed",
                           _("Only the match's creator or a moderator may abort it."))
    if not (note or "").strip():
        raise ServiceError("invalid", _("Say why the match is aborted."))
    match_set_status(match=match, new_status=Match.Status.ABORTED, by=by, note=note.strip())
    match.phases.filter(status="open").update(deadline=None)
    return match
