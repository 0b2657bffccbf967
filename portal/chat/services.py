"""Writes: send a message, mark a channel read, mute and unmute a player, report a message,
hide one (moderators). Each checks who asks before anything else is read or written; a message
that is refused changes nothing."""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from durable.outbox import outbox_write, task_event
from games.models import Match, Seat
from games.services.errors import ServiceError
from portal.chat.access import ChannelSpec, Reader, channel_spec, reader_for
from portal.chat.models import (
    MESSAGE_MAX_CHARS,
    Channel,
    ChannelRead,
    Message,
    MessageHide,
    Mute,
    NoticeGathering,
)

MAX_REASON = 2000


def clean_text(text: Any) -> str:
    """The message as it is kept: plain text, line ends as "\\n", trimmed; ServiceError
    ("invalid") when it is missing, empty, too long or holds control characters."""
    if not isinstance(text, str):
        raise ServiceError("invalid", _("The message is missing."))
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise ServiceError("invalid", _("The message is empty: write something first."))
    if len(text) > MESSAGE_MAX_CHARS:
        raise ServiceError("invalid", _("A message has at most %(limit)s characters; this one "
                                        "has %(length)s.") % {"limit": MESSAGE_MAX_CHARS,
                                                              "length": len(text)})
    if any(unicodedata.category(char) in ("Cc", "Cs") and char not in "\n\t" for char in text):
        raise ServiceError("invalid", _("The message holds control characters; send plain "
                                        "text."))
    return text


def post_refusal(reader: Reader) -> ServiceError | None:
    """Why this reader may not send any message in the match now (None: they may)."""
    if reader.seat is None:
        return ServiceError("not_your_seat", _("Only the players of this match send messages; "
                                               "spectators read the public ones."))
    if reader.match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
        return ServiceError("not_active", _("The match has ended: it takes no more messages."))
    if reader.match.press == Match.Press.NONE:
        return ServiceError("no_press", _("This match is played without messages (gunboat): "
                                          "nobody can send one."))
    return None


def _check_channel(reader: Reader, spec: ChannelSpec) -> None:
    """The reader's seat may send to ``spec`` under the match's press."""
    match, seat = reader.match, reader.seat
    if spec.kind != Channel.Kind.PUBLIC and match.press != Match.Press.FULL:
        raise ServiceError("no_private_press", _("This match allows public messages only."))
    if spec.kind == Channel.Kind.PRIVATE:
        by_number = {s.number: s for s in reader.seats}
        missing = sorted(n for n in spec.seats if n not in by_number)
        if missing:
            raise ServiceError("invalid", ngettext(
                "This match has no seat %(seats)s.", "This match has no seats %(seats)s.",
                len(missing)) % {"seats": ", ".join(str(n) for n in missing)})
        bots = sorted(n for n in spec.seats if by_number[n].is_bot)
        if bots:
            raise ServiceError("invalid", _("%(seats)s played by a bot, which reads no "
                                            "messages.") % {
                "seats": ", ".join(reader.seat_name(n) for n in bots)})
        if seat.number not in spec.seats:
            raise ServiceError("not_allowed", _("You are not in that private conversation."))
        if len(spec.seats) < 2:
            raise ServiceError("invalid", _("Name at least one other seat for a private "
                                            "message."))
    elif spec.kind == Channel.Kind.GAME:
        declared = reader.declared.get(spec.key)
        if declared is None:
            raise ServiceError("invalid", _("This game has no channel “%(channel)s”.") % {
                "channel": spec.key})
        if seat.number not in declared.seats:
            raise ServiceError("not_allowed", _("Only the members of the %(channel)s send "
                                                "messages there.") % {
                "channel": declared.label})


def _check_rate(match: Match, seat_number: int, now: Any) -> None:
    """At most CHAT_MESSAGES_PER_MINUTE messages a minute from one seat (the caller holds the
    seat's row lock, so two messages sent at once are counted one after the other)."""
    limit = settings.CHAT_MESSAGES_PER_MINUTE
    recent = Message.objects.filter(match=match, seat_number=seat_number,
                                    created_at__gt=now - timedelta(minutes=1)).count()
    if recent >= limit:
        raise ServiceError("rate_limited", ngettext(
            "Your seat may send %(limit)s message a minute; wait a little before the next one.",
            "Your seat may send %(limit)s messages a minute; wait a little before the next one.",
            limit) % {"limit": limit})


