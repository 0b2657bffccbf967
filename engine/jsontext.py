"""Reading JSON written by someone else (a request body, a form field, an uploaded record, a
file given to the command line) within bounds, without recursion.

``json.loads`` recurses once per level of nesting: a few thousand ``[`` in a row raise
RecursionError (and any code that walks the result recursively fails the same way further on),
and ``1e999`` or ``Infinity`` read as a float infinity that ``int()`` cannot take. ``read_json``
refuses all three before they reach anything: the size in bytes, the depth of nesting (counted
by one pass over the brackets outside strings, no recursion), and numbers that are not finite.
Every place that reads JSON from outside reads it here; its refusals are ``JSONLimitError``
(a ValueError) with a sentence for people; text that is not JSON (or bytes not UTF-8) is the
``ValueError`` that ``json.loads`` (or decoding) gives.

Pure: no I/O (shared by the site and ``python -m engine``).
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from engine.base import Text
from engine.base import gettext_noop as _

# Deeper than any JSON this project writes or reads (a record: record > phases > phase >
# submissions > sheet > orders > order > value is under 15 levels).
MAX_DEPTH = 64
# The largest JSON read where the caller names no smaller bound (Django's request-body bound).
MAX_BYTES = 2_621_440

TOO_LARGE = _("The JSON is too large: at most %(limit)s bytes are accepted, it has %(size)s.")
TOO_DEEP = _("The JSON is nested too deeply: at most %(limit)s levels of lists and objects "
             "are accepted.")
NOT_FINITE = _("The JSON holds a number that is not finite (%(number)s): write numbers as "
               "ordinary finite numbers.")
TOO_LONG_NUMBER = _("The JSON holds a number of over %(limit)s digits.")
# Python refuses to read a longer integer (sys.get_int_max_str_digits' default).
MAX_DIGITS = 4300

# A JSON string literal (escapes included); between two of them, brackets are structure.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class JSONLimitError(ValueError):
    """JSON refused before it was read: too large, nested too deeply, or a number not finite
    or too long. ``text`` says so in words for people (an ``engine.Text``)."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


def json_depth(text: str) -> int:
    """How deeply lists and objects nest in ``text`` (0 for a plain value), counted without
    recursion. For text that is not JSON, an upper bound of what a parser would reach."""
    structure = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not structure:
        return 0
    return max(0, max(accumulate(_STEP[c] for c in structure)))


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise JSONLimitError(Text(NOT_FINITE, {"number": text[:40]}))
    return number


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise JSONLimitError(Text(TOO_LONG_NUMBER, {"limit": MAX_DIGITS}))
    return int(text)


def _no_constant(name: str) -> Any:
    raise JSONLimitError(Text(NOT_FINITE, {"number": name}))


def read_json(text: str | bytes, *, max_depth: int = MAX_DEPTH,
              max_bytes: int = MAX_BYTES) -> Any:
    """``text`` read as JSON, or JSONLimitError if it is larger than ``max_bytes`` (in UTF-8),
    nests lists and objects deeper than ``max_depth`` or holds a number that is not finite
    (``1e999``, ``NaN``, ``Infinity``) or is too long to read; json.JSONDecodeError if it is
    not JSON (UnicodeDecodeError: bytes that are not UTF-8)."""
    if isinstance(text, bytes | bytearray):
        size = len(text)
        if size > max_bytes:
            raise JSONLimitError(Text(TOO_LARGE, {"limit": max_bytes, "size": size}))
        text = bytes(text).decode("utf-8")  # (UnicodeDecodeError: a ValueError, not JSON)
    elif len(text) > max_bytes or len(text) * 4 > max_bytes:  # (a character is 1 to 4 bytes)
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > max_bytes:
            raise JSONLimitError(Text(TOO_LARGE, {"limit": max_bytes, "size": size}))
    if json_depth(text) > max_depth:
        raise JSONLimitError(Text(TOO_DEEP, {"limit": max_depth}))
    try:
        return json.loads(text, parse_float=_finite, parse_int=_int,
                          parse_constant=_no_constant)
    except RecursionError:  # (cannot happen within max_depth; kept as the same refusal)
        raise JSONLimitError(Text(TOO_DEEP, {"limit": max_depth})) from None
