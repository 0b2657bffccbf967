"""The mail of new messages in a match: one per channel and reader for all the messages of a
few minutes (``portal.chat.notify`` gathers them and says who reads what), to the players who
want messages by mail now (not those who chose the daily digest: it counts their unread
messages instead). Its reply address names the channel, so a reply is posted there
(``portal.mail.services.inbound``).

A notice mail carries the messages' text: only ever to a reader of the channel. The admin's
list of outgoing e-mails never shows its body."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _

from portal.accounts.models import Event
from portal.accounts.notifications import profile_of, users_wanting
from portal.chat.notify import notices
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import language_of, match_url, with_marker
from portal.mail.services.outbox import emails_queue
from portal.mail.tokens import message_reply_address


def _when(moment: Any, user: Any) -> str:
    try:
        zone = zoneinfo.ZoneInfo(profile_of(user).time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return formats.date_format(moment.astimezone(zone), "j F, H:i")


def message_mail_key(*, channel_id: int, user_id: int, up_to_id: int) -> str:
    """One mail per channel, reader and notice (named by its last message)."""
    return f"{OutgoingEmail.Kind.MESSAGE}:c{channel_id}:u{user_id}:to{up_to_id}"


def messages_notify(*, channel_id: int, after_id: int, up_to_id: int) -> int:
    """Queue the gathered notice of channel ``channel_id``'s messages in (after_id, up_to_id]
    to each reader who wants it by mail now. Returns the mails queued."""
    match, found = notices(channel_id=channel_id, after_id=after_id, up_to_id=up_to_id)
    if not found:
        return 0
    wanting = {user.pk for user in users_wanting([notice.user for notice in found],
                                                 Event.MESSAGE, "mail")}
    emails = []
    for notice in found:
        user = notice.user
        if user.pk not in wanting:
            continue
        language = language_of(user)
        with translation.override(language):
            context = {
                "user": user, "match_title": str(match), "channel": notice.channel.label,
                "messages": [{"author": m.author, "at": _when(m.at, user), "text": m.text}
                             for m in notice.messages],
                "page_url": match_url(match) + "#messages",
                "profile_url": settings.SITE_URL + reverse("accounts_profile"),
            }
            text, html = with_marker(render_to_string("mail/message.txt", context),
                                     render_to_string("mail/message.html", context),
                                     language, message=True)
            subject = _("New messages: %(match)s") % {"match": match}
        emails.append({
            "kind": OutgoingEmail.Kind.MESSAGE, "user": user, "to": user.email,
            "dedupe_key": message_mail_key(channel_id=channel_id, user_id=user.pk,
                                           up_to_id=up_to_id),
            "match_id": match.pk, "subject": subject, "body_text": text, "body_html": html,
            "reply_to": message_reply_address(match_id=match.pk, seat_number=notice.seat.number,
                                              channel_id=channel_id, user_id=user.pk)})
    return len(emails_queue(emails))
