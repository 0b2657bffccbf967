"""Writing many rows' changes in one statement, cheaply.

Django's ``bulk_update`` builds a ``CASE WHEN id = … THEN …`` expression per field and row;
for a sweep's batch of fifty matches that expression tree cost more than the whole
resolution. On PostgreSQL ``rows_update`` sends one ``UPDATE … FROM (VALUES …)`` instead:
one row of parameters per model row, each cast to its column's type. Elsewhere (the embedded
SQLite default) it is ``bulk_update``.
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
    if len(rows) == 1:
        rows[0].save(update_fields=list(fields))
        return
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