def _locked_channels():  # noqa: N802 - a queryset, named like one
    """Channel rows locked for a change of their own columns only (FOR NO KEY UPDATE: the
    messages other transactions write that point at the row are not held up)."""
    return Channel.objects.select_for_update(no_key=True, of=("self",))


def _channel_locked(match: Match, spec: ChannelSpec) -> Channel:
    """The channel's row (made if it is the first message), locked until the commit: the
    messages of a channel are written one after another, and a notice flush sees them all."""
    for _attempt in range(2):
        found = _locked_channels().filter(match=match, key=spec.key).first()
        if found is not None:
            return found
        try:
            with transaction.atomic():
                Channel.objects.create(match=match, kind=spec.kind, key=spec.key,
                                       seats=sorted(spec.seats))
        except IntegrityError:  # made by a message sent at the same moment: read it
            continue
    return _locked_channels().get(match=match, key=spec.key)


def message_post(*, match_id: int, user: Any, channel: Any, text: Any, source: str,
                 dedupe_key: str | None = None) -> Message:
    """Send ``text`` from ``user``'s seat to ``channel`` ("public", a list of seat numbers, a
    game channel's key, or "seats-1-3"). Checks, in this order: the match is visible to them,
    they hold a seat, it is in play, its press allows it, the channel, the text, the seat's rate
    limit. Locks the author's seat row and the channel's. A ``dedupe_key`` already used returns
    the message it made (an e-mail reply delivered twice posts once). Locks the match's notice
    row too. The readers are told later, each once for all the messages of a few minutes in
    all their channels (``portal.chat.notify``)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise ServiceError("not_found", _("There is no match %(id)s.") % {"id": match_id})
    reader = reader_for(match, user)
    refused = post_refusal(reader)
    if refused is not None:
        raise refused
    spec = channel_spec(channel, author_seat=reader.seat.number)
    _check_channel(reader, spec)
    text = clean_text(text)
    with transaction.atomic():
        if dedupe_key is not None:
            done = Message.objects.filter(dedupe_key=dedupe_key).first()
            if done is not None:
                return done
        # (Only the seat's row: its default ordering would join the match, and lock it too.)
        list(Seat.objects.select_for_update(no_key=True, of=("self",))
             .filter(pk=reader.seat.pk).order_by().values_list("pk"))
        now = timezone.now()
        _check_rate(match, reader.seat.number, now)
        gathering = _gathering_locked(match)
        row = _channel_locked(match, spec)
        message = Message.objects.create(
            channel=row, match=match, seat_number=reader.seat.number, author=reader.user,
            text=text, source=source, created_at=now, dedupe_key=dedupe_key)
        _notice_due(gathering, now)
        _read_up_to(row, reader.user_id, message.pk)
    return message


def _gathering_locked(match: Match) -> NoticeGathering:
    """The match's notice row (made with its first message), locked until the commit: the
    messages of a match are written one after another, and a notice sees them all. Taken
    before the channel's row, as ``notify.notice_send`` does."""
    for _attempt in range(2):
        found = (NoticeGathering.objects.select_for_update(no_key=True, of=("self",))
                 .filter(match=match).first())
        if found is not None:
            return found
        try:
            with transaction.atomic():
                NoticeGathering.objects.create(match=match)
        except IntegrityError:  # made by a message sent at the same moment: read it
            continue
    return NoticeGathering.objects.select_for_update(no_key=True, of=("self",)).get(match=match)


