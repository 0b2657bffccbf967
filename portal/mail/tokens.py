"""The reply-to token: which match, seat and phase an emailed order sheet is for, and which
player it was given to.

``play+<token>@<MAIL_REPLY_DOMAIN>``; the token is ``<match>-<seat>-<phase>-<user>.<time>.<mac>``:
numbers in base 36, and an HMAC-SHA256 (the site's secret key, a salt of its own) of the rest,
cut to 120 bits and written in base 32. Everything is lower case, so a mail server that folds
the case of the local part does not break it, and it stays within the 64 characters an address's
local part may have. It cannot be guessed or altered; it names the player it was mailed to, so it
stops working for a seat that changed hands; it stops working when its phase is resolved (checked
when a reply arrives) and, in any case, after settings.MAIL_TOKEN_MAX_AGE_DAYS.

A message notice's reply address (``message_reply_address``) is the same kind of token for a
channel of messages instead of a phase: ``msg-<match>-<seat>-<channel>-<user>.<time>.<mac>``,
signed with a salt of its own, so neither kind is ever read as the other.
"""

from __future__ import annotations

import base64
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "portal.mail.reply-token.v2"
MESSAGE_SALT = "portal.mail.message-reply-token.v1"
MESSAGE_PREFIX = "msg-"
_VALUE = re.compile(r"([0-9a-z]{1,12})-([0-9a-z]{1,12})-([0-9a-z]{1,12})-([0-9a-z]{1,12})")
_TOKEN = re.compile(r"([0-9a-z-]{7,52})\.([0-9a-z]{1,12})\.([a-z2-7]{24})")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class ReplyTarget:
    match_id: int
    seat_number: int
    phase_number: int
    user_id: int


@dataclass(frozen=True)
class MessageTarget:
    """What a message notice's reply address names: the channel the reply is posted to."""

    match_id: int
    seat_number: int
    channel_id: int
    user_id: int


class BadToken(Exception):
    """The token is missing, altered, forged or too old (the message says which)."""


def _b36(number: int) -> str:
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = _DIGITS[digit] + text
        if not number:
            return text


def _mac(signed: str, key: str, salt: str = SALT) -> str:
    digest = salted_hmac(salt, signed, secret=key, algorithm="sha256").digest()[:15]
    return base64.b32encode(digest).decode().lower()


def token_value(*, match_id: int, seat_number: int, phase_number: int, user_id: int) -> str:
    """The unsigned part of a token."""
    return "-".join(_b36(n) for n in (match_id, seat_number, phase_number, user_id))


def token_make(*, match_id: int, seat_number: int, phase_number: int, user_id: int,
               now: float | None = None) -> str:
    value = token_value(match_id=match_id, seat_number=seat_number, phase_number=phase_number,
                        user_id=user_id)
    signed = f"{value}.{_b36(int(time.time() if now is None else now))}"
    return f"{signed}.{_mac(signed, settings.SECRET_KEY)}"


def _checked(token: str, salt: str) -> str:
    """The signed value of ``token``, if we signed it with ``salt`` and it has not expired."""
    found = _TOKEN.fullmatch(token.strip().lower())
    if found is None:
        raise BadToken("The reply address is not one we gave out.")
    value, stamp, mac = found.groups()
    signed = f"{value}.{stamp}"
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    if not any(constant_time_compare(mac, _mac(signed, key, salt)) for key in keys):
        raise BadToken("The reply address is not one we gave out (its signature is wrong).")
    if time.time() - int(stamp, 36) > settings.MAIL_TOKEN_MAX_AGE_DAYS * 86400:
        raise BadToken("The reply address has expired.")
    return value


def token_read(token: str) -> ReplyTarget:
    """The target a token names; BadToken if it is not one we made or it has expired."""
    value = _checked(token, SALT)
    numbers = _VALUE.fullmatch(value)
    if numbers is None:
        raise BadToken("The reply address does not name a match.")
    match_id, seat, phase, user_id = (int(g, 36) for g in numbers.groups())
    return ReplyTarget(match_id=match_id, seat_number=seat, phase_number=phase, user_id=user_id)


def reply_address(*, match_id: int, seat_number: int, phase_number: int, user_id: int) -> str:
    token = token_make(match_id=match_id, seat_number=seat_number, phase_number=phase_number,
                       user_id=user_id)
    return f"{settings.MAIL_REPLY_LOCALPART}+{token}@{settings.MAIL_REPLY_DOMAIN}"


def message_token_make(*, match_id: int, seat_number: int, channel_id: int, user_id: int,
                       now: float | None = None) -> str:
    value = MESSAGE_PREFIX + token_value(match_id=match_id, seat_number=seat_number,
                                         phase_number=channel_id, user_id=user_id)
    signed = f"{value}.{_b36(int(time.time() if now is None else now))}"
    return f"{signed}.{_mac(signed, settings.SECRET_KEY, MESSAGE_SALT)}"


def is_message_token(token: str) -> bool:
    """Whether ``token`` is a message notice's (to be read with ``message_token_read``)."""
    return token.strip().lower().startswith(MESSAGE_PREFIX)


def message_token_read(token: str) -> MessageTarget:
    """The channel a message notice's token names; BadToken if we did not make it or it has
    expired."""
    value = _checked(token, MESSAGE_SALT)
    numbers = _VALUE.fullmatch(value[len(MESSAGE_PREFIX):]) \
        if value.startswith(MESSAGE_PREFIX) else None
    if numbers is None:
        raise BadToken("The reply address does not name a channel of messages.")
    match_id, seat, channel_id, user_id = (int(g, 36) for g in numbers.groups())
    return MessageTarget(match_id=match_id, seat_number=seat, channel_id=channel_id,
                         user_id=user_id)


def message_reply_address(*, match_id: int, seat_number: int, channel_id: int,
                          user_id: int) -> str:
    token = message_token_make(match_id=match_id, seat_number=seat_number,
                               channel_id=channel_id, user_id=user_id)
    return f"{settings.MAIL_REPLY_LOCALPART}+{token}@{settings.MAIL_REPLY_DOMAIN}"


def token_in_address(address: str) -> str | None:
    """The token of a ``play+TOKEN@domain`` address, or None if it is not one of ours."""
    local, _, domain = address.strip().rpartition("@")
    prefix = f"{settings.MAIL_REPLY_LOCALPART}+"
    if domain.lower() != settings.MAIL_REPLY_DOMAIN.lower():
        return None
    if not local.lower().startswith(prefix.lower()):
        return None
    return local[len(prefix):] or None
