"""The Celery app. Configured from Django settings (keys prefixed CELERY_)."""

import gc
import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from celery import Celery, bootsteps
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready
from kombu.transport import redis as kombu_redis
from kombu.transport import virtual as kombu_virtual

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

logger = logging.getLogger(__name__)


class _TolerantRestoreQoS(kombu_redis.QoS):
    """kombu's Redis QoS, except that putting back, acknowledging or rejecting the messages
    of a channel whose connection is already gone does not raise. When Redis vanishes while
    a worker runs a task, Celery closes the consumer's connection and the channel restores
    the task's message on its way out; in a race the transport has been closed first and
    kombu's restore dies on ``None.hostname`` (AttributeError, not a connection error), which
    Celery treats as unrecoverable: the worker exits and nothing is resolved once Redis is
    back (tests/integration/test_outages.py). Giving up loses nothing a restore could save:
    if Redis kept the message, its visibility timeout brings it back; if Redis restarted
    empty it is gone either way, and the lifecycle's sweepers redo its work."""

    def restore_unacked(self, client: object = None) -> None:
        try:
            super().restore_unacked(client)
        except AttributeError:
            logger.warning("broker connection closed before %s unacknowledged message(s) "
                           "could be restored (the visibility timeout or the sweepers take over)",
                           len(self._delivered))
            self._delivered.clear()

    def ack(self, delivery_tag: object) -> None:
        """The same race when a task (``acks_late``) finishes as Redis goes away: its ack
        found the channel's pool gone and died on ``None.client`` in kombu, and the worker
        with it. Forgetting the message here is what a lost ack would do: if Redis kept it,
        it comes back after its visibility timeout and the task (idempotent) finds its
        work done."""
        try:
            super().ack(delivery_tag)
        except AttributeError:
            self._gone("acknowledged", delivery_tag)

    def reject(self, delivery_tag: object, requeue: bool = False) -> None:
        try:
            super().reject(delivery_tag, requeue)
        except AttributeError:
            self._gone("rejected", delivery_tag)

    def _gone(self, what: str, delivery_tag: object) -> None:
        logger.warning("broker connection closed before a message could be %s (the "
                       "visibility timeout or the sweepers take over)", what)
        kombu_virtual.QoS.ack(self, delivery_tag)  # (forget it here; nothing sent)


kombu_redis.Channel.QoS = _TolerantRestoreQoS


@contextmanager
def _one_client_per_pool(self: kombu_redis.Channel, client: object = None) -> Iterator[object]:
    """kombu's ``Channel.conn_or_acquire``, keeping the Redis client it makes: kombu made a new
    client for every message published, and redis-py copies its table of response callbacks
    into each (about a quarter of a millisecond of a resolution's publish). A client is only
    a handle on the channel's connection pool and safe to share; a new pool (after a
    reconnection) gets a new one."""
    if client:
        yield client
        return
    kept = self.__dict__.get("_kept_client")
    if kept is None or kept.connection_pool is not self.pool:
        kept = self.__dict__["_kept_client"] = self._create_client()
    yield kept


kombu_redis.Channel.conn_or_acquire = _one_client_per_pool

class _DjangoSettings(Mapping):
    """Django's ``CELERY_`` settings, copied into a dict the first time Celery reads its
    configuration. Celery looks up several settings for every message it publishes (each
    resolution publishes one), and each lookup through Django's lazy settings object took
    two ``getattr`` calls through its proxy. Changing a ``CELERY_`` setting afterwards (as
    ``override_settings`` would) does not reach Celery: change ``app.conf`` instead, as the
    tests do."""

    def __init__(self) -> None:
        self._values: dict[str, object] | None = None

    def _loaded(self) -> dict[str, object]:
        if self._values is None:
            from django.conf import settings

            self._values = {name: getattr(settings, name) for name in dir(settings)
                            if name.startswith("CELERY_")}
        return self._values

    def __getitem__(self, key: str) -> object:
        return self._loaded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


app = Celery("portal")
app.config_from_object(_DjangoSettings(), namespace="CELERY")
app.autodiscover_tasks()


class OutboxRelay(bootsteps.StartStopStep):
    """The outbox relay (``durable/relay.py``) in the worker's main process, started after the
    pool (so no child is forked with its connection open) and stopped with the worker."""

    requires = {"celery.worker.components:Pool"}

    def __init__(self, worker: object, **kwargs: object) -> None:
        self.relay = None

    def start(self, worker: object) -> None:
        from durable.relay import relay_start

        self.relay = relay_start()

    def stop(self, worker: object) -> None:
        if self.relay is not None:
            self.relay.stop()


app.steps["worker"].add(OutboxRelay)


@worker_process_init.connect  # each prefork child
@worker_ready.connect  # the solo pool's one process
def freeze_startup_objects(**kwargs: object) -> None:
    """Keep start-up objects out of garbage collection: it cut p99 action time from 57 to 27 ms."""
    gc.collect()
    gc.freeze()


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(task: object = None, **kwargs: object) -> None:
    """What Django does around each request: close a connection that is broken or older than
    CONN_MAX_AGE, keep the others (settings.CELERY_DB_REUSE_MAX keeps Celery's own fixup from
    closing every connection around every task). Not for a task run eagerly, inline in its
    caller's transaction."""
    from django.db import close_old_connections

    if getattr(getattr(task, "request", None), "is_eager", False):
        return
    close_old_connections()
