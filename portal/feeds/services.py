"""The calendar feed's secret, and the feed itself: an iCalendar of the deadlines and gamedays
of a player's active matches, in their time zone."""

from __future__ import annotations

import hmac
import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext
from icalendar import Calendar, Event

import engine
from engine import PhaseKind
from games.models import Match, Seat
from games.parsing import id_or_none
from portal.feeds.models import CalendarFeed

# How long an event lasts in the calendar (a deadline is a moment; calendars want a span).
EVENT_MINUTES = 15


def _generation(user_id: int) -> int:
    row = CalendarFeed.objects.filter(user_id=user_id).values_list("generation", flat=True)
    return row.first() or 0


def _signature(user_id: int, generation: int) -> str:
    return salted_hmac("portal.feeds.calendar", f"{user_id}:{generation}",
                       algorithm="sha256").hexdigest()[:40]


def calendar_token(*, user: AbstractBaseUser) -> str:
    """The secret part of the user's feed URL."""
    return f"{user.pk}-{_signature(user.pk, _generation(user.pk))}"


def calendar_url(*, user: AbstractBaseUser) -> str:
    return settings.SITE_URL + reverse("calendar_feed", args=[calendar_token(user=user)])


@transaction.atomic
def calendar_regenerate(*, user: AbstractBaseUser) -> str:
    """A new secret URL for the user's feed; the old one answers 404 from now on."""
    feed, _ = CalendarFeed.objects.select_for_update().get_or_create(user=user)
    feed.generation += 1
    feed.regenerated_at = timezone.now()
    feed.save(update_fields=["generation", "regenerated_at"])
    return calendar_token(user=user)


def calendar_user(*, token: str) -> AbstractBaseUser | None:
    """The user whose current feed token this is, or None (unknown, forged or regenerated)."""
    text, _, signature = (token or "").partition("-")
    user_id = id_or_none(text)
    if user_id is None or not signature:
        return None
    expected = _signature(user_id, _generation(user_id))
    if not hmac.compare_digest(signature.encode(), expected.encode()):  # bytes: any text
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def _zone(user: AbstractBaseUser) -> zoneinfo.ZoneInfo:
    name = getattr(getattr(user, "profile", None), "time_zone", "") or "UTC"
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def calendar_feed(*, user: AbstractBaseUser) -> bytes:
    """The iCalendar, in the user's language (a calendar program fetching it says none)."""
    from portal.mail.services.notify import language_of

    with translation.override(language_of(user)):
        return _calendar_feed(user)


def _calendar_feed(user: AbstractBaseUser) -> bytes:
    """For each of the user's active matches, the open phase's deadline (for a continuous
    phase, the next gameday's start). An event's UID names the match and phase, so a moved
    deadline updates the event in the player's calendar instead of adding one."""
    from portal.mail.services.notify import phase_name

    zone = _zone(user)
    host = settings.SITE_URL.split("//", 1)[-1].split("/", 1)[0].split(":", 1)[0] or "localhost"
    cal = Calendar()
    cal.add("prodid", "-//Tank Portal//calendar feed//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", gettext("Tank Portal: my matches"))
    cal.add("x-wr-timezone", str(zone))
    cal.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    seats = (Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE,
                                 match__deadline__isnull=False)
             .select_related("match").defer("match__state", "match__options")
             .order_by("match__deadline", "match_id"))
    now = timezone.now()
    for seat in seats:
        match = seat.match
        game = engine.games().get(match.game)
        game_name = game.name if game else match.game
        continuous = match.phase_kind == PhaseKind.CONTINUOUS.value
        # iCalendar times are whole seconds: the start is the deadline, rounded down.
        start: datetime = match.deadline.astimezone(zone).replace(microsecond=0)
        event = Event()
        event.add("uid", f"match-{match.pk}-phase-{match.phase_number}@{host}")
        if continuous:
            event.add("summary", gettext("Gameday opens: %(match)s") % {"match": match})
        else:
            event.add("summary", gettext("Deadline: %(match)s (%(phase)s)") % {
                "match": match,
                "phase": phase_name(match.phase_name, match.game) or gettext("orders")})
        event.add("dtstart", start)
        event.add("dtend", start + timedelta(minutes=EVENT_MINUTES))
        event.add("dtstamp", now)
        event.add("last-modified", now)
        event.add("url", settings.SITE_URL + reverse("games:match", args=[match.pk]))
        seat_name = (game.seat_name(seat.number) if game
                     else gettext("Seat %(number)s") % {"number": seat.number})
        what = (gettext("The next gameday starts.") if continuous
                else gettext("Orders for phase %(number)s are due.") % {
                    "number": match.phase_number})
        event.add("description", f"{game_name}, {seat_name}. {what}")
        cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()
