"""Who reads and who writes which channel of a match: the one place that decides it. Every page,
partial, mail, push and API answer about messages asks a ``Reader``.

- The public channel: everyone who may see the match reads it (spectators and anonymous
  visitors of a public match included).
- A private channel: the players of its seats, whoever holds them now.
- A game's channel (``GamePlugin.message_channels``): the players of the seats the game puts in
  it now (Tank Game's Council: the dead and destroyed tanks).
- Once the match has ended, and only if its ``reveal_private`` option says so, every channel is
  read by everyone who may see the match.
- Moderators read what everyone reads; a private message reaches them only as the evidence of a
  report about it, or in the audit of the messages they hid (the admin).

A seat that forfeited or conceded the match is a spectator's: its player reads the public
channel only, and sends nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import Permission
from django.db.models import Q
from django.utils.translation import gettext as _

import engine
from games import plugins, selectors
from games.models import Match, Seat
from games.prepared import Prepared
from games.services.errors import ServiceError
from portal.chat.models import PUBLIC_KEY, Channel

ENDED = (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.VOIDED)
# A game channel's key: lower-case letters and "_" (a private channel's has digits and "-").
GAME_KEY = re.compile(r"[a-z][a-z_]{0,39}")
PRIVATE_PREFIX = "seats-"
# A seat its player gave up (or lost by forfeit): out of every private and game channel.
OUT_OF_PLAY = (Seat.Status.FORFEITED, Seat.Status.CONCEDED)


def private_key(seats: frozenset[int] | set[int]) -> str:
    """The key of the private channel among ``seats``: "seats-1-3"."""
    return PRIVATE_PREFIX + "-".join(str(n) for n in sorted(seats))


@dataclass(frozen=True)
class ChannelSpec:
    """A channel as a sender names it, before any row exists: ``kind`` and ``key``, and for a
    private channel its seats."""

    kind: str
    key: str
    seats: frozenset[int] = frozenset()

    def as_api(self) -> Any:
        """How the API names it: "public", [seat numbers], or the game's key."""
        return sorted(self.seats) if self.kind == Channel.Kind.PRIVATE else self.key


def channel_spec(value: Any, *, author_seat: int | None = None) -> ChannelSpec:
    """Read the channel a sender named: "public"; a list of seat numbers (a private channel;
    the author's seat is in it whether named or not); "seats-1-3" (a private channel as the
    pages name it: exactly those seats); or a game channel's key. ServiceError("invalid")
    saying what is wrong otherwise."""
    if isinstance(value, str) and value.startswith(PRIVATE_PREFIX):
        parts = value[len(PRIVATE_PREFIX):].split("-")
        if not all(part.isascii() and part.isdigit() and len(part) <= 4 for part in parts):
            raise ServiceError("invalid", _("“%(channel)s” names no channel.") % {
                "channel": value[:40]})
        seats = {int(part) for part in parts}
        return ChannelSpec(Channel.Kind.PRIVATE, private_key(seats), frozenset(seats))
    if isinstance(value, list | tuple):
        if not value or len(value) > 200 or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in value):
            raise ServiceError("invalid", _("A private channel is a list of seat numbers, "
                                            "such as [2, 3]."))
        seats = set(value) | ({author_seat} if author_seat is not None else set())
        return ChannelSpec(Channel.Kind.PRIVATE, private_key(seats), frozenset(seats))
    if value == PUBLIC_KEY:
        return ChannelSpec(Channel.Kind.PUBLIC, PUBLIC_KEY)
    if isinstance(value, str) and GAME_KEY.fullmatch(value):
        return ChannelSpec(Channel.Kind.GAME, value)
    shown = value[:40] if isinstance(value, str) else type(value).__name__
    raise ServiceError("invalid", _("“%(channel)s” names no channel: send “public”, a list of "
                                    "seat numbers, or one of the game's channels.") % {
        "channel": shown})


# Whether a user holds ``chat.hide_message``, directly or through a group: one query compiled
# once per connection (``user.has_perm`` read all of the user's permissions and all of their
# groups', two queries built anew, on every match page a player read).
_HIDE_PERMISSION = Prepared(Permission, lambda user_id: Permission.objects.filter(
    Q(user=user_id) | Q(group__user=user_id), codename="hide_message",
    content_type__app_label="chat").order_by().values_list("id")[:1], server_side=True,
    user_id="int")


def may_hide_messages(user: Any) -> bool:
    """``user.has_perm("chat.hide_message")`` as the site's backends answer it (Django's
    ModelBackend, which allauth's extends): an active superuser, or an active user holding
    the permission or in a group that does."""
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    return bool(_HIDE_PERMISSION(user_id=user.pk))


