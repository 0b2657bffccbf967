"""``pipeline.run_ahead``: a batch's sender thread runs a few rows ahead of the records, and
the caller gets what was sent in groups. Real threads; the sender here is a generator whose
pace the test sets with events."""

from __future__ import annotations

import threading
import time

import pytest

from portal.delivery.pipeline import run_ahead


def paced(items, started: list, gate: threading.Semaphore | None = None):
    """A sender: notes each item as it starts it, waits for ``gate`` before each if given."""
    def produce():
        for item in items:
            if gate is not None:
                assert gate.acquire(timeout=10)
            started.append(item)
            yield item
    return produce


def test_every_item_arrives_once_in_order():
    started: list[int] = []
    groups = list(run_ahead(paced(range(50), started), name="t", lead=4, gather=0.01))
    assert [item for group in groups for item in group] == list(range(50))
    assert all(1 <= len(group) <= 4 for group in groups)


def test_the_sender_stays_at_most_lead_items_ahead_of_the_caller():
    started: list[int] = []
    ahead = run_ahead(paced(range(20), started), name="t", lead=3)
    first = next(ahead)
    time.sleep(0.2)  # the caller records slowly: the sender fills what it may, then waits
    taken = len(first)
    assert len(started) <= taken + 3
    rest = [item for group in ahead for item in group]
    assert first + rest == list(range(20))


def test_a_group_gathers_what_comes_quickly_and_no_more_than_lead():
    started: list[int] = []
    groups = list(run_ahead(paced(range(12), started), name="t", lead=4, gather=1.0))
    assert [len(group) for group in groups] == [4, 4, 4]


def test_a_slow_sender_hands_over_what_it_has_when_the_gathering_time_is_up():
    """The server keeps the sender waiting at the third row: the first two are handed over
    (to be recorded) without waiting for it."""
    started: list[int] = []
    gate = threading.Semaphore(2)
    ahead = run_ahead(paced(range(4), started, gate), name="t", lead=8, gather=0.05)
    begun = time.monotonic()
    assert next(ahead) == [0, 1]
    assert time.monotonic() - begun < 5
    gate.release()
    gate.release()
    assert [item for group in ahead for item in group] == [2, 3]


def test_an_error_in_the_sender_reaches_the_caller_after_the_items_before_it():
    def produce():
        yield 1
        yield 2
        raise ConnectionError("the line dropped")

    got = []
    with pytest.raises(ConnectionError, match="the line dropped"):
        for group in run_ahead(produce, name="t", lead=4, gather=0.5):
            got += group
    assert got == [1, 2]


def test_leaving_early_stops_the_sender_and_closes_its_generator():
    closed = threading.Event()
    started: list[int] = []

    def produce():
        try:
            for item in range(100):
                started.append(item)
                yield item
        finally:
            closed.set()

    for group in run_ahead(produce, name="t", lead=2):
        assert group
        break
    assert closed.is_set()  # (run_ahead joined its thread before returning)
    assert len(started) <= 2 + 2
    assert not [t for t in threading.enumerate() if t.name == "t-sender"]
