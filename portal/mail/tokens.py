"""The reply-to token: which match, seat and phase an emailed order sheet is for.

``play+<token>@<MAIL_REPLY_DOMAIN>``; the token is ``<match>-<seat>-<phase>`` (base 36, to
keep the address's local part within 64 characters) signed with Django's TimestampSigner
(HMAC-SHA256 of the site's secret key, a salt of its own): it cannot be guessed or altered.
It stops working when its phase is resolved (checked when a reply arrives) and, in any case,
after settings.MAIL_TOKEN_MAX_AGE_DAYS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing

SALT = "portal.mail.reply-token"
_VALUE = re.compile(r"([0-9a-z]{1,12})-([0-9a-z]{1,12})-([0-9a-z]{1,12})")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class ReplyTarget:
    match_id: int
    seat_number: int
    phase_number: int


class BadToken(Exception):
    """The token is missing, altered, forged or too old (the message says which)."""


def _signer() -> signing.TimestampSigner:
    # "." is not in the URL-safe base64 alphabet and is fine in an email local part.
    return signing.TimestampSigner(salt=SALT, sep=".")


def _b36(number: int) -> str:
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = _DIGITS[digit] + text
        if not number:
            return text


def token_value(*, match_id: int, seat_number: int, phase_number: int) -> str:
    """The unsigned part of a token."""
    return f"{_b36(match_id)}-{_b36(seat_number)}-{_b36(phase_number)}"


def token_make(*, match_id: int, seat_number: int, phase_number: int) -> str:
    return _signer().sign(token_value(match_id=match_id, seat_number=seat_number,
                                      phase_number=phase_number))


def token_read(token: str) -> ReplyTarget:
    try:
        value = _signer().unsign(
            token, max_age=timedelta(days=settings.MAIL_TOKEN_MAX_AGE_DAYS)
        )
    except signing.SignatureExpired:
        raise BadToken("The reply address has expired.") from None
    except signing.BadSignature:
        raise BadToken("The reply address is not one we gave out (its signature is wrong).") \
            from None
    found = _VALUE.fullmatch(value)
    if found is None:
        raise BadToken("The reply address does not name a match.")
    match_id, seat, phase = (int(g, 36) for g in found.groups())
    return ReplyTarget(match_id=match_id, seat_number=seat, phase_number=phase)


def reply_address(*, match_id: int, seat_number: int, phase_number: int) -> str:
    token = token_make(match_id=match_id, seat_number=seat_number, phase_number=phase_number)
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
