"""Emptying the database after a test that commits (Django's TransactionTestCase, which
pytest-django uses for ``django_db(transaction=True)``: the browser, live-server and
integration tests), without making again what the migrations made.

Django empties every table, then sends ``post_migrate`` to make the content types, the
permissions and the Moderator group again: about 0.1 s a test, most of it that signal. Here
those four tables (KEPT) are left as they are when the test left them as it found them (their
whole contents compared with what they held after the last full emptying), and only the
other tables are emptied. A test that changed one of them (made a group, gave a permission)
gets Django's full emptying and the signal, as before.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connections
from django.test import TransactionTestCase

KEPT = ("django_content_type", "auth_permission", "auth_group", "auth_group_permissions")

# The database alias -> KEPT's contents after its last full emptying (and post_migrate).
_made: dict[str, tuple[Any, ...]] = {}
_django_teardown = TransactionTestCase._fixture_teardown


def _contents(connection: Any) -> tuple[Any, ...]:
    with connection.cursor() as cursor:
        found = []
        for table in KEPT:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)} ORDER BY 1")
            found.append(tuple(cursor.fetchall()))
    return tuple(found)


def _fixture_teardown(self: TransactionTestCase) -> None:
    if self.available_apps is not None or self.serialized_rollback:
        _django_teardown(self)  # (no test here uses either: Django's own way for them)
        return
    for alias in self._databases_names(include_mirrors=False):
        connection = connections[alias]
        if alias in _made and _contents(connection) == _made[alias]:
            tables = [name for name in connection.introspection.django_table_names(
                only_existing=True, include_views=False) if name not in KEPT]
            connection.ops.execute_sql_flush(
                connection.ops.sql_flush(no_style(), tables, reset_sequences=False))
            continue
        call_command("flush", verbosity=0, interactive=False, database=alias,
                     reset_sequences=False)
        _made[alias] = _contents(connection)


TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]
