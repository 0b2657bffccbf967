"""The mail of new messages in a match: one per reader for all the messages of a few minutes
in all their channels (``portal.chat.notify`` gathers them and says who reads what), to the
players who want messages by mail now (not those who chose the daily digest: it counts their
unread messages instead). Its reply address names the channel with the latest message, which
the mail names first and says a reply goes to, so a reply is posted there
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
from portal.chat.notify import reader_notices
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


def message_mail_key(*, match_id: int, user_id: int, up_to_id: int) -> str:
    """One mail per reader and notice (named by the match and the notice's last message)."""
    return f"{OutgoingEmail.Kind.MESSAGE}:m{match_id}:u{user_id}:to{up_to_id}"


def messages_notify(*, match_id: int, spans: list) -> int:
    """Queue the gathered notice of a match's messages (``spans``: each channel's (id,
    after_id, up_to_id)) to each reader who wants it by mail now: one mail for all their
    channels. Returns the mails queued."""
    match, found = reader_notices(spans=[tuple(span) for span in spans])
    if not found:
        return 0
    up_to = max(span[2] for span in spans)
    wanting = {user.pk for user in users_wanting([notice.user for notice in found],
                                                 Event.MESSAGE, "mail")}
    emails = []
    for notice in found:
        user = notice.user
        if user.pk not in wanting:
            continue
        language = language_of(user)
        # A reply goes to the channel with the latest message, which the mail names first.
        reply_channel = notice.parts[0].row
        with translation.override(language):
            sections = [{"channel": part.channel.label,
                         "messages": [{"author": m.author, "at": _when(m.at, user),
                                       "text": m.text} for m in part.messages]}
                        for part in notice.parts]
            context = {
                "user": user, "match_title": str(match), "sections": sections,
                "channel": sections[0]["channel"], "others": len(sections) > 1,
                "page_url": match_url(match) + "#messages",
                "profile_url": settings.SITE_URL + reverse("accounts_profile"),
            }
            text, html = with_marker(render_to_string("mail/message.txt", context),
                                     render_to_string("mail/message.html", context),
                                     language, message=True)
            subject = _("New messages: %(match)s") % {"match": match}
        emails.append({
            "kind": OutgoingEmail.Kind.MESSAGE, "user": user, "to": user.email,
            "dedupe_key": message_mail_key(match_id=match.pk, user_id=user.pk,
                                           up_to_id=up_to),
            "match_id": match.pk, "subject": subject, "body_text": text, "body_html": html,
            "reply_to": message_reply_address(match_id=match.pk, seat_number=notice.seat.number,
                                              channel_id=reply_channel.pk, user_id=user.pk)})
    return len(emails_queue(emails))
