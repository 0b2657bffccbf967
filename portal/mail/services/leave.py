"""The mail that confirms a player's leave: the bank, the leave, and each deadline it moved."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from games.models import Leave
from games.services import vacation_bank
from games.services.moderation import duration_text
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import language_of, local_time, match_url, render
from portal.mail.services.outbox import email_queue


def leave_taken_notify(*, leave_id: Any) -> int:
    """Queue the confirmation once (dedupe key per leave). Returns 1 if queued, else 0."""
    leave = Leave.objects.select_related("user").filter(pk=leave_id).first()
    if leave is None or not leave.user.email:
        return 0
    user = leave.user
    bank = vacation_bank(user=user, now=leave.starts_at)
    moved = [{"match": ext.match, "url": match_url(ext.match), "phase": ext.phase_number,
              "added": duration_text(ext.added), "deadline": local_time(ext.match.deadline, user)}
             for ext in leave.extensions.select_related("match").defer("match__state")]
    context = {
        "user": user, "leave": leave, "bank": bank, "moved": moved,
        "starts": local_time(leave.starts_at, user), "ends": local_time(leave.ends_at, user),
        "profile_url": settings.SITE_URL + reverse("accounts_profile"),
        "language": language_of(user),
    }
    text, html = render("leave_taken", context)
    row = email_queue(kind=OutgoingEmail.Kind.LEAVE, dedupe_key=f"leave:{leave.pk}",
                      to=user.email, subject=f"Your leave: {leave.days} day"
                      f"{'s' if leave.days != 1 else ''}, until {context['ends']}",
                      body_text=text, body_html=html, user=user)
    return int(row is not None)
