"""Querysets whose SQL is the same on every request, compiled once a process.

Django builds and compiles a queryset's SQL anew each time it runs it: for each of the
lobby's and the match page's queries 0.3 to 1 ms of CPU, more than the database takes to
answer (``scripts/profile_pages.py``). Here a queryset is built by a module-level function
(never a new lambda per call) and compiled once, then each request only sends the SQL, the
text Django would send (the database plans it as before):

- ``models(model, build, *args)``: ``build(*args)`` is compiled once per arguments (a page's
  offset: Django writes it into the SQL), its models made by ``raw`` (Django's converters;
  fields left out by ``only`` deferred, as there);
- ``rows(build, *ids)`` and ``instances(model, build, *ids)``: ``build`` takes integers (ids,
  numbers) that the query only uses as parameters; it is compiled once per number of them
  with stand-ins (twice, to find where each goes, and checked), and each request's integers
  are put in their places. Rows get Django's converters (dates on SQLite, JSON); instances
  are made from them with ``from_db``, as Django makes them.

Kept compilations are bounded (the least recently used dropped)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple, TypeVar

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.sql.query import Query

M = TypeVar("M", bound=Model)


@functools.lru_cache(maxsize=256)
def sql(build: Callable[..., QuerySet], *args: Hashable) -> tuple[str, tuple[Any, ...]]:
    """The SQL and parameters of ``build(*args)``."""
    text, params = build(*args).query.sql_with_params()
    return text, tuple(params)


def models(model: type[M], build: Callable[..., QuerySet[M]], *args: Hashable) -> list[M]:
    """``list(build(*args))``, its SQL compiled once per ``args``."""
    return list(model.objects.raw(*sql(build, *args)))


class _Kept(NamedTuple):
    text: str
    params: tuple[Any, ...]  # the first stand-ins in place
    slots: tuple[tuple[int, int], ...]  # (parameter's index, argument's index)
    query: Query
    columns: tuple[Any, ...]  # the selected expressions, for their converters
    names: tuple[str, ...]  # the model's fields, in the columns' order (``instances``)


# Two sets of stand-ins, small enough for any integer field (a smallint's too), distinct.
_FIRST, _SECOND = 20_001, 30_001


@functools.lru_cache(maxsize=256)
def _kept(build: Callable[..., QuerySet], count: int, as_models: bool) -> _Kept:
    compiled = []
    for base in (_FIRST, _SECOND):
        queryset = build(*range(base, base + count))
        names: tuple[str, ...] = ()
        if as_models:
            if queryset._fields is not None or queryset.query.deferred_loading != (
                    frozenset(), True):
                raise ValueError(f"{build.__name__}: instances() needs whole models")
            names = tuple(field.attname for field in queryset.model._meta.concrete_fields)
            queryset = queryset.values_list(*names)
        compiler = queryset.query.get_compiler(DEFAULT_DB_ALIAS)
        try:
            text, params = compiler.as_sql()
        except (EmptyResultSet, FullResultSet) as error:  # (a stand-in out of a field's range)
            raise ValueError(f"{build.__name__}: its integers are not only the query's "
                             "parameters") from error
        columns = tuple(column for column, _, _ in compiler.select[:compiler.col_count])
        compiled.append((text, tuple(params), queryset.query, columns, names))
    (text, first, query, columns, names), (second_text, second, *_) = compiled
    slots = tuple((index, a - _FIRST) for index, (a, b) in enumerate(zip(first, second,
                                                                           strict=True))
                  if a != b)
    if (second_text != text or any(b - _SECOND != a - _FIRST or not 0 <= a - _FIRST < count
                                   for a, b in ((first[i], second[i]) for i, _ in slots))
            or {argument for _, argument in slots} != set(range(count))):
        raise ValueError(f"{build.__name__}: its integers are not only the query's parameters")
    return _Kept(text, first, slots, query, columns, names)


# Integers a parameter can take (a 64-bit integer's range): Django turns a lookup outside it into
# "nothing found", the database would refuse it.
INTEGER_END = 2**63


def _run(kept: _Kept, args: tuple[int, ...]) -> list[list[Any]]:
    if any(not -INTEGER_END <= argument < INTEGER_END for argument in args):
        raise ValueError("an argument is outside a 64-bit integer's range")
    params = list(kept.params)
    for index, argument in kept.slots:
        params[index] = args[argument]
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        cursor.execute(kept.text, params)
        found = cursor.fetchall()
    compiler = kept.query.get_compiler(connection=connection)
    converters = compiler.get_converters(kept.columns)
    return list(compiler.apply_converters(found, converters)) if converters else found


def rows(build: Callable[..., QuerySet], *args: int) -> list[Any]:
    """The rows of ``build(*args)`` (a ``values_list``, its columns in the SQL's order: fields,
    then annotations), compiled once per number of arguments."""
    return _run(_kept(build, len(args), False), args)


def instances(model: type[M], build: Callable[..., QuerySet[M]], *args: int) -> list[M]:
    """The models of ``build(*args)`` (whole models: no ``only``, ``defer`` or
    ``select_related``), compiled once per number of arguments."""
    kept = _kept(build, len(args), True)
    return [model.from_db(DEFAULT_DB_ALIAS, kept.names, row) for row in _run(kept, args)]
