"""Telling players of new messages, gathered per reader: at most one notice to each reader of
a match every few minutes, covering every channel they read, however many messages and
channels (writing each message to a new private channel makes no more notices).

The first message nobody was told of makes the match's notice due
(``services._notice_due``: CHAT_NOTIFY_GATHER_SECONDS later, and never sooner than
CHAT_NOTIFY_INTERVAL_SECONDS after the last notice); an outbox row due then, written with the
message (``durable.outbox``: carried out once, whatever is lost on the way), sends it
(``notice_send``): in one transaction it locks the
match's ``NoticeGathering`` row, takes each channel's messages since its last notice, moves
the channels' marks past them and sends the ``messages_due`` signal with those spans, whose
consumers (mail, push: the table in ``portal.delivery.events``) write their rows in that same
transaction, one per reader. A notice sent twice finds nothing due the second time; the rows'
dedupe keys name the match, the reader and the notice's last message, so even a repeated
signal writes each row once.

``notices`` says who is told what: each player of a seat in the channel now (as the channel's
``Reader`` decides: the one place), of the messages of others that they have not read on the
page, from players they have not muted, and not hidden. Nobody outside a channel is ever told
of its messages; ``reader_notices`` gathers one reader's channels into one notice."""

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
from portal.chat.models import Channel, ChannelRead, Message, Mute, NoticeGathering
from portal.chat.selectors import ChannelView, MessageView, message_view
from portal.chat.signals import messages_due

# (channel id, after message id, up to message id): one channel's messages in a notice.
Span = tuple[int, int, int]


def notice_send(*, match_id: int, now: datetime | None = None) -> bool:
    """Send the match's notice if it is due: True if one was sent. Locks the match's
    gathering row (every message of the match is written under it, so those sent before are
    all committed)."""
    now = now or timezone.now()
    with transaction.atomic():
        gathering = (NoticeGathering.objects.select_for_update(no_key=True, of=("self",))
                     .filter(match_id=match_id, due_at__lte=now).first())
        if gathering is None:
            return False
        channels = (Channel.objects.filter(match_id=match_id)
                    .annotate(last=Max("messages__id")).order_by("pk")
                    .values_list("pk", "notified_up_to", "last"))
        spans: list[Span] = [(pk, after, last) for pk, after, last in channels
                             if last is not None and last > after]
        gathering.due_at = None
        fields = ["due_at"]
        if spans:
            gathering.notified_at = now
            fields.append("notified_at")
        gathering.save(update_fields=fields)
        for pk, _after, last in spans:
            Channel.objects.filter(pk=pk).update(notified_up_to=last, notified_at=now)
        if not spans:
            return False
        messages_due.send(sender=Channel, match_id=match_id, spans=spans)
    return True


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


@dataclass
class ReaderNotice:
    """What one player is told in one notice: each channel of theirs with news (a
    ``Notice``), the channel with the latest message first."""

    seat: Any
    parts: list[Notice]

    @property
    def user(self) -> Any:
        return self.seat.user

    @property
    def count(self) -> int:
        return sum(len(part.rows) for part in self.parts)


def reader_notices(*, spans: list[Span]) -> tuple[Any, list[ReaderNotice]]:
    """The match and, for each player told of anything in ``spans`` (one match's channels),
    one notice covering all their channels."""
    match, by_user = None, {}
    for channel_id, after_id, up_to_id in spans:
        found_match, found = notices(channel_id=channel_id, after_id=after_id,
                                     up_to_id=up_to_id)
        match = match or found_match
        for notice in found:
            by_user.setdefault(notice.seat.user_id, []).append(notice)
    told = []
    for parts in by_user.values():
        parts.sort(key=lambda part: part.rows[-1].pk, reverse=True)
        told.append(ReaderNotice(parts[0].seat, parts))
    return match, told
