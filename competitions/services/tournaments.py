"""Tournaments: creation, registration and withdrawal, the status lifecycle.

Everything that changes a tournament takes its row lock first (``tournament_lock``): two
workers recording two results of one round at the same moment are serialised, so a round is
closed and the next one paired exactly once.
"""

from __future__ import annotations

import math
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from competitions.models import Entry, Ladder, Tournament, TournamentStatusChange
from competitions.services.clubs import membership_of, organising_club, require_organiser
from competitions.services.ladders import ladder_rating_of, site_ladder
from games.dates import floatformat
from games.parsing import InvalidNumber, id_or_none, parse_int
from games.services import ServiceError, reliability_check
from games.services.common import game_for

Format = Tournament.Format


def tournament_lock(tournament_id: Any) -> Tournament:
    """Lock and return the tournament row: every change to a tournament goes through here."""
    try:
        return Tournament.objects.select_for_update().get(pk=id_or_none(tournament_id))
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no tournament %(id)s.") % {
            "id": str(tournament_id)[:20]}) from None


def tournament_set_status(*, tournament: Tournament, new_status: str,
                          by: AbstractBaseUser | None = None, note: str = "") -> Tournament:
    """Move to ``new_status`` if TRANSITIONS allow it, with an audit row (caller holds lock)."""
    old = tournament.status
    if new_status not in Tournament.TRANSITIONS.get(old, set()):
        raise ServiceError("bad_transition", _("A tournament that is %(old)s cannot become "
                                               "%(new)s.") % {
            "old": Tournament.Status(old).label.lower(),
            "new": Tournament.Status(new_status).label.lower()
            if new_status in Tournament.Status.values else new_status})
    tournament.status = new_status
    fields = ["status"]
    if new_status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        tournament.finished_at = timezone.now()
        fields.append("finished_at")
    tournament.save(update_fields=fields)
    TournamentStatusChange.objects.create(
        tournament=tournament, old_status=old, new_status=new_status,
        by=by if by is not None and by.is_authenticated else None, note=note[:255])
    return tournament


def _decimal(value: Any, what: str, low: str, high: str) -> Decimal:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ServiceError("invalid", _("%(what)s must be a number.") % {"what": what}) from None
    if not number.is_finite() or not Decimal(low) <= number <= Decimal(high):
        raise ServiceError("invalid", _("%(what)s must be between %(low)s and %(high)s.") % {
            "what": what, "low": low, "high": high})
    return number


def _whole(value: Any, what: str, low: int, high: int, empty_ok: bool = True) -> int | None:
    if value in (None, "") and empty_ok:
        return None
    try:
        number = parse_int(value.strip() if isinstance(value, str) else value,
                           min=-(10**18), max=10**18, field=what)
    except InvalidNumber:
        raise ServiceError("invalid", _("%(what)s must be a whole number.") % {
            "what": what}) from None
    if not low <= number <= high:
        raise ServiceError("invalid", _("%(what)s must be between %(low)s and %(high)s.") % {
            "what": what, "low": low, "high": high})
    return number


