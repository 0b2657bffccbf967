"""The delivery pipeline with a toy channel (rows of the mail table, answers chosen by the
test): the claim, the lease, back-off and Retry-After, gone, failed after the last attempt,
results recorded as they come (a time to live: tests/portal/push/test_outbox.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from durable import queue
from durable.queue import SENT, Result
from portal.delivery import pipeline
from portal.mail.models import OutgoingEmail

pytestmark = pytest.mark.django_db


class Toy(pipeline.Channel):
    """Answers what ``answers`` says for a row's recipient (sent by default) and keeps what
    it was given."""

    name = "toy"
    model = OutgoingEmail

    def __init__(self) -> None:
        self.answers: dict[str, Result] = {}
        self.batches: list[list[str]] = []
        self.gone_to: list[str] = []
        self.die_after: int | None = None

    def send(self, rows):
        self.batches.append([row.to for row in rows])
        for n, row in enumerate(rows):
            if self.die_after is not None and n == self.die_after:
                raise SystemExit("the worker was killed")  # (not an Exception: nothing caught)
            yield row.pk, self.answers.get(row.to, SENT)

    def gone(self, rows):
        self.gone_to += [row.to for row in rows]


@pytest.fixture
def toy(settings):
    settings.TOY_MAX_ATTEMPTS = 3
    settings.TOY_RETRY_BASE_SECONDS = 10
    settings.TOY_MAX_BACKOFF_SECONDS = 25
    settings.TOY_LEASE_SECONDS = 60
    channel = queue.register(Toy())
    yield channel
    queue.unregister("toy")


def row(to: str, key: str | None = None) -> OutgoingEmail | None:
    return pipeline.deliver("toy", dedupe_key=key or to, kind="digest", to=to, subject="s",
                            body_text="b")


def status(to: str) -> OutgoingEmail:
    return OutgoingEmail.objects.get(to=to)


def test_a_row_is_queued_once_per_dedupe_key_and_sent_once(toy):
    assert row("a", key="k") is not None
    assert row("b", key="k") is None
    assert pipeline.flush("toy") == 1
    assert pipeline.flush("toy") == 0
    assert toy.batches == [["a"]]
    sent = status("a")
    assert (sent.status, sent.attempts, sent.next_attempt_at) == ("sent", 1, None)
    assert sent.sent_at is not None


def test_one_flush_is_queued_per_transaction_and_channel(toy, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        for n in range(5):
            row(f"r{n}")
    assert [(c.task_name, c.kwargs) for c in callbacks] == [
        ("portal.delivery.tasks.deliver_due", {"channel": "toy"})]


def test_a_claimed_row_is_not_claimed_again_until_its_lease_runs_out(toy):
    row("a")
    [claimed] = toy.claim()
    assert claimed.status == "sending" and claimed.attempts == 1
    assert toy.claim() == []  # another worker: nothing to take
    later = timezone.now() + timedelta(seconds=61)
    [again] = toy.claim(now=later)  # the first worker died: its lease ran out
    assert again.pk == claimed.pk and again.attempts == 2


def test_a_worker_killed_mid_batch_resends_only_what_it_had_not_recorded(toy):
    for name in "abcd":
        row(name)
    toy.die_after = 2
    with pytest.raises(SystemExit):
        pipeline.send_batch(toy)
    assert [status(n).status for n in "abcd"] == ["sent", "sent", "sending", "sending"]
    toy.die_after = None
    assert pipeline.flush("toy") == 0  # their lease holds
    OutgoingEmail.objects.filter(status="sending").update(
        sending_since=timezone.now() - timedelta(seconds=61))
    assert pipeline.sweep()["toy"] == 2
    assert pipeline.flush("toy") == 2
    assert toy.batches[-1] == ["c", "d"]
    assert [status(n).status for n in "abcd"] == ["sent"] * 4


def test_a_retry_backs_off_doubling_up_to_the_cap_then_fails_after_the_last_attempt(toy):
    toy.answers["a"] = Result("retry", error="busy", response_status=421)
    row("a")
    delays = []
    for _ in range(3):
        before = timezone.now()
        counts = pipeline.send_batch(toy)
        got = status("a")
        if got.status == "retry":
            delays.append(round((got.next_attempt_at - before).total_seconds()))
            OutgoingEmail.objects.filter(pk=got.pk).update(next_attempt_at=timezone.now())
    assert delays == [10, 20]
    assert counts["failed"] == 1
    failed = status("a")
    assert (failed.status, failed.attempts, failed.response_status) == ("failed", 3, 421)
    assert failed.last_error == "busy" and failed.next_attempt_at is None
    assert toy.backoff_seconds(3) == 25  # the cap


def test_retry_after_is_honoured_and_a_not_due_row_is_left_alone(toy):
    toy.answers["a"] = Result("retry", retry_after=300)
    row("a")
    before = timezone.now()
    pipeline.send_batch(toy)
    due = status("a").next_attempt_at - before
    assert timedelta(seconds=299) <= due <= timedelta(seconds=301)
    assert pipeline.flush("toy") == 0 and len(toy.batches) == 1


def test_a_failed_row_fails_at_once_and_can_be_requeued(toy):
    toy.answers["a"] = Result("failed", error="no such user", response_status=550)
    row("a")
    assert pipeline.send_batch(toy)["failed"] == 1
    assert status("a").status == "failed"
    del toy.answers["a"]
    assert pipeline.requeue("toy", [status("a").pk]) == 1
    assert pipeline.flush("toy") == 1


def test_gone_rows_are_handed_to_the_channel(toy):
    toy.answers["a"] = Result("gone", response_status=410)
    row("a")
    row("b")
    assert pipeline.send_batch(toy) == {"sent": 1, "gone": 1, "retry": 0, "failed": 0,
                                        "expired": 0}
    assert toy.gone_to == ["a"]
    assert status("a").status == "failed"


def test_a_batch_that_raises_retries_its_unrecorded_rows(toy):
    row("a")

    def broken(rows):
        raise ConnectionError("the server went away")

    toy.send = broken
    assert pipeline.send_batch(toy)["retry"] == 1
    assert "ConnectionError" in status("a").last_error

