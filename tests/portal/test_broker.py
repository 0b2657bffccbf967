"""The embedded default's folder broker (portal.broker): a reader never takes a message its
writer has not finished, and an unreadable file does not stop the worker."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from kombu import Connection, Exchange, Queue

import portal.broker


@pytest.fixture
def folders(tmp_path):
    return {"data_folder_in": str(tmp_path / "broker"), "data_folder_out": str(tmp_path / "broker"),
            "processed_folder": str(tmp_path / "processed"), "store_processed": False,
            "control_folder": str(tmp_path / "control")}


def connection(folders, transport="portal.broker:Transport"):
    Path(folders["data_folder_in"]).mkdir(parents=True, exist_ok=True)
    return Connection("filesystem://localhost/", transport=transport, transport_options=folders)


def test_the_embedded_default_uses_this_transport_without_remote_control():
    if not settings.CELERY_BROKER_URL.startswith("filesystem://"):
        pytest.skip("the tests run on Redis here")
    assert settings.CELERY_BROKER_TRANSPORT == "portal.broker:Transport"
    assert settings.CELERY_WORKER_ENABLE_REMOTE_CONTROL is False


def test_a_message_being_written_is_not_seen_by_a_reader(folders, monkeypatch):
    """The worker died (JSONDecodeError: Expecting value) when it listed the folder between
    kombu creating a message's file and writing into it. Here a reader looks in at that very
    moment (while the writer serialises the message): it finds nothing, then the whole
    message."""
    queue = Queue("q", Exchange("q"), "q")
    seen_while_writing = []
    with connection(folders) as reader, connection(folders) as writer:
        reading = reader.channel()
        real_dumps = portal.broker.dumps

        def dumps_while_reader_looks(payload):
            try:
                seen_while_writing.append(reading.basic_get("q"))
            except Exception as error:  # the old transport: an empty file read as JSON
                seen_while_writing.append(error)
            return real_dumps(payload)

        monkeypatch.setattr(portal.broker, "dumps", dumps_while_reader_looks)
        monkeypatch.setattr("kombu.transport.filesystem.dumps", dumps_while_reader_looks)
        writer.Producer(writer.channel()).publish(
            {"move": "a1"}, exchange=queue.exchange, routing_key="q", declare=[queue])
        reading.queue_declare("q")
        message = reading.basic_get("q")
    assert seen_while_writing and all(seen is None for seen in seen_while_writing)
    assert message is not None and message.payload == {"move": "a1"}


def test_an_unreadable_message_file_is_set_aside_and_the_next_one_read(folders, tmp_path):
    # (names of its own: kombu's virtual exchanges live on in the process between tests)
    queue = Queue("q2", Exchange("q2"), "q2")
    with connection(folders) as conn:
        conn.Producer(conn.channel()).publish({"n": 2}, exchange=queue.exchange, routing_key="q2",
                                declare=[queue])
        (tmp_path / "broker" / "0_broken.q2.msg").write_bytes(b'{"half": ')
        channel = conn.channel()
        message = channel.basic_get("q2")
    assert message is not None and message.payload == {"n": 2}
    assert [p.name for p in (tmp_path / "processed" / "rejected").iterdir()] == [
        "0_broken.q2.msg"]
