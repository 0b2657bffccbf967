"""Writing many rows (or one) in one statement, cheaply.

Django's ``bulk_update`` builds a ``CASE WHEN id = … THEN …`` expression per field and row;
for a sweep's batch of fifty matches that expression tree cost more than the whole
resolution. On PostgreSQL ``rows_update`` sends one ``UPDATE … FROM (VALUES …)`` instead:
one row of parameters per model row, each cast to its column's type, and ``rows_insert`` one
``INSERT … VALUES … RETURNING`` id. Both skip Django's query compiler, which costs more than
the statement itself for the resolution's few rows (about half a millisecond each). Elsewhere
(the embedded SQLite default) they are ``bulk_update`` and ``bulk_create``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Model


def rows_update(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Save ``fields`` of ``rows`` (instances of one model, already in the database) in one
    statement (a plain UPDATE for a single row)."""
    if not rows:
        return
    model = type(rows[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        model.objects.using(alias).bulk_update(rows, list(fields))
        return
    meta = model._meta
    pk = meta.pk
    columns = [pk] + [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    casts = [f"%s::{column.cast_db_type(connection)}" for column in columns]
    values = ", ".join(f"({', '.join(casts)})" for _ in rows)
    params: list[Any] = []
    for row in rows:
        for column in columns:
            params.append(column.get_db_prep_save(getattr(row, column.attname), connection))
    names = ", ".join(quote(column.column) for column in columns)
    assignments = ", ".join(f"{quote(column.column)} = v.{quote(column.column)}"
                            for column in columns[1:])
    sql = (f"UPDATE {quote(meta.db_table)} AS t SET {assignments} "
           f"FROM (VALUES {values}) AS v ({names}) "
           f"WHERE t.{quote(pk.column)} = v.{quote(pk.column)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def rows_insert(rows: Sequence[Model]) -> None:
    """Insert ``rows`` (new instances of one model, with an auto primary key) in one statement,
    as ``bulk_create`` does: each field's ``pre_save`` value, and the new ids set on them."""
    if not rows:
        return
    model = type(rows[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        model.objects.using(alias).bulk_create(rows)
        return
    meta = model._meta
    pk = meta.pk
    columns = [column for column in meta.concrete_fields if column is not pk]
    quote = connection.ops.quote_name
    placeholders = f"({', '.join(['%s'] * len(columns))})"
    params: list[Any] = []
    for row in rows:
        for column in columns:
            params.append(column.get_db_prep_save(column.pre_save(row, True), connection))
    sql = (f"INSERT INTO {quote(meta.db_table)} "
           f"({', '.join(quote(column.column) for column in columns)}) "
           f"VALUES {', '.join([placeholders] * len(rows))} RETURNING {quote(pk.column)}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = cursor.fetchall()
    for row, (pk_value,) in zip(rows, ids, strict=True):
        setattr(row, pk.attname, pk_value)
        row._state.adding = False
        row._state.db = alias
