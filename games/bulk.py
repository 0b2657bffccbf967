"""Writing many rows (or one) in one statement, cheaply.

Django's ``bulk_update`` builds a ``CASE WHEN id = … THEN …`` expression per field and row;
for a sweep's batch of fifty matches that expression tree cost more than the whole
resolution. On PostgreSQL ``rows_update`` sends one ``UPDATE … FROM (VALUES …)`` instead:
one row of parameters per model row, each cast to its column's type, and ``rows_insert`` one
``INSERT … VALUES … RETURNING`` id. Both skip Django's query compiler, which costs more than
the statement itself for the resolution's few rows (about half a millisecond each). Inside
``one_round_trip()`` they are sent together, as one string of statements, when the block ends.
Elsewhere (the embedded SQLite default) they are ``bulk_update`` and ``bulk_create``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db import connections, router
from django.db.models import Field, Model

TUPLES_OK = psycopg.pq.ExecStatus.TUPLES_OK
_pending = threading.local()  # .statements: what one_round_trip() is holding, per thread


@contextmanager
def one_round_trip() -> Iterator[None]:
    """Hold back the ``rows_update`` and ``rows_insert`` of the block and send them, in order,
    as one string of statements when it ends: a resolution's four writes cost one wait on
    the database instead of four. (psycopg's client-side cursor, Django's default, sends a
    string with its values merged in, so it may hold several statements.) Ids of inserted
    rows are set, and their ``then`` run, once it is sent. Nested blocks send with the
    outermost one; an exception in the block sends nothing."""
    if getattr(_pending, "statements", None) is not None:
        yield
        return
    _pending.statements = statements = []
    try:
        yield
    finally:
        _pending.statements = None
    _send(statements)


def send_together(connection: Any, statements: Sequence[tuple[str, Sequence[Any]]]
                  ) -> list[list[tuple]]:
    """Send ``statements`` (SQL, parameters) in order: in one round trip when the cursor is
    psycopg's client-side one (Django's default), which takes a string of statements, else
    one by one. Returns each one's rows ([] for a statement that returns none)."""
    results: list[list[tuple]] = []
    with connection.cursor() as cursor:
        if len(statements) > 1 and isinstance(cursor.cursor, psycopg.ClientCursor):
            cursor.execute("; ".join(sql for sql, _ in statements),
                           [param for _, params in statements for param in params])
            # (psycopg's own cursor from here: every result has arrived with the execute,
            # which raised any error; psycopg's ``description`` makes a column object for
            # each column, of every result, each time it is read)
            raw = cursor.cursor
            for index in range(len(statements)):
                if index:
                    raw.nextset()
                returned = raw.pgresult is not None and raw.pgresult.status == TUPLES_OK
                results.append(raw.fetchall() if returned else [])
            return results
        for sql, params in statements:
            cursor.execute(sql, params)
            results.append(cursor.fetchall() if cursor.description else [])
    return results


def _send(statements: list[tuple[Any, str, list[Any], Callable[[list], None] | None]]) -> None:
    by_connection: dict[Any, list] = {}
    for statement in statements:
        by_connection.setdefault(statement[0], []).append(statement)
    for connection, group in by_connection.items():
        found = send_together(connection, [(sql, params) for _, sql, params, _ in group])
        for (_, _, _, then), rows in zip(group, found, strict=True):
            if then is not None:
                then(rows)


def _execute(connection: Any, sql: str, params: list[Any],
             then: Callable[[list], None] | None = None) -> None:
    statements = getattr(_pending, "statements", None)
    if statements is not None:
        statements.append((connection, sql, params, then))
    else:
        _send([(connection, sql, params, then)])


def rows_update(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Save ``fields`` of ``rows`` (instances of one model, already in the database) in one
    statement."""
    if not rows:
        return
    model = type(rows[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        model.objects.using(alias).bulk_update(rows, list(fields))
        return
    sql, columns = _update_sql(model, tuple(fields), len(rows), alias)
    params: list[Any] = []
    for row in rows:
        for column in columns:
            params.append(column.get_db_prep_save(getattr(row, column.attname), connection))
    _execute(connection, sql, params)


# The statements' SQL, made once for each model, set of fields and number of rows (a
# resolution writes the same few shapes every time; a sweep's batches, a few more).
@functools.lru_cache(maxsize=512)
def _update_sql(model: type[Model], fields: tuple[str, ...], count: int, alias: str
                ) -> tuple[str, list[Field]]:
    connection = connections[alias]
    meta = model._meta
    pk = meta.pk
    columns = [pk] + [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    casts = [f"%s::{column.cast_db_type(connection)}" for column in columns]
    values = ", ".join(f"({', '.join(casts)})" for _ in range(count))
    names = ", ".join(quote(column.column) for column in columns)
    assignments = ", ".join(f"{quote(column.column)} = v.{quote(column.column)}"
                            for column in columns[1:])
    return (f"UPDATE {quote(meta.db_table)} AS t SET {assignments} "
            f"FROM (VALUES {values}) AS v ({names}) "
            f"WHERE t.{quote(pk.column)} = v.{quote(pk.column)}"), columns


@functools.lru_cache(maxsize=512)
def _insert_sql(model: type[Model], count: int, alias: str) -> tuple[str, list[Field]]:
    meta = model._meta
    pk = meta.pk
    columns = [column for column in meta.concrete_fields if column is not pk]
    quote = connections[alias].ops.quote_name
    placeholders = f"({', '.join(['%s'] * len(columns))})"
    return (f"INSERT INTO {quote(meta.db_table)} "
            f"({', '.join(quote(column.column) for column in columns)}) "
            f"VALUES {', '.join([placeholders] * count)} RETURNING {quote(pk.column)}"), columns


def rows_insert(rows: Sequence[Model], then: Callable[[], None] | None = None) -> None:
    """Insert ``rows`` (new instances of one model, with an auto primary key) in one statement,
    as ``bulk_create`` does: each field's ``pre_save`` value, and the new ids set on them;
    then call ``then`` (once they are set: in ``one_round_trip``, when it sends)."""
    if not rows:
        if then is not None:
            then()
        return
    model = type(rows[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        model.objects.using(alias).bulk_create(rows)
        if then is not None:
            then()
        return
    pk = model._meta.pk
    sql, columns = _insert_sql(model, len(rows), alias)
    params: list[Any] = []
    for row in rows:
        for column in columns:
            params.append(column.get_db_prep_save(column.pre_save(row, True), connection))

    def inserted(ids: list) -> None:
        for row, (pk_value,) in zip(rows, ids, strict=True):
            setattr(row, pk.attname, pk_value)
            row._state.adding = False
            row._state.db = alias
        if then is not None:
            then()

    _execute(connection, sql, params, inserted)
