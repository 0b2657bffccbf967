"""The outbox carries out a group's rows of one signal as one batch: the listeners that take many
payloads (``games.signals.receiver_of_many``) read and write for the whole batch in a fixed
number of queries, so a backlog (the relay's catch-up after a failover, issue 35) costs about
a query a row, not ten. What they queue is what they queue one row at a time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

import engine
from durable import outbox
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games import services as games_services
from games.models import Leave, Match
from games.services.reliability import deadline_misses_record, deadline_misses_records
from games.signals import leave_taken, receiver_of_many, send_many
from games.words import say
from portal.mail.models import OutgoingEmail
from portal.mail.services import notify as mail_notify
from portal.push.services import notify as push_notify
from portal.webhooks import notify as webhook_notify

pytestmark = pytest.mark.django_db


@pytest.fixture
def matches(make_user):
    """matches(count) -> ``count`` open Final Act matches of two players each (their first
    phase open), nothing queued yet."""
    made = 0

    def make(count: int) -> list[Match]:
        nonlocal made
        found = []
        for _ in range(count):
            made += 1
            alice, bob = make_user(f"a{made}"), make_user(f"b{made}")
            found.append(games_services.match_create(
                creator=alice, game="final-act", title=f"match {made}", options={},
                hours_per_phase=24, seats=[{"kind": "human", "user": alice},
                                           {"kind": "human", "user": bob}]))
        OutgoingEmail.objects.all().delete()
        return found

    return make


def opened(matches: list[Match]) -> list[dict]:
    return [{"match_id": match.pk, "phase_number": 1} for match in matches]


def counted(call, *args) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        result = call(*args)
    return len(captured), result


def test_a_batch_of_phase_openings_costs_the_queries_of_one(matches):
    one, five = matches(1), matches(5)
    assert counted(mail_notify.phases_opened_notify, opened(one)) == (
        counted(mail_notify.phases_opened_notify, opened(five))[0], 2)
    assert OutgoingEmail.objects.filter(kind="phase_opened").count() == 12
    assert counted(mail_notify.phases_opened_notify, opened(one + five))[1] == 0  # once
    # who wants round reports (nobody here), devices, webhook targets: one query each
    for listener, payloads in ((mail_notify.phases_resolved_notify, opened(five)),
                               (webhook_notify.phases_opened_webhooks, opened(five)),
                               (webhook_notify.phases_resolved_webhooks, opened(five))):
        assert counted(listener, payloads) == (1, 0)
    assert counted(push_notify.phases_opened_push, opened(five))[1] == 0


def test_a_batch_mails_what_each_phase_would_mail_alone(matches):
    played = matches(3)

    def mails() -> list[tuple]:
        found = []
        for mail in OutgoingEmail.objects.order_by("dedupe_key"):
            # (the reply address carries the second it was made: two runs may differ there)
            found.append((mail.dedupe_key, mail.to, mail.subject, mail.match_id,
                          mail.body_text.replace(mail.reply_to, "REPLY"),
                          mail.body_html.replace(mail.reply_to, "REPLY")))
        OutgoingEmail.objects.all().delete()
        return found

    assert mail_notify.phases_opened_notify(opened(played)) == 6
    together = mails()
    for match in played:
        mail_notify.phase_opened_notify(match_id=match.pk, phase_number=1)
    assert mails() == together
    assert len({mail[0] for mail in together}) == 6


def test_missed_deadlines_of_many_resolutions_are_written_as_one_by_one(matches, make_user):
    played = matches(4)
    at = timezone.now()
    away = played[1].seats.get(number=2).user
    Leave.objects.create(user=away, starts_at=at - timedelta(days=1),
                         ends_at=at + timedelta(days=1), days=2)
    payloads = [{"match_id": match.pk, "phase_number": 1, "missed_at": at.isoformat(),
                 "users": {str(seat.number): seat.user_id for seat in match.seats.all()}}
                for match in played]

    def misses() -> set[tuple]:
        from games.models import DeadlineMiss

        found = set(DeadlineMiss.objects.values_list(
            "match_id", "phase_number", "seat_number", "user_id", "excused", "excused_reason"))
        DeadlineMiss.objects.all().delete()
        return found

    queries, written = counted(deadline_misses_records, payloads + payloads[:1])
    assert written == 8 and queries <= 4
    together = misses()
    assert sum(deadline_misses_record(**payload) for payload in payloads) == 8
    assert misses() == together
    excused = {(m, s) for m, _, s, _, excused, _ in together if excused}
    assert excused == {(played[1].pk, 2)}


def test_a_groups_rows_go_in_batches_that_keep_each_matchs_order():
    def row(pk: int, name: str, match: int | None) -> OutboxEvent:
        return OutboxEvent(pk=pk, kind="signal", name=name, series=match)

    rows = [row(1, "phase_resolved", 7), row(2, "phase_opened", 7), row(3, "phase_resolved", 8),
            row(4, "phase_opened", 8), row(5, "phase_opened", 9), row(6, "leave_taken", None),
            row(7, "leave_taken", None), row(8, "phase_resolved", 9)]
    batches = [[r.pk for r in batch] for batch in outbox._batches(rows)]
    assert batches == [[1, 3], [5], [6, 7], [2, 4], [8]]
    for match in (7, 8, 9):  # each match's rows in the order they were written
        order = [pk for batch in batches for pk in batch
                 if next(r for r in rows if r.pk == pk).series == match]
        assert order == sorted(order)


@pytest.fixture
def many_listener():
    """A listener of ``leave_taken`` made with ``receiver_of_many``: it records each call's
    payloads, writes a row per payload, and fails for the leave ids in ``failing``."""
    calls: list[list[int]] = []
    failing: set[int] = set()

    @receiver_of_many
    def on_leaves(payloads):
        calls.append([payload["leave_id"] for payload in payloads])
        for payload in payloads:
            Group.objects.create(name=f"many-{payload['leave_id']}")
        if failing & {payload["leave_id"] for payload in payloads}:
            raise RuntimeError("a leave this listener cannot take")

    leave_taken.connect(on_leaves, weak=False, dispatch_uid="test_outbox_batches")
    yield calls, failing
    leave_taken.disconnect(dispatch_uid="test_outbox_batches")


def leave_rows(count: int) -> list[int]:
    made = OutboxEvent.objects.bulk_create([
        OutboxEvent(kind="signal", name="leave_taken", payload={"leave_id": -n},
                    created_at=timezone.now()) for n in range(1, count + 1)])
    return [row.pk for row in made]


def written() -> list[str]:
    return sorted(Group.objects.filter(name__startswith="many-").values_list("name", flat=True))


def test_a_listener_of_many_hears_the_batch_at_once_and_a_signal_as_a_list_of_one(
        settings, many_listener):
    calls, _ = many_listener
    leave_taken.send(sender=None, leave_id=5)
    assert calls == [[5]]
    settings.OUTBOX_COMMIT_ROWS = 6
    assert outbox_dispatch(ids=leave_rows(6)) == 6
    assert calls[1:] == [[-1, -2, -3, -4, -5, -6]]
    send_many(leave_taken, [{"leave_id": 8}, {"leave_id": 9}])
    assert calls[2:] == [[8, 9]]


def test_a_failing_batch_is_carried_out_row_by_row_and_only_the_failing_row_fails(
        settings, many_listener):
    calls, failing = many_listener
    settings.OUTBOX_COMMIT_ROWS = 4
    failing.add(-3)
    ids = leave_rows(4)
    assert outbox_dispatch(ids=ids) == 3
    assert calls == [[-1, -2, -3, -4], [-1], [-2], [-3], [-4], [-3]]  # batch, rows, alone
    assert written() == ["many--1", "many--2", "many--4"]  # the batch's writes rolled back
    left = OutboxEvent.objects.get(pk=ids[2])
    assert left.done_at is None and "cannot take" in left.last_error


def test_the_engines_words_follow_the_active_language_when_remembered():
    words = engine.Text("no deadline")
    for language, expected in (("fr", "pas d'échéance"), ("en-gb", "no deadline"),
                               ("fr", "pas d'échéance")):
        with translation.override(language):
            assert say(words) == expected
            assert say(words) == expected
