"""Querysets of a fixed shape, compiled to SQL once per connection and run with new values.

Building and compiling a queryset costs more Python than PostgreSQL spends answering it: for
the resolution's three reads (the open phase with its match, locked; the seats with their
players' active hours and leave; the sheets) about 4 ms against under 1 ms in the database.
Their shape never changes, only the ids and the time, so ``Prepared`` builds the queryset once
with stand-in values, keeps the SQL Django compiled, where each stand-in went among its
parameters, and how Django makes the rows into models (``select_related`` and annotations
included), and afterwards sends the same SQL with the real values and makes the models the
same way Django's own iterator does.

A list of values is one parameter (``= ANY(%s)``, the ``any_of`` lookup), so one SQL text
serves any number of ids. ``run_together`` sends several in one round trip. On databases
other than PostgreSQL (the embedded SQLite default) the queryset is simply built and
evaluated each time.

``server_side=True`` also prepares the statement in each PostgreSQL session that runs it
(``PREPARE``, once per session, the query's constants written in and its values as
``$1…$n``, sent in the same string as the first ``EXECUTE``), and then sends ``EXECUTE``
with the values: PostgreSQL parses and plans it once
instead of on every call (for the resolution's reads, planning took longer than running
them). The session plans it for any values (``plan_cache_mode=force_generic_plan``, set by
the settings for every PostgreSQL session: otherwise PostgreSQL keeps planning for each
call's values, a list of ids defeating its estimate), so it suits lookups by id, whatever
the value; not a query whose best plan depends on how common its value is. A session that
lost its prepared statements (a connection pooler's reset) fails that one call with an
``OperationalError`` (the connection's failure, retried as one), and the next prepares them
again. It needs session-level connections, as Django's persistent ones
are (not a pooler in transaction mode).
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import connections, router
from django.db.models import Field, ForeignObject, Model, QuerySet
from django.db.models.lookups import In
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators

from dbops.bulk import new_in_session, remember_statement, send_together


class AnyOf(In):
    """``field__any_of=[…]``: ``IN (…)``, sent on PostgreSQL as ``= ANY(%s)`` with the list
    as one array parameter (the same SQL for any length)."""

    lookup_name = "any_of"

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, tuple]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        field = self.lhs.output_field
        values = [field.get_db_prep_value(value, connection) for value in self.rhs]
        return f"{lhs} = ANY(%s)", (*lhs_params, values)


Field.register_lookup(AnyOf)
ForeignObject.register_lookup(AnyOf)  # ids of a foreign key, as values (not instances)


# Two sets of stand-ins, each value unlike any constant of a query (and, for integers, inside
# even a small integer field's range: Django turns a lookup outside it into "nothing found").
def _stand_in(kind: str, index: int, second: bool) -> Any:
    base = 29_001 + 1_000 * second + 2 * index
    if kind == "int":
        return base
    if kind == "ints":
        return [base, base + 1]
    if kind == "time":
        return datetime(1901, 2, 3 + second, 4, 5, 6, 700_000 + index, tzinfo=UTC)
    if kind == "text":
        return f"stand-in text {base}"
    raise ValueError(f"unknown kind of value {kind!r}: int, ints, text or time")


def _is(param: Any, value: Any) -> bool:
    """Whether a compiled parameter is the stand-in ``value`` (Django may have wrapped an
    integer in one of psycopg's int subclasses, ``Int2`` for a small integer field)."""
    if isinstance(value, int):
        return isinstance(param, int) and not isinstance(param, bool) and param == value
    return type(param) is type(value) and param == value


class _Compiled:
    """One connection's SQL of a prepared queryset, where its values go among the parameters,
    and how to make its rows into models (or, for a ``values_list``, tuples)."""

    def __init__(self, build: Callable[..., QuerySet], kinds: dict[str, str], alias: str
                 ) -> None:
        # Compiled with two sets of stand-ins: the SQL must be the same and each value must
        # be found in the same places, as a parameter (not written into the SQL, as a LIMIT
        # is, nor turned into something else).
        compiled = []
        for second in (False, True):
            stand_ins = {name: _stand_in(kind, index, second)
                         for index, (name, kind) in enumerate(kinds.items())}
            queryset = build(**stand_ins).using(alias)
            compiler = queryset.query.get_compiler(using=alias)
            try:
                sql, params = compiler.as_sql()
            except (EmptyResultSet, FullResultSet):
                raise ValueError(f"{build}: its values are not only the query's parameters"
                                 ) from None
            compiled.append((sql, list(params), stand_ins, queryset, compiler))
        (self.sql, first, first_ins, queryset, compiler), (sql, second, second_ins, *_) = compiled
        if sql != self.sql or len(first) != len(second):
            raise ValueError(f"{build}: its values are not only the query's parameters")
        self.slots: list[tuple[str | None, Any]] = []  # (the value's name, or None: a constant)
        for a, b in zip(first, second, strict=True):
            name = next((n for n, v in first_ins.items() if _is(a, v)), None)
            if (name is None and a != b) or (name is not None and not _is(b, second_ins[name])):
                raise ValueError(f"{build}: its values are not only the query's parameters")
            self.slots.append((name, None if name else a))
        if missing := set(kinds) - {name for name, _ in self.slots}:
            raise ValueError(f"{build}: the values {sorted(missing)} are not in its query")
        # (prepared server-side: the values in this order, each once, as $1…$n)
        self.executed = list(dict.fromkeys(name for name, _ in self.slots if name))
        self.compiler = compiler
        self.select = compiler.select
        fields = [column[0] for column in compiler.select[:compiler.col_count]]
        self.converters = compiler.get_converters(fields)
        self.klass_info = compiler.klass_info
        self.values = queryset._iterable_class is not ModelIterable
        if self.values:  # a values_list: Django selects its columns in its order
            if queryset._iterable_class is not ValuesListIterable:
                raise ValueError(f"{build}: models or a values_list (not flat, not named)")
            return
        self.annotations = dict(compiler.annotation_col_map or {})
        start, end = self.klass_info["select_fields"][0], self.klass_info["select_fields"][-1] + 1
        self.model_slice = slice(start, end)
        self.init_list = [column[0].target.attname for column in self.select[start:end]]

    def params(self, values: dict[str, Any]) -> list[Any]:
        return [values[name] if name else constant for name, constant in self.slots]

    def prepare(self, name: str) -> tuple[str, list[Any]]:
        """``PREPARE name AS …``: the SQL with its constants (as parameters, for the cursor
        to write in) and each value as ``$n`` (numbered as ``execute`` sends them)."""
        slots = iter(self.slots)
        constants: list[Any] = []
        numbers = {value_name: n for n, value_name in enumerate(self.executed, start=1)}

        def placeholder(found: re.Match) -> str:
            if found.group() == "%%":
                return "%%"
            value_name, constant = next(slots)
            if value_name is None:
                constants.append(constant)
                return "%s"
            return f"${numbers[value_name]}"

        return f"PREPARE {name} AS {re.sub(r'%%|%s', placeholder, self.sql)}", constants

    def execute(self, name: str, values: dict[str, Any]) -> tuple[str, list[Any]]:
        """``EXECUTE name(…)`` with ``values`` (after ``prepare``)."""
        if not self.executed:  # (PostgreSQL takes no empty parentheses)
            return f"EXECUTE {name}", []
        return (f"EXECUTE {name}({', '.join(['%s'] * len(self.executed))})",
                [values[value_name] for value_name in self.executed])

    def models(self, connection: Any, rows: list[tuple]) -> Iterator[Any]:
        """The rows made into models as Django's ``ModelIterable`` makes them (for a
        ``values_list``: into tuples, as ``ValuesListIterable`` does)."""
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        if self.values:
            yield from map(tuple, rows)
            return
        model = self.klass_info["model"]
        db = connection.alias
        populators = get_related_populators(self.klass_info, self.select, db)
        for row in rows:
            obj = model.from_db(db, self.init_list, row[self.model_slice])
            for populator in populators:
                populator.populate(row, obj)
            for name, position in self.annotations.items():
                setattr(obj, name, row[position])
            yield obj


class Prepared:
    """``Prepared(Phase, build, ids="ints", now="time")``: ``build(ids=…, now=…)`` returns a
    queryset of ``model`` (always of the same shape: the values may change, never which
    filters, joins or locks there are); calling the ``Prepared`` with the values returns its
    models, read from the database ``model`` is written to. Kinds of value: ``int``, ``ints``
    (a list, for ``__any_of``) and ``time`` (an aware datetime)."""

    def __init__(self, model: type[Model], build: Callable[..., QuerySet], *,
                 server_side: bool = False, **kinds: str) -> None:
        self.model = model
        self.build = build
        self.kinds = kinds
        self.name = f"prepared_{next(_numbers)}" if server_side else None
        self._compiled: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()

    def __call__(self, **values: Any) -> list[Model]:
        return run_together((self, values))[0]

    def explain(self, **values: Any) -> str:
        """PostgreSQL's ``EXPLAIN ANALYZE`` of the statement as it is sent with ``values`` (for
        tests of query plans)."""
        connection = connections[router.db_for_write(self.model)]
        preparing, (sql, params) = self._statement(connection, self._compiled_for(connection),
                                                   values)
        with connection.cursor() as cursor:
            if preparing is not None:
                cursor.execute(*preparing)
            cursor.execute("EXPLAIN ANALYZE " + sql, params)
            return "\n".join(row[0] for row in cursor.fetchall())

    def _compiled_for(self, connection: Any) -> _Compiled:
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = _Compiled(self.build, self.kinds, connection.alias)
            self._compiled[connection] = compiled
        return compiled

    def _statement(self, connection: Any, compiled: _Compiled, values: dict[str, Any]
                   ) -> tuple[tuple[str, list[Any]] | None, tuple[str, list[Any]]]:
        """What to send for ``values``: the SQL, or (server-side) ``EXECUTE``, with before it
        the ``PREPARE`` to send first when this session has not prepared the statement (taken
        as prepared from here: sent in the same string, ahead of the queries, as
        ``dbops.bulk`` sends its writes')."""
        if self.name is None:
            return None, (compiled.sql, compiled.params(values))
        preparing = None
        if new_in_session(connection, self.name):
            preparing = compiled.prepare(self.name)
            remember_statement(self.name, compiled.sql)
        return preparing, compiled.execute(self.name, values)


_numbers = itertools.count(1)


def run_together(*calls: tuple[Prepared, dict[str, Any]], before: Sequence[str] = ()
                 ) -> list[list[Model]]:
    """Run prepared queries (each with its values) in one round trip: on PostgreSQL one string
    of statements (psycopg's client-side cursor, Django's default, merges the values in), run
    in order in the caller's transaction, so each sees what the ones before it did, locks
    included. ``before``: statements of PostgreSQL's own (without values, returning nothing,
    such as a ``SET LOCAL``) sent first in the same string; ignored elsewhere. Returns each
    query's models."""
    for prepared, values in calls:
        if values.keys() != prepared.kinds.keys():
            raise TypeError(f"expected the values {sorted(prepared.kinds)}, got {sorted(values)}")
    alias = router.db_for_write(calls[0][0].model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return [list(prepared.build(**values).using(alias)) for prepared, values in calls]
    compiled = [prepared._compiled_for(connection) for prepared, _ in calls]
    # (the statements new to the session are prepared after ``before``, in the same string)
    preparing, statements = [], []
    for query, (prepared, values) in zip(compiled, calls, strict=True):
        prepare, statement = prepared._statement(connection, query, values)
        if prepare is not None:
            preparing.append(prepare)
        statements.append(statement)
    first = [(sql, []) for sql in before] + preparing
    found = send_together(connection, first + statements)[len(first):]
    return [list(query.models(connection, rows))
            for query, rows in zip(compiled, found, strict=True)]
