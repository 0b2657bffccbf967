"""Telling players of new messages, gathered: at most one notice per channel every few minutes
however many messages arrive.

The first message nobody was told of makes its channel's notice due
(``services._notice_due``: CHAT_NOTIFY_GATHER_SECONDS later, and never sooner than
CHAT_NOTIFY_INTERVAL_SECONDS after the last notice); a task queued for that time, or beat's
sweeper if the task was lost, sends it (``notice_send``): in one transaction it locks the
channel row, takes every message since the last notice, moves the channel's mark past them and
sends the ``messages_due`` signal, whose consumers (mail, push: the table in
``portal.delivery.events``) write their rows in that same transaction. A notice sent twice finds
nothing due the second time; the rows' dedupe keys name the channel and its last message, so
even a repeated signal writes each row once.

``notices`` says who is told what: each player of a seat in the channel now (as the channel's
``Reader`` decides: the one place), of the messages of others that they have not read on the
page, from players they have not muted, and not hidden. Nobody outside a channel is ever told
of its messages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games import selectors as game_selectors
from portal.accounts.notifications import seated
from portal.chat.access import Reader
from portal.chat.models import Channel, ChannelRead, Message, Mute
from portal.chat.selectors import ChannelView, MessageView, message_view
from portal.chat.signals import messages_due


def notice_send(*, channel_id: int, now: datetime | None = None) -> bool:
    """Send the channel's notice if it is due: True if one was sent. Locks the channel row
    (the messages of the channel are all committed before it: each was written under the same
    lock)."""
    now = now or timezone.now()
    with transaction.atomic():
        channel = (Channel.objects.select_for_update(no_key=True, of=("self",))
                   .filter(pk=channel_id, notify_due_at__lte=now).first())
        if channel is None:
            return False
        after = channel.notified_up_to
        up_to = Message.objects.filter(channel=channel, pk__gt=after).aggregate(
            last=Max("pk"))["last"]
        channel.notify_due_at = None
        fields = ["notify_due_at"]
        if up_to is not None:
            channel.notified_up_to, channel.notified_at = up_to, now
            fields += ["notified_up_to", "notified_at"]
        channel.save(update_fields=fields)
        if up_to is None:
            return False
        messages_due.send(sender=Channel, channel_id=channel.pk, after_id=after, up_to_id=up_to)
    return True


def notices_due(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """The channels whose notice is due (the sweeper's query)."""
    now = now or timezone.now()
    return list(Channel.objects.filter(notify_due_at__lte=now).order_by("notify_due_at")
                .values_list("pk", flat=True)[:limit])


@dataclass
class Notice:
    """What one player is told of one channel: its name as they read it and the messages.
    Both are worded when asked, in the active language: the caller's mail or push sets the
    reader's."""

    seat: Any  # the reader's seat, with its user and profile
    reader: Reader
    row: Channel
    rows: list[Message]

    @property
    def user(self) -> Any:
        return self.seat.user

    @property
    def channel(self) -> ChannelView:
        row = self.row
        return ChannelView(row.kind, row.key, self.reader.label(row.kind, row.key, row.seats),
                           seats=tuple(row.seats), row=row)

    @property
    def messages(self) -> list[MessageView]:
        view = self.channel
        return [message_view(self.reader, view, message) for message in self.rows]


def notices(*, channel_id: int, after_id: int, up_to_id: int) -> tuple[Any, list[Notice]]:
    """The match and, for each player who reads the channel now, the messages in
    (after_id, up_to_id] they have not read, not their own, not from a player they muted, not
    hidden. A handful of queries whatever the number of readers."""
    channel = Channel.objects.filter(pk=channel_id).select_related("match").first()
    if channel is None:
        return None, []
    match = channel.match
    rows = list(Message.objects.filter(channel=channel, pk__gt=after_id, pk__lte=up_to_id,
                                       hidden=False).select_related("author").order_by("pk"))
    if not rows:
        return match, []
    held = seated(match)  # the seats a player holds (not forfeited), with users and profiles
    all_seats = game_selectors.match_seats(match)
    first = Reader(match, None, seats=all_seats)
    declared = first.declared if channel.kind == Channel.Kind.GAME else {}
    readers = []
    for seat in held:
        reader = Reader(match, seat.user, seats=all_seats, declared=declared)
        if reader.seat is not None and reader.can_read(channel):
            readers.append((seat, reader))
    if not readers:
        return match, []
    user_ids = [seat.user_id for seat, _reader in readers]
    reads = dict(ChannelRead.objects.filter(channel=channel, user_id__in=user_ids)
                 .values_list("user_id", "last_read_id"))
    authors = {row.author_id for row in rows if row.author_id is not None}
    muted = set(Mute.objects.filter(user_id__in=user_ids, muted_id__in=authors)
                .values_list("user_id", "muted_id"))
    found = []
    for seat, reader in readers:
        mine = [row for row in rows if row.author_id != seat.user_id
                and (seat.user_id, row.author_id) not in muted
                and row.pk > reads.get(seat.user_id, 0)]
        if mine:
            found.append(Notice(seat, reader, channel, mine))
    return match, found