@transaction.atomic
def tournament_create(
    *, by: AbstractBaseUser, name: str, game: str, format: str, club_id: Any = None,
    options: dict | None = None, max_players: Any = None, rating_floor: Any = None,
    min_reliability: Any = None, rounds_planned: Any = None, cycles: Any = 1,
    seats_per_match: Any = None,
    round_hours: Any = 168, hours_per_phase: Any = 48, adjudication: str = "forfeit",
    bye_score: Any = 1, late_entry: bool = False, starts_at: datetime | None = None,
    fixed_deadlines: bool = False,
) -> Tournament:
    """Create a tournament (a club's organisers; site-wide ones: staff). Registration opens.
    With ``fixed_deadlines`` its matches never move a deadline (out of a player's night or
    for leave)."""
    club = organising_club(by=by, club_id=club_id, site_wide_refusal=_(
        "Only admins create site-wide tournaments."))
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise ServiceError("invalid", _("A tournament needs a name of 1 to 120 characters."))
    the_game = game_for(game)
    if format not in Format.values:
        raise ServiceError("invalid", _("Unknown format “%(format)s”.") % {
            "format": str(format)[:40]})
    try:
        clean = the_game.validate_options(options or {})
    except engine.RuleError as error:
        raise ServiceError("invalid_options", _("The game options are not valid."),
                           error.problems) from None
    if format == Format.PODS:
        size = _whole(seats_per_match, _("The pod size"), 3, 100, empty_ok=False)
        assert size is not None
        if not (the_game.min_seats <= size - 1 and size <= the_game.max_seats):
            raise ServiceError("invalid", _(
                "%(game)s is played by %(least)s to %(most)s: not in pods of %(size)s and "
                "%(smaller)s.") % {"game": the_game.name, "least": the_game.min_seats,
                                   "most": the_game.max_seats, "size": size,
                                   "smaller": size - 1})
    else:
        size = 2
        if not the_game.min_seats <= 2 <= the_game.max_seats:
            raise ServiceError("invalid", _("%(game)s is not played by two: use pods.") % {
                "game": the_game.name})
    if adjudication not in Tournament.Adjudication.values:
        raise ServiceError("invalid", _("Unknown adjudication rule “%(rule)s”.") % {
            "rule": str(adjudication)[:40]})
    floor = None
    if rating_floor not in (None, ""):
        floor = float(_decimal(rating_floor, _("The rating floor"), "-1000", "1000"))
    ladder: Ladder | None = None
    if club is not None:
        ladder = Ladder.objects.filter(club=club, game=the_game.slug).first()
    ladder = ladder or site_ladder(game=the_game.slug)
    return Tournament.objects.create(
        club=club, ladder=ladder, name=name, game=the_game.slug, options=clean, format=format,
        max_players=_whole(max_players, _("The most players"), 2, 4096),
        rating_floor=floor,
        min_reliability=_whole(min_reliability, _("The minimum reliability"), 0, 100) or None,
        rounds_planned=_whole(rounds_planned, _("The number of rounds"), 1, 99),
        cycles=_whole(cycles, _("The cycles"), 1, 2, empty_ok=False),
        seats_per_match=size,
        round_hours=_decimal(round_hours, _("The round's length in hours"), "0.01", "8760"),
        hours_per_phase=_decimal(hours_per_phase, _("Hours per phase"), "0.001", "8760"),
        adjudication=adjudication,
        bye_score=_decimal(bye_score, _("The bye's score"), "0", "1"),
        late_entry=bool(late_entry) and format == Format.SWISS,
        fixed_deadlines=bool(fixed_deadlines),
        starts_at=starts_at, created_by=by,
    )


def _player_rating(tournament: Tournament, user: Any) -> float:
    ladder = tournament.ladder or site_ladder(game=tournament.game)
    return ladder_rating_of(ladder, user.pk)


@transaction.atomic
def tournament_register(*, tournament_id: Any, user: AbstractBaseUser) -> Entry:
    """Register; while a Swiss with late entry runs, join from the next round."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to register."))
    tournament = tournament_lock(tournament_id)
    running_late = (tournament.status == Tournament.Status.RUNNING and tournament.late_entry
                    and tournament.format == Format.SWISS)
    if not tournament.registration_open or not (
            tournament.status == Tournament.Status.REGISTRATION or running_late):
        raise ServiceError("not_open", _("Registration for this tournament is closed."))
    if tournament.club_id and membership_of(tournament.club, user) is None:
        raise ServiceError("not_allowed", _("This tournament is for the club's members."))
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is not None:
        raise ServiceError("invalid", _("You are already registered."))
    active = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if tournament.max_players and active >= tournament.max_players:
        raise ServiceError("not_open", _("The tournament is full."))
    rating = _player_rating(tournament, user)
    if tournament.rating_floor is not None and rating < tournament.rating_floor:
        raise ServiceError("not_allowed", _("Your rating %(rating)s is under the floor "
                                            "%(floor)s.") % {
            "rating": floatformat(rating, "1"), "floor": floatformat(tournament.rating_floor, "1")})
    reliability_check(user=user, minimum=tournament.min_reliability, what=_("This tournament"))
    start_number = None
    if running_late:
        last = Entry.objects.filter(tournament=tournament).exclude(start_number=None) \
            .order_by("-start_number").values_list("start_number", flat=True).first()
        start_number = (last or 0) + 1
    return Entry.objects.create(tournament=tournament, user=user, rating=rating,
                                start_number=start_number, late=running_late)


@transaction.atomic
def tournament_withdraw(*, tournament_id: Any, user: AbstractBaseUser) -> Entry | None:
    """Withdraw: before the start the entry goes; later, future rounds leave the player out
    (finished results stay; a match in play is played out)."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in first."))
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is None or entry.status != Entry.Status.ACTIVE:
        raise ServiceError("not_found", _("You are not playing in this tournament."))
    if tournament.status == Tournament.Status.REGISTRATION:
        entry.delete()
        return None
    if tournament.status != Tournament.Status.RUNNING:
        raise ServiceError("not_active", _("The tournament is over."))
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["status", "withdrawn_at"])
    return entry


