"""Querysets whose SQL is the same on every request, compiled once a process.

Django builds and compiles a queryset's SQL anew each time it runs it: for each of the
lobby's queries about 0.4 ms of CPU, as much as the database takes to answer
(``scripts/profile_pages.py``). A queryset whose SQL and parameters depend only on a few
hashable arguments (a page's offset) is built by a module-level function of them, compiled
once per arguments and kept (a bounded number, least recently used dropped); one whose only
parameters are a list of ids is compiled once per number of ids. Each request only sends the
SQL: the text Django would send, the database plans it as before; models are made with
Django's converters (``raw``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)


@functools.lru_cache(maxsize=256)
def sql(build: Callable[..., QuerySet], *args: Hashable) -> tuple[str, tuple[Any, ...]]:
    """The SQL and parameters of ``build(*args)``: ``build`` must return the same query for the
    same arguments (a module-level function, never a new lambda per call)."""
    text, params = build(*args).query.sql_with_params()
    return text, tuple(params)


def models(model: type[M], build: Callable[..., QuerySet[M]], *args: Hashable) -> list[M]:
    """``list(build(*args))``, its SQL compiled once (fields left out by ``only`` are deferred,
    as there)."""
    return list(model.objects.raw(*sql(build, *args)))


@functools.lru_cache(maxsize=256)
def _sql_for_ids(build: Callable[[tuple[int, ...]], QuerySet], count: int) -> str:
    stand_ins = tuple(range(1, count + 1))
    text, params = build(stand_ins).query.sql_with_params()
    if tuple(params) != stand_ins:
        raise ValueError(f"{build.__name__}: the query's parameters are not just the ids")
    return text


def rows_for_ids(build: Callable[[tuple[int, ...]], QuerySet],
                 ids: Sequence[int]) -> list[tuple[Any, ...]]:
    """The rows of ``build(ids)``, a ``values_list`` whose only parameters are ``ids`` (distinct,
    in that order: checked when it is compiled), as the driver returns them: only for columns
    that need no conversion (numbers, text)."""
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_sql_for_ids(build, len(ids)), tuple(ids))
        return cursor.fetchall()
