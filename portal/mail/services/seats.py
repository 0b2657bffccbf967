"""The mails of seats that find a new commander (``games.services.seeking``): when a seat
starts seeking one, its match's other players get its link to pass on, and a player whose
seat was taken from them after missed deadlines gets it too (they may take it back while
nobody has); when a newcomer takes it, the other players hear who. Each once (a dedupe key
per change), in the reader's language. A mail names the match, the seat and the link: never
anything of the game a spectator could not see."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

import engine
from games.models import Match, Seat, SeatTenure
from games.plugins import seat_name
from games.services.seeking import OFFERED, TAKEN
from portal.accounts.models import Event
from portal.accounts.notifications import seats_wanting, wants
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import language_of, match_url, render
from portal.mail.services.outbox import emails_queue


def offer_url(seat: Seat) -> str:
    return settings.SITE_URL + reverse("games:seat_offer", args=[seat.offer_token])


def seat_changed_notify(*, match_id: Any, seat_number: int, change: str,
                        user_id: int | None, ending: str, at: str) -> int:
    """Queue the mails of one change of a seat (``games.signals.seat_changed``). A change
    overtaken by the next (an offer already taken) mails nothing. Returns how many were new."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).defer("state").first()
    seat = Seat.objects.filter(match_id=match_id, number=seat_number).first()
    if match is None or seat is None or change not in (OFFERED, TAKEN):
        return 0
    if change == OFFERED and (seat.offered_at is None
                              or seat.offered_at != datetime.fromisoformat(at)):
        return 0  # taken (or offered again) since: this offer is over
    if change == TAKEN and seat.user_id != user_id:
        return 0
    game = engine.get(match.game)
    others = [s for s in seats_wanting(match, Event.SEAT, "mail") if s.number != seat_number]
    readers = [(s.user, "other") for s in others]
    if change == OFFERED and ending == SeatTenure.Ending.MISSED and user_id is not None:
        absent = get_user_model().objects.filter(pk=user_id).select_related("profile").first()
        if absent is not None and absent.email and wants(absent, Event.SEAT, "mail"):
            readers.append((absent, "absent"))
    newcomer = seat.user if change == TAKEN else None
    emails = []
    for reader, role in readers:
        with translation.override(language_of(reader)):
            context = {
                "user": reader, "role": role, "change": change, "match_title": str(match),
                "game_name": game.name, "seat_number": seat.number,
                "seat_name": seat_name(match.game, seat.number),
                "newcomer": newcomer.get_username() if newcomer is not None else "",
                "offer_url": offer_url(seat) if change == OFFERED else "",
                "autopilot": change == OFFERED and bool(seat.bot),
                "match_url": match_url(match),
                "profile_url": settings.SITE_URL + reverse("accounts_profile"),
                "language": language_of(reader),
            }
            text, html = render("seat_changed", context)
            if change == TAKEN:
                subject = _("%(match)s: %(player)s took command of seat %(seat)s") % {
                    "match": match, "player": context["newcomer"], "seat": seat.number}
            elif role == "absent":
                subject = _("%(match)s: your seat is offered to a new commander") % {
                    "match": match}
            else:
                subject = _("%(match)s: seat %(seat)s seeks a new commander") % {
                    "match": match, "seat": seat.number}
        emails.append({"kind": OutgoingEmail.Kind.SEAT, "user": reader, "to": reader.email,
                       "dedupe_key": f"seat:m{match.pk}:s{seat.number}:{change}:{at}"
                                     f":u{reader.pk}",
                       "match_id": match.pk, "subject": subject, "body_text": text,
                       "body_html": html})
    return len(emails_queue(emails))
