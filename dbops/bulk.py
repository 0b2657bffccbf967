"""Writing many rows (or one) in one statement, cheaply.

Django's ``bulk_update`` builds a ``CASE WHEN id = … THEN …`` expression per field and row;
for a sweep's batch of fifty matches that expression tree cost more than the whole
resolution. On PostgreSQL ``rows_update`` sends one ``UPDATE … FROM (VALUES …)`` instead:
one row of parameters per model row, each cast to its column's type, and ``rows_insert`` one
``INSERT … VALUES … RETURNING`` id. Both skip Django's query compiler, which costs more than
the statement itself for the resolution's few rows (about half a millisecond each). Inside
``one_round_trip()`` they are sent together, as one string of statements, when the block ends.
Each shape of statement (model, fields, number of rows) is prepared in the PostgreSQL session
the first time it is sent there (``PREPARE``, as ``games.prepared`` does for reads) and then
sent as ``EXECUTE`` with its values: PostgreSQL parses and plans it once per session, not on
every call (a quarter of a resolution's writes' time in the database). Elsewhere (the embedded
SQLite default) they are ``bulk_update`` and ``bulk_create``.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import psycopg
from django.db import DEFAULT_DB_ALIAS, DatabaseError, OperationalError, connections, router
from django.db.models import Field, Model

TUPLES_OK = psycopg.pq.ExecStatus.TUPLES_OK
_pending = threading.local()  # .statements: what one_round_trip() is holding, per thread

# The statements prepared in each PostgreSQL session (keyed by psycopg's connection: a new
# connection is a new session, with none).
_in_session: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
# PostgreSQL's SQLSTATE for "there is no prepared statement of that name".
_NO_SUCH_STATEMENT = "26000"


def new_in_session(connection: Any, name: str) -> bool:
    """Whether statement ``name`` is still to be prepared in the connection's current session;
    it is taken as prepared from here (the caller sends its ``PREPARE`` ahead of its first
    ``EXECUTE``, in the same string). A session that lost its statements (a connection
    pooler's reset) makes the next ``send_together`` that executes one fail with an
    ``OperationalError``, after which they are prepared again."""
    connection.ensure_connection()
    names = _in_session.setdefault(connection.connection, set())
    if name in names:
        return False
    names.add(name)
    return True


@contextmanager
def one_round_trip(*, commit: bool = False) -> Iterator[None]:
    """Hold back the ``rows_update`` and ``rows_insert`` of the block and send them, in order,
    as one string of statements when it ends: a resolution's four writes cost one wait on
    the database instead of four. (psycopg's client-side cursor, Django's default, sends a
    string with its values merged in, so it may hold several statements.) Ids of inserted
    rows are set, and their ``then`` run, once it is sent. Nested blocks send with the
    outermost one; an exception in the block sends nothing.

    With ``commit`` the string ends with ``COMMIT`` on PostgreSQL: the caller's transaction
    (its outermost atomic block, no savepoint) ends with these writes, in the same wait.
    Only for a caller that does nothing more in that transaction: Django's own commit, when
    the block exits, finds it over and sends nothing (psycopg commits only a transaction in
    progress), and runs the ``on_commit`` callbacks. Should the COMMIT fail (a deferred
    constraint), the error is raised here and the block rolls back as usual."""
    if commit:  # checked up front: on SQLite the writes are not held back, so never sent here
        _require_outermost(connections[DEFAULT_DB_ALIAS])
    if getattr(_pending, "statements", None) is not None:
        yield
        return
    _pending.statements = statements = []
    try:
        yield
    finally:
        _pending.statements = None
    _send(statements, commit=commit)


def _require_outermost(connection: Any) -> None:
    if not connection.in_atomic_block or connection.savepoint_ids:
        raise RuntimeError("one_round_trip(commit=True) ends the outermost atomic block's "
                           "transaction: not inside a savepoint, nor outside a transaction")


def send_together(connection: Any, statements: Sequence[tuple[str, Sequence[Any]]]
                  ) -> list[list[tuple]]:
    """Send ``statements`` (SQL, parameters) in order: in one round trip when the cursor is
    psycopg's client-side one (Django's default), which takes a string of statements, else
    one by one. Returns each one's rows ([] for a statement that returns none).

    Should the session have lost the statements prepared in it, the error is an
    ``OperationalError``: a failure of the connection, not of what was asked (a resolution is
    retried, not counted against its phase); the next call prepares them again."""
    try:
        return _send_together(connection, statements)
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) != _NO_SUCH_STATEMENT:
            raise
        _in_session.pop(connection.connection, None)
        raise OperationalError(f"the session lost its prepared statements: {error}") from error


def _send_together(connection: Any, statements: Sequence[tuple[str, Sequence[Any]]]
                   ) -> list[list[tuple]]:
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


class _Shape(NamedTuple):
    """A statement of ``rows_update``/``rows_insert`` for one model, set of fields and number
    of rows: its columns, in the order of its values, and its prepared statement."""

    columns: list[Field]
    name: str  # of the prepared statement, in every session
    prepare: str  # PREPARE name AS …, the values as $1…$n
    execute: str  # EXECUTE name(%s, …)

    @classmethod
    def of(cls, sql: str, columns: list[Field]) -> _Shape:
        # Named after its SQL: made again (evicted from the cache below), it is still the
        # statement the session has.
        name = "bulk_" + hashlib.blake2b(sql.encode(), digest_size=10).hexdigest()
        numbers = itertools.count(1)
        # (the SQL is Django's quoted names and our placeholders: no other %)
        prepared = re.sub("%s", lambda _: f"${next(numbers)}", sql)
        count = next(numbers) - 1
        shape = cls(columns, name, f"PREPARE {name} AS {prepared}",
                    f"EXECUTE {name}({', '.join(['%s'] * count)})")
        _statements[name] = prepared
        return shape


_statements: dict[str, str] = {}  # each prepared statement, by name (for ``readable``)


def remember_statement(name: str, sql: str) -> None:
    """Keep what statement ``name`` runs (``sql``), for ``readable`` to write it out."""
    _statements[name] = sql


def readable(sql: str) -> str:
    """``sql`` as sent (a string of statements) with each ``EXECUTE name(`` written out as its
    statement (a write's values as ``$n``, a prepared read's as ``%s``, followed by the
    values) and each write's ``PREPARE`` left out: what was run, for tests and logs."""
    sql = re.sub(r"PREPARE (bulk_\w+) AS (.*?); ",
                 lambda found: "" if found[2] == _statements.get(found[1]) else found[0], sql)
    return re.sub(r"EXECUTE ((?:bulk|prepared)_\w+)(\(|;|$)",
                  lambda found: f"{_statements.get(found[1], found[0])} -- {found[2]}", sql)


def _send(statements: list[tuple[Any, _Shape | str, list[Any], Callable[[list], None] | None]],
          commit: bool = False) -> None:
    by_connection: dict[Any, list] = {}
    for statement in statements:
        by_connection.setdefault(statement[0], []).append(statement)
    for connection, group in by_connection.items():
        if commit:
            _require_outermost(connection)
            group.append((connection, "COMMIT", [], None))
        # Shapes new to the session are prepared first, in the same string. (Taken as
        # prepared from here: should the string fail before a PREPARE ran, the first EXECUTE
        # of it fails as a lost session does, and it is prepared again after.)
        preparing: list[tuple[str, list]] = []
        sent = []
        for _, shape, params, _ in group:
            if isinstance(shape, str):
                sent.append((shape, params))
                continue
            if new_in_session(connection, shape.name):
                preparing.append((shape.prepare, []))
            sent.append((shape.execute, params))
        found = send_together(connection, preparing + sent)[len(preparing):]
        for (_, _, _, then), rows in zip(group, found, strict=True):
            if then is not None:
                then(rows)


def _execute(connection: Any, shape: _Shape, params: list[Any],
             then: Callable[[list], None] | None = None) -> None:
    statements = getattr(_pending, "statements", None)
    if statements is not None:
        statements.append((connection, shape, params, then))
    else:
        _send([(connection, shape, params, then)])


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
    shape = _update_shape(model, tuple(fields), len(rows), alias)
    params: list[Any] = []
    for row in rows:
        for column in shape.columns:
            params.append(column.get_db_prep_save(getattr(row, column.attname), connection))
    _execute(connection, shape, params)


# The statements' SQL, made once for each model, set of fields and number of rows (a
# resolution writes the same few shapes every time; a sweep's batches, a few more).
@functools.lru_cache(maxsize=512)
def _update_shape(model: type[Model], fields: tuple[str, ...], count: int, alias: str
                  ) -> _Shape:
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
    return _Shape.of(f"UPDATE {quote(meta.db_table)} AS t SET {assignments} "
                     f"FROM (VALUES {values}) AS v ({names}) "
                     f"WHERE t.{quote(pk.column)} = v.{quote(pk.column)}", columns)


@functools.lru_cache(maxsize=512)
def _insert_shape(model: type[Model], count: int, alias: str) -> _Shape:
    meta = model._meta
    pk = meta.pk
    columns = [column for column in meta.concrete_fields if column is not pk]
    quote = connections[alias].ops.quote_name
    placeholders = f"({', '.join(['%s'] * len(columns))})"
    return _Shape.of(f"INSERT INTO {quote(meta.db_table)} "
                     f"({', '.join(quote(column.column) for column in columns)}) "
                     f"VALUES {', '.join([placeholders] * count)} RETURNING {quote(pk.column)}",
                     columns)


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
    shape = _insert_shape(model, len(rows), alias)
    params: list[Any] = []
    for row in rows:
        for column in shape.columns:
            params.append(column.get_db_prep_save(column.pre_save(row, True), connection))

    def inserted(ids: list) -> None:
        for row, (pk_value,) in zip(rows, ids, strict=True):
            setattr(row, pk.attname, pk_value)
            row._state.adding = False
            row._state.db = alias
        if then is not None:
            then()

    _execute(connection, shape, params, inserted)
