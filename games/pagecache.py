"""Rendered pieces of pages that never change once made, kept in the cache.

A resolved phase is history: its board and report, for a given reader's seat, are the same on
every request for ever, so nothing ever invalidates them (the key names the phase by its row,
its match's random seed and when it resolved, so a key can never describe anything else). A
live board depends only on the open phase and what is drawn on it, named the same way. Entries
expire after a while only to make room; the cache (``CACHES``) is shared by the workers when
``CACHE_URL`` is set, else each process keeps its own.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import orjson
from django.conf import settings
from django.core.cache import cache
from django.db.models import Model
from django.utils import translation
from django.utils.functional import Promise

T = TypeVar("T")

# A week: long enough to serve a match's whole life, short enough to let old matches go.
TIMEOUT = 7 * 24 * 3600


def key_for(kind: str, *parts: Any) -> str:
    """A cache key for ``kind`` and the parts that fully determine the content (the active
    language is added: pieces may hold translated words; and the code's release, so that a
    piece rendered by an earlier version of the templates or the code is never served)."""
    raw = json.dumps([kind, translation.get_language(), release(), *parts], sort_keys=True,
                     default=str)
    return f"piece:{kind}:{hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()}"


# Where what renders a piece lives: the code, its templates and its translations.
RELEASE_FOLDERS = ("engine", "games", "portal", "competitions", "clocks", "analysis",
                   "templates", "templates_jinja", "locale")


@functools.cache
def release() -> str:
    """A fingerprint of this release's files (names, sizes and modification times of the code,
    templates and translations; read once a process): the cache is shared by the servers and
    outlives them, and an upgrade must not serve pieces its predecessor rendered."""
    base = Path(settings.BASE_DIR)
    stamps = sorted((str(path.relative_to(base)), info.st_size, info.st_mtime_ns)
                    for folder in RELEASE_FOLDERS for path in (base / folder).rglob("*")
                    if path.suffix in {".py", ".html", ".jinja", ".txt", ".mo", ".svg"}
                    and (info := path.stat()))
    return hashlib.blake2b(repr(stamps).encode(), digest_size=8).hexdigest()


def digest(data: Any) -> str:
    """A short fingerprint of JSON-like data (a draft sheet drawn on a board)."""
    raw = json.dumps(data, sort_keys=True, default=str)
    return hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()


def fingerprint(*data: Any) -> str:
    """A fingerprint of what a rendered part is made from, for a key: rows, model objects (their
    loaded fields, what a view set on them and the related objects read with them), tuples,
    dates. Whatever the part shows must be in ``data`` (a time-dependent text as the text, not
    the clock it was worked out from): the same fingerprint must mean the same rendering."""
    seen: set[int] = set()
    raw = orjson.dumps(data, default=lambda value: _plain(value, seen),
                       option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS)
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _plain(value: Any, seen: set[int]) -> Any:
    if isinstance(value, str):  # (a str's subclass: rendered HTML, marked safe)
        return _text(value)
    if isinstance(value, Model):
        return _model(value, seen)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, int):  # (an IntEnum)
        return int(value)
    if isinstance(value, tuple):  # (named tuples)
        return list(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    if isinstance(value, Promise | Decimal | timedelta):  # (lazy translations)
        return str(value)
    raise TypeError(f"cannot fingerprint {type(value).__name__}")


# Rendered pieces (a board, a report) are mostly the same objects from one request to the next
# (this process's copies above): each one's digest is kept with it, by identity.
_digests: OrderedDict[int, tuple[str, str]] = OrderedDict()


def _text(value: str) -> str:
    if len(value) < 2048:
        return str.__str__(value)  # (a plain str: SafeString's own __str__ is itself)
    kept = _digests.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    made = "digest " + hashlib.blake2b(value.encode(), digest_size=16).hexdigest()
    _bounded_put(_digests, id(value), (value, made))
    return made


def _model(value: Model, seen: set[int]) -> Any:
    """A model object's loaded fields, what was set on it and the objects read with it (each
    object once: where it comes again, as a seat's match does, its name stands for it)."""
    if id(value) in seen:
        return [value._meta.label, value.pk]
    seen.add(id(value))
    return [value._meta.label,
            {name: _model(field, seen) if isinstance(field, Model) else field
             for name, field in vars(value).items() if not name.startswith("_")},
            {name: _model(other, seen) if isinstance(other, Model) else other
             for name, other in value._state.fields_cache.items()},
            {name: [_model(item, seen) for item in items] for name, items in
             getattr(value, "_prefetched_objects_cache", {}).items()}]


def state_key(match: Any) -> str:
    """A fingerprint of the match's current state (and which match, phase and deadline it is):
    what a piece drawn from the state alone (the position in words, the grammar's help for a
    seat) may be kept under, whatever changes the state (a resolution, a continuous action, a
    moderator's roll-back). Worked out once per match object (a request reads its match once;
    an object whose state is replaced gets a new fingerprint)."""
    state = match.state
    kept = getattr(match, "_state_key", None)
    if kept is not None and kept[0] is state:  # (a state changed in place is not seen: the
        return kept[1]                          # pages never change one)
    raw = orjson.dumps([match.pk, match.seed, match.phase_number, str(match.deadline), state],
                       option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    made = hashlib.blake2b(raw, digest_size=16).hexdigest()
    match._state_key = (state, made)
    return made


# The hottest pieces are also kept in the process, unpickled: a key names content that never
# changes, so a process's copy can never be stale. Bounded; the oldest used goes first.
LOCAL_SIZE = 256
_local: OrderedDict[str, Any] = OrderedDict()


def cached(key: str, make: Callable[[], T]) -> T:
    """The piece stored under ``key``, made (and stored) by ``make()`` when missing. What is
    made must not be changed by the caller (it is shared)."""
    try:  # (threads share the dict: another may drop the key between two steps)
        value = _local[key]
        _local.move_to_end(key)
        return value
    except KeyError:
        pass
    value = cache.get(key)
    if value is None:
        value = make()
        cache.set(key, value, TIMEOUT)
    return _keep(key, value)


def get_many(keys: list[str]) -> dict[str, Any]:
    """The pieces stored under ``keys`` that are there: this process's copies, then the
    cache's in one round trip (kept in the process too)."""
    found = {key: value for key in keys if (value := _local.get(key)) is not None}
    missing = [key for key in keys if key not in found]
    if missing:
        for key, value in cache.get_many(missing).items():
            found[key] = _keep(key, value)
    return found


def set_many(pieces: dict[str, Any]) -> None:
    """Store pieces (made once, never changed) in the cache and in this process."""
    cache.set_many(pieces, TIMEOUT)
    for key, value in pieces.items():
        _keep(key, value)


def _keep(key: str, value: Any) -> Any:
    _bounded_put(_local, key, value)
    return value


def _bounded_put(kept: OrderedDict, key: Any, value: Any) -> None:
    """Put ``value`` in one of this process's dicts, the oldest going past ``LOCAL_SIZE``."""
    kept[key] = value
    while len(kept) > LOCAL_SIZE:
        try:  # (threads share the dict: another may have taken the oldest meanwhile)
            kept.popitem(last=False)
        except KeyError:
            break


def forget_local() -> None:
    """Empty this process's copies (tests empty the cache between tests)."""
    _local.clear()
