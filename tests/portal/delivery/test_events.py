"""The one table of events and consumers (portal/delivery/events.py) is what is connected, and
what docs/delivery.md shows."""

from __future__ import annotations

from pathlib import Path

from portal.delivery import events

# Receivers of the lifecycle's signals that send nothing anywhere (bookkeeping, not a way out).
NOT_DELIVERIES = {"competitions.receivers.on_match_ended"}


def connected(signal) -> set[str]:
    sync, asynchronous = signal._live_receivers(None)
    return {f"{r.__module__}.{r.__qualname__}" for r in [*sync, *asynchronous]}


def test_the_connected_receivers_are_the_tables_consumers():
    signals = {event.signal for event in events.EVENTS if event.signal}
    for path in signals:
        table = {consumer for event in events.EVENTS if event.signal == path
                 for consumer in event.consumers.values()}
        assert connected(events.resolve(path)) - NOT_DELIVERIES == table, path


def test_every_lifecycle_signal_is_in_the_table():
    from games.signals import BY_NAME

    in_table = {events.resolve(event.signal) for event in events.EVENTS if event.signal}
    assert all(signal in in_table for signal in BY_NAME.values())


def test_events_made_by_beat_name_tasks_beat_runs(settings):
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    for event in events.EVENTS:
        if not event.signal:
            assert set(event.consumers.values()) <= scheduled, event.key


def test_every_consumer_is_a_known_channel_and_importable():
    for event in events.EVENTS:
        assert set(event.consumers) <= set(events.CHANNELS), event.key
        for path in event.consumers.values():
            assert callable(events.resolve(path)), path


def test_connecting_again_connects_nothing_twice():
    from games.signals import phase_opened

    before = connected(phase_opened)
    count = len(phase_opened.receivers)
    events.connect()
    assert connected(phase_opened) == before and len(phase_opened.receivers) == count


def test_the_docs_show_the_table_as_it_is():
    doc = (Path(__file__).resolve().parents[3] / "docs" / "delivery.md").read_text()
    assert events.as_markdown() in doc, (
        "docs/delivery.md's event table is stale: paste portal.delivery.events.as_markdown()")
