"""Whole numbers and ids from request input (query strings, paths, form fields, JSON values).

One parser for the whole site, because Python's own readings are too lenient or too fragile
for input from strangers: ``str.isdigit()`` is true for "²" (which ``int()`` refuses),
``int()`` reads "١٢", " 12 " and "1_2" as numbers, refuses more than 4,300 digits, and turns
1.9 into 1. Here a number is ASCII digits (a sign only where negatives are allowed), or a
JSON integer, within bounds the caller states; anything else is an ``InvalidNumber`` saying
what was wrong. It is a ``BadRequest``, so a view that does not catch it answers 400 with that
sentence instead of failing.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import BadRequest
from django.utils.translation import gettext as _

# The largest id a BigAutoField holds (PostgreSQL bigint): nothing above it can name a row.
MAX_ID = 2**63 - 1

_DIGITS = re.compile(r"-?[0-9]{1,19}")


class InvalidNumber(BadRequest, ValueError):
    """A value that is not a whole number in the range asked for; ``field`` names it."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message

    def __str__(self) -> str:
        return self.message


def _shown(value: Any) -> str:
    """The refused value as a reader can see it: printable, and short."""
    text = value if isinstance(value, str) else repr(value)
    text = "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in text)
    return text if len(text) <= 24 else text[:20] + "…"


def parse_int(value: Any, *, min: int, max: int, field: str) -> int:  # noqa: A002
    """``value`` (text of ASCII digits, or an int) as an int from ``min`` to ``max``."""
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and _DIGITS.fullmatch(value) and (min < 0 or value[0] != "-"):
        number = int(value)
    else:
        raise InvalidNumber(
            _("%(field)s must be a whole number from %(min)s to %(max)s, not “%(value)s”.")
            % {"field": field, "min": min, "max": max, "value": _shown(value)}, field=field)
    if not min <= number <= max:
        raise InvalidNumber(
            _("%(field)s must be from %(min)s to %(max)s, not %(value)s.")
            % {"field": field, "min": min, "max": max, "value": number}, field=field)
    return number


def parse_id(value: Any, *, field: str) -> int:
    """A row's id (1 and up) from request input."""
    return parse_int(value, min=1, max=MAX_ID, field=field)


def id_or_none(value: Any) -> int | None:
    """A row's id, or None for anything that cannot be one (a lookup that finds nothing)."""
    try:
        return parse_id(value, field="id")
    except InvalidNumber:
        return None
