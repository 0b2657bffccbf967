"""The messages of a match as the JSON API answers them (``portal.api.api`` mounts these): the
same reader, selectors and services as the panel."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Match
from games.services.errors import ServiceError
from portal.chat import selectors, services
from portal.chat.access import Reader
from portal.chat.models import Channel, Message

# Messages in one answer at most (page on with ``after``).
API_PAGE = 200


def _channel_out(view: selectors.ChannelView) -> dict[str, Any]:
    return {"channel": view.api, "label": view.label, "unread": view.unread,
            "can_send": view.can_post}


def _message_out(view: selectors.MessageView) -> dict[str, Any]:
    return {"id": view.id, "channel": view.channel.api, "seat": view.seat_number,
            "author": view.author, "text": view.text, "hidden": view.hidden, "at": view.at}


def messages_read(*, match: Match, user: Any, channel: str | None, after: int
                  ) -> dict[str, Any]:
    """The reader's channels and the messages after ``after`` (of one channel, or of all)."""
    reader = Reader(match, user)
    muted = selectors.muted_ids(reader.user_id)
    views = selectors.reader_channels(reader, muted)
    if channel is not None:
        view = selectors.channel_view(reader, views, channel)
        if view is None:
            raise ServiceError("not_found", _("This match has no such channel for you."))
        wanted = [view]
    else:
        wanted = views
    by_row = {view.row.pk: view for view in wanted if view.row is not None}
    rows = (Message.objects.filter(channel_id__in=list(by_row), pk__gt=after)
            .exclude(author_id__in=muted).select_related("author").order_by("pk")[:API_PAGE])
    out = [selectors.message_view(reader, by_row[row.channel_id], row) for row in rows]
    return {"channels": [_channel_out(view) for view in views],
            "messages": [_message_out(view) for view in out]}


def message_send(*, match: Match, user: Any, channel: Any, text: str) -> dict[str, Any]:
    """Send, and answer the message as its author reads it."""
    message = services.message_post(match_id=match.pk, user=user, channel=channel, text=text,
                                    source=Message.Source.API)
    reader = Reader(match, user)
    row: Channel = message.channel
    view = selectors.ChannelView(row.kind, row.key, reader.label(row.kind, row.key, row.seats),
                                 seats=tuple(row.seats), row=row)
    return _message_out(selectors.message_view(reader, view, message))