class Reader:
    """One person (or an anonymous visitor) looking at the messages of one match. Build it with
    ``reader_for``, which checks first that they may see the match at all."""

    def __init__(self, match: Match, user: Any, seats: list[Seat] | None = None,
                 declared: dict[str, plugins.GameChannel] | None = None) -> None:
        """``seats`` (the match's, with their users) and ``declared`` (another reader's) save
        the queries and the game's work when one task reads for many people."""
        self.match = match
        if declared is not None:
            self.__dict__["declared"] = declared
        self.user = user if user is not None and user.is_authenticated else None
        self.seats = seats if seats is not None else selectors.match_seats(match)
        own = next((seat for seat in self.seats if self.user is not None
                    and seat.user_id == self.user.pk), None)
        # A seat that forfeited or conceded reads as a spectator does.
        self.seat = own if own is not None and own.status not in OUT_OF_PLAY else None
        self.ended = match.status in ENDED
        self.revealed = self.ended and match.reveal_private

    @property
    def user_id(self) -> int | None:
        return self.user.pk if self.user is not None else None

    @cached_property
    def game(self) -> engine.Game | None:
        return engine.games().get(self.match.game)

    @cached_property
    def declared(self) -> dict[str, plugins.GameChannel]:
        """The game's channels now, by key (a key that is not a game key is ignored)."""
        if self.game is None:
            return {}
        return {channel.key: channel
                for channel in plugins.plugin_for(self.match.game).message_channels(self.match)
                if GAME_KEY.fullmatch(channel.key) and channel.key != PUBLIC_KEY}

    @cached_property
    def is_moderator(self) -> bool:
        return self.user is not None and may_hide_messages(self.user)

    def moderator_call(self) -> tuple[Prepared, dict[str, Any]] | None:
        """The permission's read, to send with other reads, where ``is_moderator`` needs it
        (an active user, not a superuser, whose answer is not known yet); else None."""
        if (self.user is None or "is_moderator" in self.__dict__ or not self.user.is_active
                or self.user.is_superuser):
            return None
        return _HIDE_PERMISSION, {"user_id": self.user.pk}

    def moderator_found(self, rows: list[tuple]) -> None:
        """``moderator_call``'s answer."""
        self.__dict__["is_moderator"] = bool(rows)

    def members(self, kind: str, key: str, seats: Any = ()) -> frozenset[int] | None:
        """The seats in a channel now; None for the public channel (everyone)."""
        if kind == Channel.Kind.PUBLIC:
            return None
        if kind == Channel.Kind.PRIVATE:
            return frozenset(int(n) for n in seats)
        declared = self.declared.get(key)
        return declared.seats if declared is not None else frozenset()

    def can_read(self, channel: Channel | ChannelSpec) -> bool:
        """Whether this reader may read ``channel`` (of this match)."""
        if isinstance(channel, Channel) and channel.match_id != self.match.pk:
            return False
        if channel.kind == Channel.Kind.PUBLIC or self.revealed:
            return True
        members = self.members(channel.kind, channel.key, channel.seats)
        return self.seat is not None and members is not None and self.seat.number in members

    def seat_name(self, number: int) -> str:
        """Seat ``number``'s name in the reader's language ("Rouge" for Red in French)."""
        return plugins.seat_name(self.match.game, number)

    def seat_player(self, number: int) -> str:
        """"Bravo (bob)": a seat's name and its player's."""
        seat = next((s for s in self.seats if s.number == number), None)
        name = self.seat_name(number)
        if seat is None or seat.user is None:
            return name
        return f"{name} ({seat.user.get_username()})"

    def label(self, kind: str, key: str, seats: Any = ()) -> str:
        """A channel's name for this reader: "Public", the game's name for its channel, or
        the seats of a private channel other than the reader's own."""
        if kind == Channel.Kind.PUBLIC:
            return _("Public")
        if kind == Channel.Kind.GAME:
            declared = self.declared.get(key)
            return (str(declared.label) if declared is not None
                    else key.replace("_", " ").capitalize())
        others = [n for n in sorted(int(n) for n in seats)
                  if self.seat is None or n != self.seat.number]
        return _("Private: %(seats)s") % {"seats": ", ".join(self.seat_player(n)
                                                             for n in others)}


def reader_for(match: Match, user: Any) -> Reader:
    """The reader of ``match``'s messages; ServiceError("not_found") for a match they may not
    see (a private match does not exist for outsiders)."""
    if not selectors.match_visible_to(match, user):
        raise ServiceError("not_found", _("There is no match %(id)s.") % {"id": match.pk})
    return Reader(match, user)