@transaction.atomic
def tournament_registration_set(*, tournament_id: Any, by: AbstractBaseUser,
                                is_open: bool) -> Tournament:
    tournament = tournament_lock(tournament_id)
    _require_organiser(tournament, by)
    tournament.registration_open = bool(is_open)
    tournament.save(update_fields=["registration_open"])
    return tournament


@transaction.atomic
def tournament_bot_enter(*, tournament_id: Any, by: AbstractBaseUser, bot: str) -> Entry:
    """An organiser enters one of the game's bots while registration is open (several may
    play: each is numbered, "random bot 2"). A bot counts towards the most players."""
    tournament = tournament_lock(tournament_id)
    _require_organiser(tournament, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ServiceError("not_open", _("The tournament has started: bots can be entered only "
                                         "before the first round."))
    if not tournament.registration_open:
        raise ServiceError("not_open", _("Registration is closed: open it again to enter a "
                                         "bot."))
    the_game = engine.get(tournament.game)
    if bot not in the_game.bots:
        if not the_game.bots:
            raise ServiceError("invalid", _("%(game)s has no bots.") % {"game": the_game.name})
        raise ServiceError("invalid", _("%(game)s has no bot called “%(bot)s”; its bots are: "
                                        "%(bots)s.") % {"game": the_game.name, "bot": bot,
                                                        "bots": ", ".join(the_game.bots)})
    active = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if tournament.max_players and active >= tournament.max_players:
        raise ServiceError("not_open", _("The tournament is full."))
    last = Entry.objects.filter(tournament=tournament, user=None, bot=bot).aggregate(
        last=Max("bot_number"))["last"]
    return Entry.objects.create(tournament=tournament, bot=bot, bot_number=(last or 0) + 1)


@transaction.atomic
def tournament_bot_remove(*, tournament_id: Any, by: AbstractBaseUser, entry_id: Any) -> None:
    """An organiser takes a bot out: before the start its entry goes; later it is withdrawn
    (future rounds leave it out, finished results stay, a match in play is played out)."""
    tournament = tournament_lock(tournament_id)
    _require_organiser(tournament, by)
    # (id_or_none, not str.isdigit: "²" is a digit to Python and no id to the database)
    entry = Entry.objects.filter(tournament=tournament, user=None,
                                 pk=id_or_none(entry_id)).first()
    if entry is None or entry.status != Entry.Status.ACTIVE:
        raise ServiceError("not_found", _("There is no such bot playing in this tournament."))
    if tournament.status == Tournament.Status.REGISTRATION:
        entry.delete()
        return
    if tournament.status != Tournament.Status.RUNNING:
        raise ServiceError("not_active", _("The tournament is over."))
    entry.status = Entry.Status.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["status", "withdrawn_at"])


def _require_organiser(tournament: Tournament, by: Any) -> None:
    if tournament.club_id:
        require_organiser(tournament.club, by)
    elif by is None or not getattr(by, "is_staff", False):
        raise ServiceError("not_allowed", _("Only admins run site-wide tournaments."))


def default_rounds(tournament: Tournament, players: int) -> int:
    """Swiss and pods: the organiser's number, else enough to find a winner (log2 n)."""
    if tournament.rounds_planned:
        return tournament.rounds_planned
    return max(1, math.ceil(math.log2(max(players, 2))))


@transaction.atomic
def tournament_start(*, tournament_id: Any, by: AbstractBaseUser | None = None,
                     now: datetime | None = None) -> Tournament:
    """Close registration, give start numbers by rating and open round 1 (organisers, or the
    sweeper at ``starts_at`` with ``by`` None)."""
    from competitions.services.rounds import round_open

    tournament = tournament_lock(tournament_id)
    if by is not None:
        _require_organiser(tournament, by)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ServiceError("not_open", _("The tournament has already started."))
    entries = list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
                   .order_by("-rating", "registered_at", "pk"))
    if len(entries) < 2:
        raise ServiceError("invalid", _("A tournament needs at least two players."))
    for number, entry in enumerate(entries, start=1):
        entry.start_number = number
        entry.save(update_fields=["start_number"])
    tournament.registration_open = tournament.late_entry
    tournament.save(update_fields=["registration_open"])
    tournament_set_status(tournament=tournament, new_status=Tournament.Status.RUNNING, by=by,
                          note=f"{len(entries)} players")
    round_open(tournament=tournament, number=1, now=now or timezone.now())
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: Any, by: AbstractBaseUser, note: str) -> Tournament:
    tournament = tournament_lock(tournament_id)
    _require_organiser(tournament, by)
    if not (note or "").strip():
        raise ServiceError("invalid", _("Say why the tournament is cancelled."))
    return tournament_set_status(tournament=tournament, new_status=Tournament.Status.CANCELLED,
                                 by=by, note=note.strip())
