"""Reads: the channels a reader sees with their unread counts, and a channel's messages as
that reader may read them (a hidden message's text never leaves here; a muted player's
messages are left out for whoever muted them)."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from games.models import Match
from games.prepared import Prepared, run_together
from games.services.errors import ServiceError
from portal.chat.access import ChannelSpec, Reader, channel_spec
from portal.chat.models import PUBLIC_KEY, Channel, ChannelRead, Message, Mute

# The messages a channel shows at once (older ones a link away).
PAGE = 100


@dataclass
class ChannelView:
    """A channel as one reader sees it (a row may not exist yet: nobody wrote there)."""

    kind: str
    key: str
    label: str
    seats: tuple[int, ...] = ()
    row: Channel | None = None
    unread: int = 0
    can_post: bool = False

    @property
    def api(self) -> Any:
        """How the API names it: "public", [seat numbers], or the game's key."""
        return list(self.seats) if self.kind == Channel.Kind.PRIVATE else self.key


@dataclass
class MessageView:
    """One message as a reader sees it: ``text`` is None for a hidden message."""

    id: int
    channel: ChannelView
    seat_number: int
    author: str
    author_id: int | None
    text: str | None
    at: datetime
    mine: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def hidden(self) -> bool:
        return self.text is None


def muted_ids(user_id: int | None) -> set[int]:
    """The players ``user_id`` muted."""
    if user_id is None:
        return set()
    return {row[0] for row in _MUTED(user_id=user_id)}


# The page's reads of the panel, each compiled once per connection (Django built and compiled
# them on every page view: about as much CPU as the rest of the panel).
_MUTED = Prepared(Mute, lambda user_id: Mute.objects.filter(user_id=user_id)
                  .values_list("muted_id"), server_side=True, user_id="int")


@functools.lru_cache(maxsize=4)
def _latest_messages(limit: int) -> Prepared:
    """A channel's latest ``limit`` messages but those of the ``muted`` players, newest
    first, with their authors."""
    return Prepared(Message, lambda channel_id, muted: Message.objects.filter(
        channel_id=channel_id).exclude(author_id__any_of=muted).select_related("author")
        .order_by("-pk")[:limit], server_side=True, channel_id="int", muted="ints")


# The match's channel rows, oldest first: which of them the reader may read is decided by
# ``Reader.can_read`` (a match has a handful; the others are dropped before anything is made
# of them).
_CHANNELS = Prepared(Channel, lambda match_id: Channel.objects.filter(match_id=match_id)
                     .order_by("pk"), server_side=True, match_id="int")

# Unread messages per channel: others', not hidden, not muted, after the reader's last read
# one (0 where they never read the channel).
_UNREAD = Prepared(Message, lambda channel_ids, user_id, muted: Message.objects.filter(
    channel_id__any_of=channel_ids, hidden=False).exclude(author_id=user_id)
    .exclude(author_id__any_of=muted)
    .filter(pk__gt=Coalesce(Subquery(ChannelRead.objects.filter(
        user_id=user_id, channel_id=OuterRef("channel_id")).values("last_read_id")[:1]),
        Value(0)))
    .values("channel_id").annotate(n=Count("id")).values_list("channel_id", "n"),
    server_side=True, channel_ids="ints", user_id="int", muted="ints")


def _readable(reader: Reader, rows: list[Channel]) -> list[Channel]:
    return [row for row in rows if reader.can_read(row)]


def _rows_for(reader: Reader) -> list[Channel]:
    """The channel rows of the match the reader may read, read in one query."""
    return _readable(reader, _CHANNELS(match_id=reader.match.pk))


def _muted_and_rows(reader: Reader) -> tuple[set[int], list[Channel]]:
    """The players the reader muted and the channel rows they may read, in one round trip."""
    if reader.user_id is None:
        return set(), _rows_for(reader)
    muted, rows = run_together((_MUTED, {"user_id": reader.user_id}),
                               (_CHANNELS, {"match_id": reader.match.pk}))
    return {row[0] for row in muted}, _readable(reader, rows)


def _unread_call(reader: Reader, views: list[ChannelView], muted: set[int]
                 ) -> tuple[Prepared, dict[str, Any]] | None:
    ids = [view.row.pk for view in views if view.row is not None]
    if reader.user is None or not ids:
        return None
    return _UNREAD, {"channel_ids": ids, "user_id": reader.user_id, "muted": sorted(muted)}


def _set_unread(views: list[ChannelView], counted: list[tuple[int, int]]) -> None:
    counts = dict(counted)
    for view in views:
        view.unread = counts.get(view.row.pk, 0) if view.row is not None else 0


def unread_counts(reader: Reader, rows: list[Channel], muted: set[int]) -> dict[int, int]:
    """Channel id → messages the reader has not read (others', not hidden, not muted)."""
    if reader.user is None or not rows:
        return {}
    return dict(_UNREAD(channel_ids=[row.pk for row in rows], user_id=reader.user_id,
                        muted=sorted(muted)))


