"""The Celery tasks: registered under the names beat and the services use, acks_late, and
each one a thin, idempotent wrapper over its service (run here in-process, as a worker would)."""

import importlib
import uuid

import pytest
from celery import current_app
from django.conf import settings

from durable.worker import Enqueue
from games import services, tasks
from games.models import Phase, Submission

pytestmark = pytest.mark.django_db

NAMES = ["games.tasks.resolve_phase", "games.tasks.deadlines_sweep", "games.tasks.bot_submit"]


@pytest.mark.parametrize("name", NAMES)
def test_tasks_are_registered_with_late_acks(name):
    task = current_app.tasks[name]
    assert task.acks_late and task.reject_on_worker_lost


def test_beat_schedule_names_registered_tasks():
    """Every scheduled name exists once its module is imported (as the worker's autodiscovery
    does) — a typo in the schedule would otherwise fail silently every few seconds."""
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        importlib.import_module(entry["task"].rsplit(".", 1)[0])
        assert entry["task"] in current_app.tasks


def test_resolve_phase_task_resolves_once(toy_duel):
    match = toy_duel()
    for seat, user in ((1, match.alice), (2, match.bob)):
        services.orders_submit(match_id=match.pk, seat_number=seat, user=user, phase_number=1,
                               data={"number": seat}, source="web")
    assert tasks.resolve_phase(match.pk, 1) is True
    assert tasks.resolve_phase(match.pk, 1) is False
    assert tasks.resolve_phase(987654, 1) is False  # a match deleted meanwhile: a no-op
    assert Phase.objects.filter(match=match).count() == 2


def test_bot_submit_task_is_idempotent(make_user):
    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=1,
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    assert tasks.bot_submit(match.pk, 2, 1) is True
    assert tasks.bot_submit(match.pk, 2, 1) is False
    assert Submission.objects.filter(source="bot").count() == 1


def test_eager_mode_runs_queued_tasks_inline(toy_duel, settings):
    """The embedded default may run tasks eagerly: Enqueue goes through apply_async."""
    match = toy_duel()
    for seat, user in ((1, match.alice), (2, match.bob)):
        services.orders_submit(match_id=match.pk, seat_number=seat, user=user, phase_number=1,
                               data={"number": seat}, source="web")
    current_app.conf.task_always_eager = True
    try:
        assert Enqueue("games.tasks.resolve_phase", match_id=match.pk, phase_number=1)()
    finally:
        current_app.conf.task_always_eager = False
    assert Phase.objects.get(match=match, number=1).status == "resolved"


def test_a_queued_task_is_the_message_apply_async_would_send():
    """Enqueue builds its message from Celery's own parts (cheaper than apply_async): a
    worker receives what apply_async would have sent, on the queue asked for."""
    queue = f"test-publish-{uuid.uuid4().hex}"
    kwargs = {"ids": [3, 4]}
    assert Enqueue("durable.tasks.outbox_dispatch", queue=queue, **kwargs)()
    current_app.tasks["durable.tasks.outbox_dispatch"].apply_async(
        kwargs=kwargs, queue=queue, argsrepr="()", kwargsrepr=repr(kwargs))
    with current_app.connection_for_read() as connection:
        received = connection.SimpleQueue(queue)
        try:
            ours, celerys = received.get(timeout=10), received.get(timeout=10)
            for message in (ours, celerys):
                message.ack()
        finally:
            received.queue.delete()
            received.close()

    def same(headers):
        return {key: value for key, value in headers.items() if key not in ("id", "root_id")}

    assert same(ours.headers) == same(celerys.headers)
    assert ours.headers["id"] == ours.headers["root_id"] != celerys.headers["id"]
    assert ours.headers["task"] == "durable.tasks.outbox_dispatch"
    assert ours.payload == celerys.payload and ours.payload[1] == kwargs
    assert ours.delivery_info["routing_key"] == celerys.delivery_info["routing_key"] == queue
