"""The mail that confirms a player's leave: the bank, the leave, each deadline it moved and
each clock of theirs it stopped."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from games.models import Leave
from games.services import vacation_bank
from games.services.moderation import duration_text
from games.services.timing import seat_due, uses_clock
from portal.accounts.models import Event
from portal.accounts.notifications import wants
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import language_of, local_time, match_url, render
from portal.mail.services.outbox import email_queue


def leave_taken_notify(*, leave_id: Any) -> int:
    """Queue the confirmation once (dedupe key per leave) if the player wants it. Returns 1 if
    queued, else 0."""
    leave = Leave.objects.select_related("user", "user__profile").filter(pk=leave_id).first()
    if leave is None or not wants(leave.user, Event.LEAVE, "mail"):
        return 0
    with translation.override(language_of(leave.user)):
        return _leave_mail_queue(leave)


def _leave_mail_queue(leave: Leave) -> int:
    """The confirmation of ``leave``, written in the active language."""
    user = leave.user
    bank = vacation_bank(user=user, now=leave.starts_at)
    moved = []
    for ext in leave.extensions.select_related("match").defer("match__state"):
        deadline = ext.match.deadline
        clock = uses_clock(ext.match)
        if clock:  # the player's own clock: when it runs out now
            seat = ext.match.seats.filter(user=user).values_list("number", flat=True).first()
            deadline = (seat_due(ext.match, seat) if seat is not None else None) or deadline
        moved.append({"match": ext.match, "url": match_url(ext.match), "phase": ext.phase_number,
                      "added": duration_text(ext.added), "clock": clock,
                      "deadline": local_time(deadline, user)})
    context = {
        "user": user, "leave": leave, "bank": bank, "moved": moved,
        "starts": local_time(leave.starts_at, user), "ends": local_time(leave.ends_at, user),
        "profile_url": settings.SITE_URL + reverse("accounts_profile"),
        "language": translation.get_language(),
    }
    text, html = render("leave_taken", context)
    subject = ngettext("Your leave: %(days)s day, until %(end)s",
                       "Your leave: %(days)s days, until %(end)s", leave.days) % {
        "days": leave.days, "end": context["ends"]}
    row = email_queue(kind=OutgoingEmail.Kind.LEAVE, dedupe_key=f"leave:{leave.pk}",
                      to=user.email, subject=subject, body_text=text, body_html=html, user=user)
    return int(row is not None)
