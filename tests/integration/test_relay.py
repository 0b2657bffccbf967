"""The outbox relay (games/relay.py): PostgreSQL notifies it at each commit that wrote outbox
rows, and it queues their dispatch on the real broker; one relay leads, and a new leader
queues what was written while none listened. (The workers of the other integration tests
run it: their resolutions publish nothing, and their mails come through it.)"""

from __future__ import annotations

import time

import psycopg
import pytest
from celery import current_app
from django.db import connection, transaction

from durable.models import OutboxEvent
from durable.outbox import outbox_write, task_event
from durable.relay import Relay, relay_pairs
from games.services.queue import LIFECYCLE_QUEUE, signal_event
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def events(count: int = 1) -> list[tuple]:
    return [signal_event("phase_resolved", None, match_id=0, phase_number=0, finished=False)
            for _ in range(count)] + [task_event("games.tasks.reliability_sweep", None)]


def listening() -> psycopg.Connection:
    params = connection.get_connection_params()
    conn = psycopg.connect(**{key: params[key] for key in ("dbname", "user", "host", "port")
                              if params.get(key)}, autocommit=True)
    conn.execute("LISTEN durable_outbox")
    return conn


def heard(conn: psycopg.Connection, timeout: float = 1.0) -> list[str]:
    return [note.payload for note in conn.notifies(timeout=timeout)]


def queued(queue: str, wanted: set[int], timeout: float = 15) -> set[int]:
    """Take messages off ``queue`` until its outbox dispatches hold every id of ``wanted``
    (or the time is up); the ids they held."""
    seen: set[int] = set()
    end = time.monotonic() + timeout
    with current_app.connection_for_read() as conn:
        received = conn.SimpleQueue(queue)
        try:
            while not wanted <= seen and time.monotonic() < end:
                try:
                    message = received.get(timeout=0.5)
                except received.Empty:
                    continue
                message.ack()
                if message.headers.get("task") == "durable.tasks.outbox_dispatch":
                    seen |= set(message.payload[1]["ids"])
        finally:
            received.close()
    return seen


def test_a_commit_that_writes_outbox_rows_notifies_them_and_a_rollback_does_not():
    conn = listening()
    try:
        with transaction.atomic():
            outbox_write(events())
            assert heard(conn, 0.3) == []  # nothing before the commit
        rows = OutboxEvent.objects.order_by("pk")
        assert heard(conn) == [",".join(f"{row.kind}:{row.pk}" for row in rows)]
        assert relay_pairs(f"signal:{rows[0].pk},task:{rows[1].pk}") == [
            (rows[0].pk, "signal"), (rows[1].pk, "task")]

        with pytest.raises(RuntimeError), transaction.atomic():
            outbox_write(events())
            raise RuntimeError("rolled back")
        assert heard(conn) == []

        with transaction.atomic():  # too many for a notification's payload: "look for them"
            outbox_write(events(800))
        assert heard(conn) == ["*"] and relay_pairs("*") is None
    finally:
        conn.close()


def test_one_relay_leads_it_queues_each_commit_and_a_new_leader_catches_up(settings):
    settings.OUTBOX_RELAY = True
    settings.OUTBOX_RELAY_RETRY_SECONDS = 0.2
    first = Relay().start()
    second = Relay().start()
    relays = [first, second]
    try:
        wait_until(lambda: first.leading.is_set() or second.leading.is_set(), 15,
                   "a relay leading")
        leader, other = (first, second) if first.leading.is_set() else (second, first)
        with transaction.atomic():
            outbox_write(events())
        signal, task = OutboxEvent.objects.order_by("pk")
        assert signal.pk in queued("celery", {signal.pk})
        assert task.pk in queued(LIFECYCLE_QUEUE, {task.pk})
        assert not other.leading.is_set()  # one leader, one relay per commit

        leader.stop()
        wait_until(other.leading.is_set, 15, "the other relay taking the lead")
        other.stop()
        with transaction.atomic():  # nobody listens
            outbox_write(events())
        late = OutboxEvent.objects.filter(pk__gt=task.pk)
        signals = set(late.filter(kind="signal").values_list("pk", flat=True))
        tasks = set(late.filter(kind="task").values_list("pk", flat=True))
        relays.append(third := Relay().start())
        wait_until(third.leading.is_set, 15, "a new relay leading")
        assert queued("celery", signals) >= signals
        assert queued(LIFECYCLE_QUEUE, tasks) >= tasks
    finally:
        for relay in relays:
            relay.stop()
