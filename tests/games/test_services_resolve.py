"""phase_resolve, the miss policy, quarantine, the sweeper, bots and moderators' phase tools."""

import re
import threading
from datetime import timedelta
from functools import partial

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import engine
from dbops.bulk import readable
from durable import outbox
from durable.models import OutboxEvent
from games import services
from games.models import Match, ModerationEntry, Phase, Seat, Submission, SweepRun
from games.receipts import receipt_for
from games.services import ServiceError
from games.services.sweep import claims_release
from tests.helpers import submit
from tests.outbox import promised

pytestmark = pytest.mark.django_db


def expire(match):
    """Move the open phase's deadline into the past."""
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, status="open").update(deadline=past)


def resolve(match):
    match.refresh_from_db()
    return services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)


def queued(callbacks):
    return [(c.task_name, c.kwargs) for c in callbacks if hasattr(c, "task_name")]


def test_both_sheets_in_resolves_once_and_opens_the_next_phase(toy_duel):
    match = toy_duel()
    a, b = submit(match, match.alice, 1, 4), submit(match, match.bob, 2, 2)
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is True
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is False  # a duplicate
    phase = Phase.objects.get(match=match, number=1)
    assert phase.status == "resolved" and phase.resolved_at is not None
    assert phase.revealed == {
        "1": {"data": {"number": 4}, "source": "web", "salt": a.salt, "receipt": a.receipt},
        "2": {"data": {"number": 2}, "source": "web", "salt": b.salt, "receipt": b.receipt},
    }
    assert phase.events == [{"type": "duel", "round": 1, "numbers": {"1": 4, "2": 2},
                             "winner": 1}]
    match.refresh_from_db()
    assert match.phase_number == 2 and match.state["scores"] == {"1": 1, "2": 0}
    assert match.complete_at is None
    assert Phase.objects.get(match=match, number=2).state_before == match.state


def test_an_incomplete_phase_before_its_deadline_is_left_alone(toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 4)
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is False
    assert Phase.objects.get(match=match, number=1).status == "open"