def _channel_views(reader: Reader, rows: list[Channel]) -> list[ChannelView]:
    """The channels the reader sees (from the rows they may read), unread counts not set."""
    from portal.chat.services import post_refusal

    by_key = {row.key: row for row in rows}
    may_post = post_refusal(reader) is None
    full = reader.match.press == Match.Press.FULL
    views = [ChannelView(Channel.Kind.PUBLIC, PUBLIC_KEY, reader.label(Channel.Kind.PUBLIC,
                                                                       PUBLIC_KEY),
                         row=by_key.get(PUBLIC_KEY), can_post=may_post)]
    declared = reader.declared
    for key, channel in declared.items():
        member = reader.seat is not None and reader.seat.number in channel.seats
        # (Under public press a game's channel is shown only if it holds messages already.)
        if (member and (full or key in by_key)) or (reader.revealed and key in by_key):
            views.append(ChannelView(Channel.Kind.GAME, key, channel.label, row=by_key.get(key),
                                     can_post=may_post and full and member))
    for row in rows:
        if row.kind == Channel.Kind.GAME and row.key not in declared:
            views.append(ChannelView(row.kind, row.key, reader.label(row.kind, row.key),
                                     row=row))
        elif row.kind == Channel.Kind.PRIVATE:
            views.append(ChannelView(row.kind, row.key, reader.label(row.kind, row.key,
                                                                     row.seats),
                                     seats=tuple(row.seats), row=row,
                                     can_post=may_post and full))
    return views


def reader_channels(reader: Reader, muted: set[int] | None = None) -> list[ChannelView]:
    """The channels the reader sees, public first, then the game's, then the private ones,
    each with its unread count and whether the reader may send to it now."""
    muted = muted_ids(reader.user_id) if muted is None else muted
    views = _channel_views(reader, _rows_for(reader))
    call = _unread_call(reader, views, muted)
    _set_unread(views, run_together(call)[0] if call is not None else [])
    return views


def panel_reads(reader: Reader, key: Any = None, *, before: int | None = None
                ) -> tuple[set[int], list[ChannelView], ChannelView | None, list[MessageView]]:
    """What the messages panel shows the reader, in two round trips: the players they muted
    and the channels they may read; then the unread counts and the shown channel's latest
    messages. Returns (muted, channels, the channel named ``key`` or None, its messages)."""
    muted, rows = _muted_and_rows(reader)
    views = _channel_views(reader, rows)
    current = channel_view(reader, views, key)
    calls = []
    count = _unread_call(reader, views, muted)
    if count is not None:
        calls.append(count)
    latest = (before is None and current is not None and current.row is not None
              and reader.can_read(current.row))
    if latest:
        calls.append((_latest_messages(PAGE), {"channel_id": current.row.pk,
                                               "muted": sorted(muted)}))
        # (whether the reader may hide the messages shown: asked by their rows)
        moderator = reader.moderator_call()
        if moderator is not None:
            calls.insert(0, moderator)
    found = run_together(*calls) if calls else []
    if latest and moderator is not None:
        reader.moderator_found(found.pop(0))
    _set_unread(views, found[0] if count is not None else [])
    if current is None:
        return muted, views, None, []
    if latest:
        messages = found[-1]
        messages.reverse()
        shown = [message_view(reader, current, message) for message in messages]
    else:
        shown = channel_messages(reader, current, muted, before=before)
    return muted, views, current, shown


def channel_view(reader: Reader, views: list[ChannelView], key: Any) -> ChannelView | None:
    """The reader's channel named ``key`` (as the pages or the API name it), or None."""
    if key in (None, ""):
        return views[0]
    try:
        spec: ChannelSpec = channel_spec(key, author_seat=reader.seat.number
                                         if reader.seat is not None else None)
    except ServiceError:  # not a channel's name at all
        return None
    return next((view for view in views if view.key == spec.key), None)


def channel_messages(reader: Reader, view: ChannelView, muted: set[int], *,
                     before: int | None = None, after: int | None = None,
                     limit: int = PAGE) -> list[MessageView]:
    """The channel's messages the reader may read, oldest first: the latest ``limit`` (before
    message ``before``, after message ``after`` when given). Muted players' messages are left
    out; a hidden message keeps its place without its text."""
    if view.row is None or not reader.can_read(view.row):
        return []
    if before is None and after is None:  # (the panel as a page shows it)
        found = _latest_messages(limit)(channel_id=view.row.pk, muted=sorted(muted))
        found.reverse()
        return [message_view(reader, view, message) for message in found]
    rows = (Message.objects.filter(channel=view.row).exclude(author_id__in=muted)
            .select_related("author").order_by("-pk"))
    if before is not None:
        rows = rows.filter(pk__lt=before)
    if after is not None:
        rows = rows.filter(pk__gt=after)
    found = list(rows[:limit])
    found.reverse()
    return [message_view(reader, view, message) for message in found]


def message_view(reader: Reader, view: ChannelView, message: Message) -> MessageView:
    seat = reader.seat_name(message.seat_number)
    author = (f"{seat} ({message.author.get_username()})" if message.author is not None
              else seat)
    return MessageView(
        id=message.pk, channel=view, seat_number=message.seat_number, author=author,
        author_id=message.author_id, text=None if message.hidden else message.text,
        at=message.created_at,
        mine=reader.user is not None and message.author_id == reader.user_id)


def panel_state(views: list[ChannelView], current: ChannelView | None,
                shown: list[MessageView], muted: set[int], extra: str = "") -> str:
    """A short fingerprint of what the panel shows: the same while nothing changed (the
    panel's poll then answers "no change")."""
    parts = [extra, current.key if current else "", ",".join(sorted(str(m) for m in muted))]
    parts += [f"{v.key}:{v.unread}:{v.can_post}" for v in views]
    parts += [f"{m.id}:{int(m.hidden)}" for m in shown]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def unread_summary(match: Match, user: Any) -> list[tuple[str, int]]:
    """(channel name, unread count) of each channel of ``match`` where ``user`` has unread
    messages (the daily digest's lines)."""
    reader = Reader(match, user)
    return [(view.label, view.unread) for view in reader_channels(reader) if view.unread]