def _notice_due(gathering: NoticeGathering, now: Any) -> None:
    """The match has news: its notice is due in CHAT_NOTIFY_GATHER_SECONDS (the messages of
    a conversation go out together), and never sooner than CHAT_NOTIFY_INTERVAL_SECONDS after
    the last one, whichever channels the messages are in: each reader gets one notice for
    all their channels. Nothing to do if a notice is due already (it will carry this
    message)."""
    if gathering.due_at is not None:
        return
    due = now + timedelta(seconds=settings.CHAT_NOTIFY_GATHER_SECONDS)
    if gathering.notified_at is not None:
        due = max(due, gathering.notified_at + timedelta(
            seconds=settings.CHAT_NOTIFY_INTERVAL_SECONDS))
    gathering.due_at = due
    gathering.save(update_fields=["due_at"])
    # (an outbox row due then: carried out once, whatever is lost or killed on the way)
    outbox_write([task_event("portal.chat.tasks.messages_notify", gathering.match_id, due=due,
                             match_id=gathering.match_id)])


def _read_up_to(channel: Channel, user_id: int | None, message_id: int) -> None:
    if user_id is None:
        return
    if ChannelRead.objects.filter(channel=channel, user_id=user_id,
                                  last_read_id__lt=message_id).update(last_read_id=message_id):
        return
    ChannelRead.objects.bulk_create([ChannelRead(channel=channel, user_id=user_id,
                                                 last_read_id=message_id)],
                                    ignore_conflicts=True)


def channel_read(*, reader: Reader, channel: Channel, up_to: int) -> None:
    """The reader has seen ``channel`` up to message ``up_to`` (unread counts start after it,
    and no notice will tell them of those messages again)."""
    if reader.user is None or not reader.can_read(channel):
        return
    _read_up_to(channel, reader.user_id, up_to)


def player_mute(*, user: Any, muted_id: int) -> bool:
    """Mute a player for ``user`` (in every match). False if they were muted already."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to mute a player."))
    if muted_id == user.pk:
        raise ServiceError("invalid", _("You cannot mute yourself."))
    if not get_user_model().objects.filter(pk=muted_id).exists():
        raise ServiceError("not_found", _("There is no such player."))
    _mute, made = Mute.objects.get_or_create(user=user, muted_id=muted_id)
    return made


def player_unmute(*, user: Any, muted_id: int) -> bool:
    """Stop muting a player. False if they were not muted."""
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to mute a player."))
    deleted, _rows = Mute.objects.filter(user=user, muted_id=muted_id).delete()
    return bool(deleted)


def reason_checked(reason: Any, missing: str) -> str:
    """The reason given for hiding or reporting a message, stripped; ServiceError("invalid")
    saying ``missing`` when there is none, or when it is too long."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ServiceError("invalid", missing)
    if len(text) > MAX_REASON:
        raise ServiceError("invalid", _("Keep the reason under %(limit)s characters.") % {
            "limit": MAX_REASON})
    return text


def message_readable(*, message_id: Any, user: Any) -> tuple[Message, Reader]:
    """The message ``message_id`` and its match's reader, if ``user`` may read it (not hidden);
    ServiceError("not_found") otherwise, the same whether it exists or not."""
    found = Message.objects.filter(pk=message_id).select_related("channel", "match").first() \
        if isinstance(message_id, int) and 0 < message_id < 2**63 else None
    if found is not None and not found.hidden:
        try:
            reader = reader_for(found.match, user)
        except ServiceError:
            reader = None
        if reader is not None and reader.can_read(found.channel):
            return found, reader
    raise ServiceError("not_found", _("There is no such message."))


def message_hide(*, message_id: Any, by: Any, reason: Any) -> MessageHide:
    """A moderator hides a message, saying why: an audit row; the text is kept for that audit
    and shown to nobody else again. Hiding a hidden message changes nothing (its first audit
    row is returned)."""
    if by is None or not by.is_authenticated or not by.has_perm("chat.hide_message"):
        raise ServiceError("not_allowed", _("Only a moderator may hide a message."))
    text = reason_checked(reason, _("Say why the message is hidden (it is kept for the audit)."))
    with transaction.atomic():
        message = Message.objects.select_for_update(no_key=True, of=("self",)).filter(
            pk=message_id).order_by().first() \
            if isinstance(message_id, int) and 0 < message_id < 2**63 else None
        if message is None:
            raise ServiceError("not_found", _("There is no such message."))
        if message.hidden:
            return MessageHide.objects.get(message=message)
        message.hidden = True
        message.save(update_fields=["hidden"])
        return MessageHide.objects.create(message=message, by=by, at=timezone.now(),
                                          reason=text)
