"""The outbox relay: queues the dispatch of outbox rows as their transactions commit.

On PostgreSQL a trigger on the outbox (``durable/migrations/0002_outbox_on_the_queue.py``)
notifies channel ``durable_outbox`` at each commit that wrote rows, listing them
(``kind:id,kind:id``; ``*`` when the list is too long for a notification's payload). The
relay listens and queues their dispatch (``outbox.dispatch``: one task per Celery queue), so
the transactions that write them (a resolution, a new match, an order, a message) publish
nothing themselves, and a notification is sent only if its transaction committed.

Every Celery worker runs a relay in its main process (``portal/celery.py``); one leads,
holding a PostgreSQL advisory lock on its own connection, and the others wait for it to go
away (a dead worker's connection ends, and its lock with it). On taking the lead, after it
started listening, a relay catches up (``outbox_catch_up``): it queues every undone row nobody
holds, a batch at a time, up to the newest row when it started (a later one is notified), so
rows written while no relay listened go out at once, not after the sweeper's grace time. A
notification it could not queue (the broker down) leaves its rows undone for the outbox
sweeper, as a lost message would.
"""

from __future__ import annotations

import logging
import threading
import time

import psycopg
from django.conf import settings
from django.db import connection

from durable.outbox import dispatch, outbox_catch_up

logger = logging.getLogger(__name__)

CHANNEL = "durable_outbox"
# The advisory lock the leading relay holds (any fixed number; this one spells "relay").
LEAD_LOCK = 0x72656C6179


def relay_pairs(payload: str) -> list[tuple[int, str]] | None:
    """The (id, kind) pairs a notification lists; None for ``*`` (look for undone rows)."""
    if payload.strip() == "*":
        return None
    pairs = []
    for item in payload.split(","):
        kind, _, pk = item.strip().partition(":")
        if kind and pk.isdigit():
            pairs.append((int(pk), kind))
    return pairs


class Relay:
    """The relay's thread. ``start`` returns at once; ``stop`` ends it within a second or
    so. ``leading`` is set while this relay leads (and listens)."""

    def __init__(self) -> None:
        self.leading = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox-relay", daemon=True)

    def start(self) -> Relay:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._serve()
            except Exception:  # the database or the broker went away: start again
                logger.exception("outbox relay: failed; starting again in a second")
                self._stop.wait(1)
            finally:
                self.leading.clear()

    def _serve(self) -> None:
        params = connection.get_connection_params()
        keep = ("dbname", "user", "password", "host", "port", "sslmode", "options")
        with psycopg.connect(**{k: v for k, v in params.items() if k in keep and v},
                             autocommit=True, application_name="outbox relay") as conn:
            while not conn.execute("SELECT pg_try_advisory_lock(%s)",
                                   [LEAD_LOCK]).fetchone()[0]:
                if self._stop.wait(settings.OUTBOX_RELAY_RETRY_SECONDS):
                    return
            conn.execute(f"LISTEN {CHANNEL}")
            logger.info("outbox relay: leading")
            self._catch_up()
            self.leading.set()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=1.0):
                    pairs = relay_pairs(note.payload)
                    if pairs is None:
                        self._catch_up()
                    elif pairs:
                        dispatch(pairs, now=True)

    def _catch_up(self) -> None:
        """Queue every undone row nobody holds (written while no relay listened), in batches
        until none is left."""
        started = time.monotonic()
        try:
            queued = outbox_catch_up()
        finally:
            connection.close()  # this thread's Django connection: not kept between catch-ups
        if queued:
            logger.info("outbox relay: queued %s undone row(s) nobody held in %.2f s", queued,
                        time.monotonic() - started)


def relay_start() -> Relay | None:
    """Start this process's relay, if the outbox is relayed here (PostgreSQL, OUTBOX_RELAY)."""
    if not settings.OUTBOX_RELAY or connection.vendor != "postgresql":
        return None
    return Relay().start()
