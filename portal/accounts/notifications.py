"""Who wants what: ``wants(user, event, channel)`` answers for one player, ``seats_wanting``
for the seats of a match at once (one query for the seats and their profiles, one for failing
addresses), and ``mail_set`` is what an unsubscribe link and its undo change. Every mail and
push consumer asks here; the choices themselves are the profile's (``Profile.channels``).

A player who left a match (a seat handed over, removed or left: the seat no longer names them;
a forfeited or conceded seat) hears nothing more of it. A forfeit ends the match as it
happens, so the result still reaches a forfeited seat: it is the news of that forfeit; a seat
that conceded hears the result too."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction

from games.models import Match, Seat
from portal.accounts.models import Channel, Event, Profile

# The mails a daily digest replaces for its readers.
DIGESTED = frozenset({Event.YOUR_MOVE, Event.PHASE_RESOLVED, Event.MATCH_ENDED, Event.REMINDER,
                      Event.GAMEDAY, Event.MESSAGE})
# The channels each event is delivered on today: the profile offers only these.
DELIVERED = {
    Event.YOUR_MOVE: {Channel.MAIL, Channel.PUSH},
    Event.PHASE_RESOLVED: {Channel.MAIL},
    Event.MATCH_ENDED: {Channel.MAIL, Channel.PUSH},
    Event.REMINDER: {Channel.MAIL, Channel.PUSH},
    Event.GAMEDAY: {Channel.MAIL, Channel.PUSH},
    Event.LEAVE: {Channel.MAIL},
    Event.ROUND_STARTED: {Channel.MAIL},
    Event.MESSAGE: {Channel.MAIL, Channel.PUSH},
    Event.VOTE: {Channel.MAIL},
    Event.SEAT: {Channel.MAIL},
}


def profile_of(user: Any) -> Profile:
    """The user's profile, or unsaved defaults for a user without one. Read once per user
    object (the seats' queries join it in: ``select_related("user__profile")``)."""
    try:
        return user.profile
    except Profile.DoesNotExist:
        user.profile = Profile(user=user)  # kept on the user object: not read again
        return user.profile


def _chosen(user: Any, event: str, channel: str) -> bool:
    """The player's own choice: ``event`` on ``channel``, and for a digested mail, not folded
    into the daily digest."""
    profile = profile_of(user)
    if channel not in profile.channels_of(event):
        return False
    return not (channel == Channel.MAIL and event in DIGESTED
                and profile.mail_delivery == Profile.Delivery.DAILY_DIGEST)


# What the channels know of reaching a player, told from their ``AppConfig.ready``: the
# channels sit above the accounts, which never import them. Mail says which addresses are
# failing (its bounces: ``portal.mail.bounces``); push whether a player has a device.
_failing_lookups: list[Callable[[set[str]], Iterable[str]]] = []
_device_checks: dict[str, Callable[[Any], bool]] = {}


def failing_lookup_register(lookup: Callable[[set[str]], Iterable[str]]) -> None:
    """``lookup(addresses)`` answers which of these (lower-case) addresses fail."""
    if lookup not in _failing_lookups:
        _failing_lookups.append(lookup)


def device_check_register(channel: str, check: Callable[[Any], bool]) -> None:
    """``check(user_id)`` answers whether the player has a device ``channel`` reaches."""
    _device_checks[channel] = check


def has_device(user_id: Any, channel: str) -> bool:
    """Whether the player has a device ``channel`` reaches (no channel that says so: no)."""
    check = _device_checks.get(channel)
    return check is not None and check(user_id)


def _failing(users: Iterable[Any]) -> set[str]:
    addresses = {user.email.strip().lower() for user in users if user.email}
    return {address for lookup in _failing_lookups for address in lookup(addresses)} \
        if addresses else set()


def users_wanting(users: Iterable[Any], event: str, channel: str) -> list[Any]:
    """The users among ``users`` who want ``event`` on ``channel`` now (mail: with an address
    that is not failing). Profiles are read from the user objects (join them in)."""
    if event not in Event.values or channel not in Channel.values:
        raise ValueError(f"unknown event or channel: {event!r}, {channel!r}")
    chosen = [user for user in users if _chosen(user, event, channel)]
    if channel != Channel.MAIL:
        return chosen
    failing = _failing(chosen)
    return [user for user in chosen
            if user.email and user.email.strip().lower() not in failing]


def wants(user: Any, event: str, channel: str) -> bool:
    """Whether ``user`` wants ``event`` on ``channel`` now."""
    return bool(users_wanting([user], event, channel))


def seated(match: Match | int, numbers: Iterable[int] | None = None,
           forfeited: bool = False) -> list[Seat]:
    """The match's seats held by a player (and not forfeited or conceded, unless
    ``forfeited``), with users and profiles, in one query; only seats ``numbers`` when
    given."""
    match_id = match.pk if isinstance(match, Match) else match
    return seated_many([match_id], None if numbers is None else {match_id: numbers},
                       forfeited).get(match_id, [])


def seated_many(match_ids: Iterable[Any], numbers: dict[Any, Iterable[int]] | None = None,
                forfeited: bool = False) -> dict[Any, list[Seat]]:
    """``seated`` for many matches in one query: match id -> its seats (only those of
    ``numbers[match id]`` when given; a match without an entry there has none)."""
    seats = (Seat.objects.filter(match_id__in=list(match_ids), user__isnull=False)
             .select_related("user", "user__profile").order_by("match_id", "number"))
    if not forfeited:
        seats = seats.exclude(status__in=(Seat.Status.FORFEITED, Seat.Status.CONCEDED))
    wanted = None if numbers is None else {m: set(ns) for m, ns in numbers.items()}
    by_match: dict[Any, list[Seat]] = {}
    for seat in seats:
        if wanted is None or seat.number in wanted.get(seat.match_id, ()):
            by_match.setdefault(seat.match_id, []).append(seat)
    return by_match


def seats_wanting(match: Match | int, event: str, channel: str,
                  numbers: Iterable[int] | None = None) -> list[Seat]:
    """The match's seats (of ``numbers``) whose player wants ``event`` on ``channel``: the
    seats that left hear nothing; a forfeited seat hears the result only."""
    match_id = match.pk if isinstance(match, Match) else match
    return seats_wanting_many([match_id], event, channel,
                              None if numbers is None else {match_id: numbers}
                              ).get(match_id, [])


def seats_wanting_many(match_ids: Iterable[Any], event: str, channel: str,
                       numbers: dict[Any, Iterable[int]] | None = None
                       ) -> dict[Any, list[Seat]]:
    """``seats_wanting`` for many matches, in two queries however many (the seats, the failing
    addresses): match id -> its wanting seats (matches with none left out)."""
    by_match = seated_many(match_ids, numbers, forfeited=event == Event.MATCH_ENDED)
    users = [seat.user for seats in by_match.values() for seat in seats]
    wanting = {user.pk for user in users_wanting(users, event, channel)}
    chosen = {match_id: [seat for seat in seats if seat.user_id in wanting]
              for match_id, seats in by_match.items()}
    return {match_id: seats for match_id, seats in chosen.items() if seats}


def digest_reader(user: Any) -> bool:
    """Whether ``user`` gets the daily digest: they chose it, for at least one digested
    event's mail, and their address works."""
    profile = profile_of(user)
    if profile.mail_delivery != Profile.Delivery.DAILY_DIGEST or not any(
            Channel.MAIL in profile.channels_of(event) for event in DIGESTED):
        return False
    return bool(user.email) and not _failing([user])


def mail_set(*, user_id: int, events: Iterable[str], on: bool) -> bool:
    """Turn the mail of ``events`` on or off for the user (an unsubscribe link, its undo).
    False if nothing changed."""
    with transaction.atomic():
        profile, _ = Profile.objects.select_for_update().get_or_create(user_id=user_id)
        return _mail_set(profile, events, on)


def _mail_set(profile: Profile, events: Iterable[str], on: bool) -> bool:
    channels = {event: sorted(profile.channels_of(event)) for event in Event.values}
    changed = False
    for event in events:
        now = set(channels[event])
        wanted = now | {Channel.MAIL} if on else now - {Channel.MAIL}
        if wanted != now:
            channels[event], changed = sorted(wanted), True
    if changed:
        profile.channels = channels
        profile.save(update_fields=["channels", "updated_at"])
    return changed
