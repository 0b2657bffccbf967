"""durable.sweep: one sweeper for every kind of durable work a crash can leave behind, one beat
entry for it; each kind swept once per its interval, a failing kind not keeping the others'."""

import pytest
from django.conf import settings
from django.core.cache import cache

from durable import queue
from durable import sweep as sweeper
from durable.tasks import sweep as sweep_task


def test_every_kind_of_durable_work_is_swept_from_one_beat_entry():
    # every kind is a queue of durable work (durable.queue), swept by its rows
    assert set(sweeper.kinds()) == set(queue.QUEUES) == {"outbox", "mail", "push", "webhook"}
    sweeps = [name for name in settings.CELERY_BEAT_SCHEDULE if "sweep" in name]
    assert sorted(sweeps) == ["competitions-sweep", "sweep-deadlines", "sweep-durable-work",
                              "sweep-reliability"]
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-durable-work"]
    assert entry["task"] == sweep_task.name
    assert entry["schedule"] == min(kind.every() for kind in sweeper.kinds().values())


@pytest.fixture
def kinds(monkeypatch):
    """The registry holding only the kinds a test registers; the cache's marks cleared."""
    monkeypatch.setattr(sweeper, "_KINDS", {})
    cache.clear()
    yield
    cache.clear()


def test_each_kind_runs_once_per_its_interval_and_a_failure_stops_no_other(kinds):
    runs = []

    def failing():
        runs.append("failing")
        raise RuntimeError("the database went away")

    sweeper.sweep_register("often", lambda: runs.append("often") or 1, every=lambda: 1)
    sweeper.sweep_register("failing", failing, every=lambda: 3600)
    sweeper.sweep_register("rarely", lambda: runs.append("rarely") or 2, every=lambda: 3600)
    assert sweeper.sweep() == {"often": 1, "rarely": 2}  # (the failing one logged)
    assert runs == ["often", "failing", "rarely"]
    assert sweeper.sweep() == {}  # nothing due yet
    cache.delete("durable:sweep:often")  # (its second went by)
    assert sweeper.sweep() == {"often": 1}
    assert sweeper.sweep(due_only=False) == {"often": 1, "rarely": 2}
    assert runs.count("failing") == 2


@pytest.mark.django_db
def test_the_task_sweeps_the_registered_kinds():
    cache.clear()
    done = sweep_task()
    assert set(done) == set(sweeper.kinds())
    assert sweep_task() == {}  # (each again only once its interval has passed)