def test_resolution_is_reproducible_from_the_stored_inputs(toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    resolve(match)
    phase = Phase.objects.get(match=match, number=1)
    game = engine.get("toy-duel")
    sheets = {int(s): v["data"] for s, v in phase.revealed.items()}
    again = game.resolve(phase.state_before, sheets, engine.rng_for(match.seed, 1))
    match.refresh_from_db()
    assert again.state == match.state and again.events == phase.events


def test_missing_seat_gets_the_default_and_a_miss_past_the_deadline(toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 3)
    expire(match)
    assert resolve(match)
    default = Submission.objects.get(phase__number=1, seat__number=2)
    assert default.source == "default" and default.data == {"number": 1}
    assert default.receipt == receipt_for(salt=default.salt, data=default.data)
    seats = {s.number: s for s in Seat.objects.filter(match=match)}
    assert (seats[2].missed_in_row, seats[2].missed_total) == (1, 1)
    assert (seats[1].missed_in_row, seats[1].missed_total) == (0, 0)
    assert Phase.objects.get(match=match, number=1).revealed["2"]["source"] == "default"


def test_a_sheet_resets_the_row_of_misses(toy_duel):
    match = toy_duel(miss_limit=3, options={"target": 9})
    submit(match, match.alice, 1, 2, phase=1)
    expire(match)
    assert resolve(match)
    submit(match, match.alice, 1, 2, phase=2)
    submit(match, match.bob, 2, 5, phase=2)
    resolve(match)
    bob_seat = Seat.objects.get(match=match, number=2)
    assert (bob_seat.missed_in_row, bob_seat.missed_total, bob_seat.status) == (0, 1, "taken")


def test_replace_policy_flags_the_seat_after_the_limit_and_offers_it(toy_duel):
    """At the limit the player's command ends: the seat seeks a new commander (its link), is
    nobody's meanwhile (the absent player can no longer act in it) and plays its defaults,
    which count against nobody; the match goes on."""
    match = toy_duel(miss_limit=2, options={"target": 9})
    for phase in (1, 2):
        submit(match, match.alice, 1, 2, phase=phase)
        expire(match)
        assert resolve(match)
    bob_seat = Seat.objects.get(match=match, number=2)
    assert bob_seat.status == Seat.Status.FLAGGED and bob_seat.user is None
    assert bob_seat.offer_token and bob_seat.offered_at is not None
    assert (bob_seat.missed_in_row, bob_seat.missed_total, bob_seat.bot) == (0, 2, "")
    with pytest.raises(services.ServiceError) as refused:
        submit(match, match.bob, 2, 5, phase=3)
    assert refused.value.code == "not_your_seat"
    submit(match, match.alice, 1, 2, phase=3)
    expire(match)
    resolve(match)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert Phase.objects.get(match=match, number=3).revealed["2"]["source"] == "default"
    assert Seat.objects.get(match=match, number=2).status == Seat.Status.FLAGGED


def test_forfeit_policy_ends_the_match_and_the_others_win(toy_duel):
    match = toy_duel(miss_limit=1, miss_policy="forfeit")
    submit(match, match.alice, 1, 2)
    expire(match)
    assert resolve(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.deadline is None
    assert match.result["winners"] == [1] and match.result["ranking"] == [[1], [2]]
    assert "forfeit" in match.result["reason"]
    assert Seat.objects.get(match=match, number=2).status == Seat.Status.FORFEITED
    assert not Phase.objects.filter(match=match, number=2).exists()


def test_a_won_game_finishes_with_its_result(toy_duel, django_capture_on_commit_callbacks):
    match = toy_duel(options={"target": 2})
    for phase in (1, 2):
        submit(match, match.alice, 1, 5, phase=phase)
        submit(match, match.bob, 2, 3, phase=phase)
        with django_capture_on_commit_callbacks():
            assert resolve(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    assert match.result == {"ranking": [[1], [2]], "scores": {"1": 2, "2": 0},
                            "reason": "North reached 2 points", "winners": [1], "is_draw": False,
                            "ending": {"how": "rules", "seats": [], "reason":
                                       "North reached 2 points", "params": {}}}
    assert match.status_changes.last().new_status == "finished"
    assert Phase.objects.filter(match=match).count() == 2
    sent = promised(match.pk, kind="signal")
    assert ("match_ended", {"match_id": match.pk, "status": "finished"}) in sent
    assert [payload for name, payload in sent if name == "phase_resolved"][-1] == {
        "match_id": match.pk, "phase_number": 2, "finished": True}
    assert ("phase_opened", {"match_id": match.pk, "phase_number": 3}) not in sent


def test_side_effects_are_promised_in_the_transaction_and_carried_out_once_after_it(
        toy_duel, django_capture_on_commit_callbacks):
    from games.signals import phase_opened, phase_resolved

    received = []

    def receiver(signal, **kwargs):
        received.append((signal, kwargs["match_id"], kwargs["phase_number"]))

    phase_resolved.connect(receiver)
    phase_opened.connect(receiver)
    try:
        match = toy_duel()
        submit(match, match.alice, 1, 4)
        submit(match, match.bob, 2, 2)
        before = OutboxEvent.objects.count()
        with django_capture_on_commit_callbacks() as callbacks:
            with CaptureQueriesContext(connection) as queries:
                resolve(match)
            assert received == []  # not inside the transaction
        # One INSERT for every side effect of the resolution, and one task to carry them out.
        # (on PostgreSQL the resolution's writes go in one string of statements)
        inserts = sum(readable(q["sql"]).count('INSERT INTO "durable_outboxevent"')
                      for q in queries)
        assert inserts == 1 and OutboxEvent.objects.count() == before + 2
        (dispatch,) = [c for c in callbacks if hasattr(c, "task_name")]
        assert dispatch.task_name == "durable.tasks.outbox_dispatch"
        assert outbox.outbox_dispatch(ids=dispatch.kwargs["ids"]) == 2
        assert outbox.outbox_dispatch(ids=dispatch.kwargs["ids"]) == 0  # a duplicate task
    finally:
        phase_resolved.disconnect(receiver)
        phase_opened.disconnect(receiver)
    assert received == [(phase_resolved, match.pk, 1), (phase_opened, match.pk, 2)]


def test_the_sweeper_dispatches_what_a_crash_left_undone(toy_duel, settings,
                                                       django_capture_on_commit_callbacks):
    settings.OUTBOX_GRACE_SECONDS = 30
    match = toy_duel()
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    resolve(match)  # its on-commit dispatch never ran (the test's transaction never commits)
    pending = {r.pk for r in OutboxEvent.objects.filter(series=match.pk, done_at__isnull=True)}
    assert len(pending) >= 2  # (the match's start and its resolution)

    def swept() -> set[int]:
        with django_capture_on_commit_callbacks() as callbacks:
            outbox.outbox_sweep()
        return {pk for c in callbacks if getattr(c, "task_name", "") ==
                "durable.tasks.outbox_dispatch" for pk in c.kwargs["ids"]}

    assert not swept() & pending  # within the grace: the dispatch may be on its way
    OutboxEvent.objects.filter(pk__in=pending).update(
        next_attempt_at=timezone.now() - timedelta(minutes=1))
    assert swept() >= pending
    outbox.outbox_dispatch(ids=list(pending))
    assert not OutboxEvent.objects.filter(series=match.pk, done_at__isnull=True).exists()


def test_resolving_costs_a_bounded_number_of_queries(toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 4)  # bob misses: his default sheet is written too
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    Phase.objects.filter(match=match).update(deadline=timezone.now() - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as captured:
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
    # Savepoints are the test's transaction control (BEGIN and COMMIT outside tests).
    queries = [q["sql"] for q in captured if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # 11: the 10 of the lifecycle, plus the one that finds prompted players on leave (whose
    # leave moves the next phase's deadline) in a match that allows vacations.
    assert len(queries) <= 10, "\n".join(q[:120] for q in queries)


@pytest.mark.integration  # PostgreSQL's row locks (skipped without DATABASE_URL, never in CI)
@pytest.mark.django_db(transaction=True)
def test_a_row_being_written_about_the_match_does_not_make_its_resolution_skip_it(toy_duel):
    """Another transaction inserting a row that refers to the match (the mail worker queueing
    "your move" mails, a competition recording a pairing) holds PostgreSQL's key-share lock
    on the match row until it commits. The match lock (``FOR NO KEY UPDATE``) does not
    conflict with it, so the resolution's ``SKIP LOCKED`` must not pass the match by (with
    ``FOR UPDATE`` it did: the match waited for the sweeper)."""
    match = toy_duel()
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    other = other_session()
    try:
        rows = other.execute("SELECT id FROM games_match WHERE id = %s FOR KEY SHARE",
                             [match.pk]).fetchall()
        assert rows == [(match.pk,)]  # held until ``other`` commits
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
        assert Match.objects.get(pk=match.pk).phase_number == 2
        # A real writer still excludes another: a duplicate resolution leaves at once.
        other.rollback()
        submit(match, match.alice, 1, 4, phase=2)
        submit(match, match.bob, 2, 2, phase=2)
        other.execute("SELECT id FROM games_match WHERE id = %s FOR NO KEY UPDATE", [match.pk])
        assert services.phase_resolve(match_id=match.pk, phase_number=2) is False
        other.rollback()
        assert services.phase_resolve(match_id=match.pk, phase_number=2)
    finally:
        other.rollback()
        other.close()


def other_session():
    """A PostgreSQL session of its own on the test database (not Django's connection)."""
    import psycopg

    settings_dict = connection.settings_dict
    return psycopg.connect(host=settings_dict["HOST"] or "127.0.0.1",
                           port=settings_dict["PORT"] or 5432, user=settings_dict["USER"],
                           dbname=settings_dict["NAME"], password=settings_dict["PASSWORD"])


@pytest.mark.integration  # PostgreSQL's commits (skipped without DATABASE_URL, never in CI)
@pytest.mark.django_db(transaction=True)
def test_a_resolution_in_its_own_transaction_commits_it_with_its_writes(toy_duel):
    """A worker's resolution commits asynchronously (set with its reads) and sends the COMMIT
    with its writes: what it wrote is committed when it returns. Orders, and a resolution
    inside a caller's transaction, keep synchronous commits and the caller's transaction."""
    from games.services.resolve import LAZY_COMMIT

    def sent(queries):  # (not Django's own BEGIN and COMMIT; a PREPARE once per session)
        return [re.sub(r"PREPARE prepared_\d+ AS [^;]*; ", "", q["sql"])
                for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]

    match = toy_duel()
    with CaptureQueriesContext(connection) as ordering:
        submit(match, match.alice, 1, 4)
        submit(match, match.bob, 2, 2)
    assert not any(LAZY_COMMIT in sql or "; COMMIT" in sql for sql in sent(ordering))
    with CaptureQueriesContext(connection) as captured:
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
    reads, writes = sent(captured)
    assert reads.startswith(f"{LAZY_COMMIT}; EXECUTE ") and writes.endswith("; COMMIT")
    other = other_session()
    try:  # committed: another session sees the next phase, nothing is left in progress
        assert other.execute("SELECT phase_number FROM games_match WHERE id = %s",
                             [match.pk]).fetchone() == (2,)
        assert connection.connection.info.transaction_status.name == "IDLE"
    finally:
        other.close()

    submit(match, match.alice, 1, 4, phase=2)
    submit(match, match.bob, 2, 2, phase=2)
    with transaction.atomic(), CaptureQueriesContext(connection) as inside:
        assert services.phase_resolve(match_id=match.pk, phase_number=2)
        assert connection.connection.info.transaction_status.name == "INTRANS"
    assert not any(LAZY_COMMIT in sql or "; COMMIT" in sql for sql in sent(inside))
    assert Match.objects.get(pk=match.pk).phase_number == 3


def test_a_poison_phase_is_retried_then_quarantined_then_retried_by_a_moderator(
    toy_duel, settings, make_user
):
    settings.RESOLVE_MAX_ATTEMPTS = 3
    match = toy_duel(options={"poison_round": 1})
    submit(match, match.alice, 1, 4)
    submit(match, match.bob, 2, 2)
    for attempt in (1, 2, 3):
        assert resolve(match) is False
        phase = Phase.objects.get(match=match, number=1)
        assert phase.attempts == attempt and "poisoned at round 1" in phase.last_error
    assert phase.status == Phase.Status.QUARANTINED
    match.refresh_from_db()
    assert match.deadline is None and match.complete_at is None
    assert Submission.objects.filter(phase=phase).count() == 2  # nothing half-applied
    assert services.deadlines_sweep() == 0  # parked: the sweeper leaves it alone
    assert resolve(match) is False and Phase.objects.get(pk=phase.pk).attempts == 3

    moderator = make_user("mod", is_staff=True, is_superuser=True)
    with pytest.raises(ServiceError) as caught:
        services.phase_retry(phase_id=phase.pk, by=match.alice, reason="please")
    assert caught.value.code == "not_allowed"
    with pytest.raises(ServiceError) as caught:
        services.phase_retry(phase_id=phase.pk, by=moderator, reason=" ")
    assert caught.value.code == "invalid"
    for wrong in (10**9, "x", None):
        with pytest.raises(ServiceError) as caught:
            services.phase_retry(phase_id=wrong, by=moderator, reason="fixed")
        assert caught.value.code == "not_found"
    assert services.phase_retry(phase_id=phase.pk, by=moderator, reason="fixed") is True
    assert services.phase_retry(phase_id=phase.pk, by=moderator, reason="fixed") is False
    assert ModerationEntry.objects.filter(match=match, kind="retry").count() == 1  # idempotent
    phase.refresh_from_db()
    assert phase.status == "open" and phase.attempts == 0
    assert resolve(match) is False  # still poisoned: counted again
    assert Phase.objects.get(pk=phase.pk).attempts == 1


def test_a_sweep_batch_resolves_around_a_poison_phase(toy_duel, settings):
    """A batch is one transaction with a savepoint per match: the poison phase between two
    good ones is rolled back alone and counted, the good ones resolve, nothing half-applied."""
    settings.RESOLVE_MAX_ATTEMPTS = 5
    good, poison, other = toy_duel(), toy_duel(options={"poison_round": 1}), toy_duel()
    submit(poison, poison.alice, 1, 4)
    for match in (good, poison, other):
        expire(match)
    assert services.phases_resolve([[good.pk, 1], [poison.pk, 1], [other.pk, 1],
                                    [good.pk, 1], [999999, 1]]) == 2
    assert Match.objects.get(pk=good.pk).phase_number == 2
    assert Match.objects.get(pk=other.pk).phase_number == 2
    phase = Phase.objects.get(match=poison, number=1)
    assert phase.status == Phase.Status.OPEN and phase.attempts == 1
    assert "poisoned at round 1" in phase.last_error
    assert Submission.objects.filter(phase=phase).count() == 1  # no default written for bob
    assert Match.objects.get(pk=poison.pk).phase_number == 1


def test_a_sweep_batch_whose_write_fails_resolves_one_match_at_a_time(toy_duel, settings):
    """The batch writes all its matches' changes together; when that write fails (here: a
    stray phase 2 row makes inserting one match's next phase break the unique constraint),
    the batch is resolved again one match at a time in savepoints: the others resolve, the
    broken one is counted against its phase and nothing of it is half-written."""
    settings.RESOLVE_MAX_ATTEMPTS = 5
    good, broken, other = toy_duel(), toy_duel(), toy_duel()
    for match in (good, broken, other):
        expire(match)
    Phase.objects.create(match=broken, number=2, kind="simultaneous", name="duel",
                         status=Phase.Status.RESOLVED, opened_at=timezone.now(),
                         state_before=broken.state)
    with CaptureQueriesContext(connection) as batch:
        assert services.phases_resolve([[good.pk, 1], [broken.pk, 1], [other.pk, 1]]) == 2
    assert any("ROLLBACK TO SAVEPOINT" in q["sql"] for q in batch.captured_queries)
    assert Match.objects.get(pk=good.pk).phase_number == 2
    assert Match.objects.get(pk=other.pk).phase_number == 2
    phase = Phase.objects.get(match=broken, number=1)
    assert phase.status == Phase.Status.OPEN and phase.attempts == 1
    assert ("phase_unique_number" in phase.last_error  # PostgreSQL's words, then SQLite's
            or "UNIQUE constraint failed: games_phase.match_id" in phase.last_error)
    assert not Submission.objects.filter(phase=phase).exists()  # no default kept
    assert Match.objects.get(pk=broken.pk).phase_number == 1


def test_a_sweep_batch_of_fifty_is_ten_statements(toy_duel):
    """Reading and writing a batch costs the same few statements however many matches it
    holds (the locks, phases, seats, sheets; the missing sheets, phases, seats, next phases,
    matches, outbox). On PostgreSQL the reads go in one round trip and the writes in one
    more."""
    matches = [toy_duel() for _ in range(50)]
    for match in matches:
        expire(match)
    with CaptureQueriesContext(connection) as batch:
        assert services.phases_resolve([[match.pk, 1] for match in matches]) == 50
    statements = [q["sql"] for q in batch.captured_queries
                  if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]
    assert len(statements) <= (2 if connection.vendor == "postgresql" else 10), statements


def test_sweeper_queues_past_deadlines_and_lost_complete_phases(
    toy_duel, settings, django_capture_on_commit_callbacks
):
    settings.SWEEP_COMPLETE_GRACE_SECONDS = 10
    settings.SWEEP_CLAIM_SECONDS = 60
    late, complete, fresh = toy_duel(), toy_duel(), toy_duel()
    expire(late)
    submit(complete, complete.alice, 1, 3)
    submit(complete, complete.bob, 2, 3)
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.deadlines_sweep() == 1  # the complete one is still within its grace
    assert queued(callbacks) == [("games.tasks.resolve_phases", {"pairs": [[late.pk, 1]]})]
    Match.objects.filter(pk=complete.pk).update(
        complete_at=timezone.now() - timedelta(seconds=11))
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.deadlines_sweep() == 1  # the late one is claimed: not queued again
    assert queued(callbacks) == [("games.tasks.resolve_phases", {"pairs": [[complete.pk, 1]]})]
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.deadlines_sweep() == 0
    # A claim older than SWEEP_CLAIM_SECONDS is taken as lost: queued again.
    Match.objects.filter(pk=late.pk).update(
        queued_at=timezone.now() - timedelta(seconds=settings.SWEEP_CLAIM_SECONDS + 1))
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.deadlines_sweep() == 1
    assert queued(callbacks) == [("games.tasks.resolve_phases", {"pairs": [[late.pk, 1]]})]
    assert fresh.pk not in {pair[0] for c in callbacks for pair in c.kwargs["pairs"]}


@pytest.mark.integration  # PostgreSQL's row locks (skipped without DATABASE_URL, never in CI)
@pytest.mark.django_db(transaction=True)
def test_a_match_a_sweep_batch_passed_by_while_it_was_locked_is_queued_again_at_once(
    toy_duel, settings, django_capture_on_commit_callbacks
):
    """A late submission holding a due match's lock when the sweep's batch comes makes the
    batch skip it, and that submission resolves nothing when it commits: the batch releases
    its claim (once the lock is free) so that the next sweep queues it again, instead of
    after SWEEP_CLAIM_SECONDS (a 60 s stall of a match past its deadline)."""
    def sweep():  # (this test commits: the sweep's queueing is captured, not sent)
        with transaction.atomic(), django_capture_on_commit_callbacks() as callbacks:
            services.deadlines_sweep()
        connection.run_on_commit.clear()
        return queued(callbacks)

    settings.SWEEP_CLAIM_SECONDS = 60
    free, locked = toy_duel(), toy_duel()
    expire(free)
    expire(locked)
    ((_, kwargs),) = sweep()
    batch = kwargs["pairs"]
    assert sorted(batch) == sorted([[free.pk, 1], [locked.pk, 1]])
    other = other_session()
    try:
        other.execute("SELECT id FROM games_match WHERE id = %s FOR NO KEY UPDATE",
                      [locked.pk])
        # The lock holder commits a moment after the batch has passed the match by.
        threading.Timer(0.5, other.rollback).start()
        assert services.phases_resolve(batch) == 1
    finally:
        other.close()
    assert Match.objects.get(pk=free.pk).phase_number == 2
    locked.refresh_from_db()
    assert (locked.phase_number, locked.queued_at) == (1, None)
    assert sweep() == [("games.tasks.resolve_phases", {"pairs": [[locked.pk, 1]]})]
    # A claim made after a batch began is a later sweep's: the batch leaves it alone.
    before = timezone.now() - timedelta(seconds=1)
    assert claims_release([locked.pk], claimed_before=before) == 0
    assert Match.objects.get(pk=locked.pk).queued_at is not None


@pytest.mark.integration  # Redis's run_id (skipped without REDIS_URL, never in CI)
def test_a_restarted_broker_voids_every_claim(
    toy_duel, settings, django_capture_on_commit_callbacks
):
    """Redis keeps nothing across a restart: the tasks of standing claims are gone, so the
    sweeper (which notes the broker's run_id) releases them all and queues the matches again
    at once instead of waiting for the claims to go stale."""
    from games.services.sweep import broker_epoch

    settings.SWEEP_CLAIM_SECONDS = 600
    epoch = broker_epoch()
    assert epoch, "the tests' broker is Redis: its run_id must be readable"
    late = toy_duel()
    expire(late)
    with django_capture_on_commit_callbacks():
        assert services.deadlines_sweep() == 1
    assert SweepRun.objects.get().broker_epoch == epoch
    with django_capture_on_commit_callbacks():
        assert services.deadlines_sweep() == 0  # claimed, and the broker is the same one
    SweepRun.objects.update(broker_epoch="a-broker-before-its-restart")
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.deadlines_sweep() == 1
    assert queued(callbacks) == [("games.tasks.resolve_phases", {"pairs": [[late.pk, 1]]})]
    assert SweepRun.objects.get().broker_epoch == epoch


def test_sweeper_extends_deadlines_that_passed_while_the_system_was_down(toy_duel, settings):
    settings.SWEEP_OUTAGE_SECONDS = 600
    settings.SWEEP_CLAIM_SECONDS = 60
    services.deadlines_sweep()  # first run: records the heartbeat
    down_since = timezone.now() - timedelta(hours=2)
    SweepRun.objects.update(last_run_at=down_since)
    during = toy_duel()  # its deadline passed 30 min ago, during the outage
    before = toy_duel()  # its deadline passed before the outage: resolved as usual
    Match.objects.filter(pk=during.pk).update(deadline=timezone.now() - timedelta(minutes=30))
    Phase.objects.filter(match=during).update(deadline=timezone.now() - timedelta(minutes=30))
    Match.objects.filter(pk=before.pk).update(deadline=down_since - timedelta(minutes=1))
    Phase.objects.filter(match=before).update(deadline=down_since - timedelta(minutes=1))

    assert services.deadlines_sweep() == 1
    during.refresh_from_db()
    expected = timezone.now() + timedelta(minutes=90)  # -30 min + the 2 h gap
    assert abs(during.deadline - expected) < timedelta(seconds=30)
    assert Phase.objects.get(match=during, number=1).deadline == during.deadline
    run = SweepRun.objects.get()
    assert run.extended_total == 1 and run.last_gap_seconds > 7000
    submit(during, during.alice, 1, 2)  # the player still has time
    assert services.deadlines_sweep() == 0  # a normal gap now; the overdue one is claimed
    assert SweepRun.objects.get().extended_total == 1


def test_an_outage_extension_cut_short_is_finished_by_the_next_sweep(toy_duel, settings):
    settings.SWEEP_OUTAGE_SECONDS = 600
    services.deadlines_sweep()
    since, until = timezone.now() - timedelta(hours=2), timezone.now() - timedelta(minutes=5)
    during = toy_duel()
    Match.objects.filter(pk=during.pk).update(deadline=timezone.now() - timedelta(minutes=30))
    Phase.objects.filter(match=during).update(deadline=timezone.now() - timedelta(minutes=30))
    # A sweep recorded the outage and died before moving any deadline.
    SweepRun.objects.update(extending_since=since, extending_until=until)
    services.deadlines_sweep()
    during.refresh_from_db()
    expected = timezone.now() + timedelta(minutes=85)  # -30 min + the 115 min outage
    assert abs(during.deadline - expected) < timedelta(seconds=30)
    run = SweepRun.objects.get()
    assert run.extending_since is None and run.extended_total == 1


def test_bot_submits_a_deterministic_sheet_once(make_user):
    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=1,
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    receipt = services.bot_submit(match_id=match.pk, seat_number=2, phase_number=1)
    expected = engine.get("toy-duel").bot_submission(
        match.state, 2, "random", engine.rng_for(f"{match.seed}:bot:2", 1))
    assert receipt.data == expected
    assert Submission.objects.get(seat__number=2).source == "bot"
    assert services.bot_submit(match_id=match.pk, seat_number=2, phase_number=1) is None
    assert services.bot_submit(match_id=match.pk, seat_number=1, phase_number=1) is None
    assert services.bot_submit(match_id=match.pk, seat_number=2, phase_number=5) is None
    assert Submission.objects.count() == 1


def test_bot_match_plays_through_to_the_next_phase(make_user, django_capture_on_commit_callbacks):
    alice = make_user("alice")
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=1,
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}])
    services.bot_submit(match_id=match.pk, seat_number=2, phase_number=1)
    submit(match, alice, 1, 5)
    with django_capture_on_commit_callbacks():
        assert resolve(match)
    assert ("games.tasks.bot_submit", {"match_id": match.pk, "seat_number": 2,
                                       "phase_number": 2}) in promised(match.pk, kind="task")


def test_deadline_extension_is_capped_and_idempotent(toy_duel, make_user):
    match = toy_duel(hours_per_phase=1)
    mod = make_user("extender", is_superuser=True)
    extend = partial(services.match_deadline_extend, match_id=match.pk, by=mod, reason="ill")
    assert extend(hours=24) is True
    match.refresh_from_db()
    first = match.deadline
    assert extend(hours=24) is False
    match.refresh_from_db()
    assert match.deadline == first
    assert Phase.objects.get(match=match, number=1).deadline == first
    for hours in (0, -5, 24 * 8, "lots"):
        with pytest.raises(ServiceError):
            extend(hours=hours)


def test_a_moderator_hands_a_flagged_seat_to_a_new_player(toy_duel, make_user):
    match = toy_duel(miss_limit=1, options={"target": 9})
    submit(match, match.alice, 1, 2)
    expire(match)
    resolve(match)
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    carol = make_user("carol")
    assert Seat.objects.get(match=match, number=2).status == "flagged"

    def hand_over(user, by, reason="bob is gone"):
        return services.seat_moderate_replace(match_id=match.pk, seat_number=2, user=user,
                                              by=by, reason=reason)

    with pytest.raises(ServiceError) as caught:
        hand_over(carol, match.alice)
    assert caught.value.code == "not_allowed"
    with pytest.raises(ServiceError) as caught:
        hand_over(carol, moderator, reason="")
    assert caught.value.code == "invalid"
    with pytest.raises(ServiceError) as caught:
        hand_over(match.alice, moderator)
    assert caught.value.code == "already_seated"
    seat = hand_over(carol, moderator)
    assert (seat.user, seat.status, seat.missed_in_row) == (carol, "taken", 0)
    assert submit(match, carol, 2, 4, phase=2).revision == 1


def test_a_sweep_whose_queueing_fails_releases_its_claim(toy_duel, monkeypatch, settings,
                                                         django_capture_on_commit_callbacks):
    from durable.worker import Enqueue

    settings.SWEEP_CLAIM_SECONDS = 60
    late = toy_duel()
    expire(late)
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.deadlines_sweep() == 1
    (claimed,) = [c for c in callbacks if getattr(c, "task_name", "") ==
                  "games.tasks.resolve_phases"]
    late.refresh_from_db()
    assert late.queued_at is not None
    monkeypatch.setattr(Enqueue, "__call__", lambda self: False)  # the broker is down
    assert claimed() is False
    late.refresh_from_db()
    assert late.queued_at is None  # released: the next sweep queues it again at once
    with django_capture_on_commit_callbacks():
        assert services.deadlines_sweep() == 1
