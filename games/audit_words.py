"""The public line of an audit row ("a moderator paused the match (2 hours left)") in the
reader's language.

An action writes its line as words to tell later (``audit_words``): an English message marked
with ``gettext_noop`` and its values, a span of time kept as seconds (``Span``) so that it is
said in the reader's language too. The row keeps them in ``details["words"]`` and, for the
admin and for rows written before, the English line in ``summary``; ``told`` makes the line
for whoever reads it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from games import dates


def span(value: timedelta) -> dict[str, float]:
    """A span of time among an audit line's values, told as words when read."""
    return {"seconds": value.total_seconds()}


def audit_words(message: str, **values: Any) -> dict[str, Any]:
    """An audit line to tell: ``message`` marked with ``gettext_noop``, ``values`` plain text,
    numbers, ``span(...)``, words in turn or a list of words (told one after the other)."""
    return {"message": message, "values": values}


def told(words: Any, fallback: str = "") -> str:
    """The line ``words`` in the active language; ``fallback`` (the stored English line) for
    a row without words or with words that cannot be told."""
    if not isinstance(words, dict) or not isinstance(words.get("message"), str):
        return fallback
    values = {}
    for key, value in (words.get("values") or {}).items():
        if isinstance(value, dict) and isinstance(value.get("seconds"), int | float):
            value = dates.duration(timedelta(seconds=value["seconds"]))
        elif isinstance(value, dict):  # words within the words ("the bot %(bot)s")
            value = told(value, "?")
        elif isinstance(value, list):  # several, one after the other
            value = "; ".join(told(item, "?") for item in value)
        values[key] = value
    try:
        return gettext(words["message"]) % values
    except (KeyError, TypeError, ValueError):
        return fallback


def english(words: Any) -> str:
    """The line in English, as the row's ``summary`` keeps it (plain text as it is)."""
    if not isinstance(words, dict):
        return str(words)
    with translation.override("en-gb"):
        return told(words)
