"""Benchmark: the sealed-turn lifecycle at scale, on PostgreSQL + Redis with a real worker.

    .venv/bin/python scripts/bench_lifecycle.py [--sweep 2000] [--one-at-a-time 100]

Uses a database of its own (``bench_lifecycle`` on the server of DATABASE_URL, default the
machine's PostgreSQL; dropped and made anew, then migrated) and a Redis database of its own
(``REDIS_URL`` with db 11, flushed), and starts its own Celery worker (prefork, 2 processes, the
project's app; mail goes to Django's dummy backend so SMTP is not what is measured). Final Act
matches with two human seats. Prints one JSON line:

- ``celery_roundtrip_ms``: the baseline, measured in the same run: a task that marks one outbox
  row done, from queueing to the row seen done (p50; the row is written without notifying
  the outbox relay, so it is one Celery round trip);
- ``commit_to_open_p50_ms`` / ``_p99_ms``: the last sheet committed → the next phase open,
  one match at a time (the worker resolves it): before the last sheet of each match the
  script waits until the worker has nothing left to do (the match's creation and first
  sheet notified, its mails sent), so each figure is the latency of one resolution, not
  of the previous match's mail;
- ``resolution_ms`` / ``resolution_queries``: one resolution in this process, from the call to
  its return (its commit included, and the publish of its outbox's task where the outbox is
  not relayed (``games/relay.py``; on PostgreSQL it is, and the worker's relay queues it);
  each match created
  and its sheets submitted just before, as a worker meets it): the median of ``--profiled``
  timed ones, and the queries counted on ten others run first (Django's query log, which
  renders every statement a second time, so those are not timed); the queries include
  writing its side effects to the outbox; ``resolution_floor_ms``, the baseline measured
  alongside (one after each timed resolution, on a match just created): the least any
  resolution does, a transaction that locks a match row, writes it back and promises one
  side effect (an outbox row), committed as a resolution commits (asynchronously, in the
  round trip of the writes: ``games.services.resolve``), and one task published where the
  outbox is not relayed (median);
- ``match_create_ms``: ``match_create`` of a two-seat Final Act match (median);
- ``sweep_matches`` / ``sweep_s`` / ``sweep_per_s``: that many matches past their deadline, one
  sweep, until every one is resolved by the worker (resolutions go first: the lifecycle
  queue); ``sweep_notified_s``: until, besides, every notification of those resolutions
  is written and its mail sent (the default queue).

With ``--clocks`` every match plays on correspondence clocks (72 h, + 24 h per phase, at most
168 h) and the two players have active hours (08:00–23:00 in Los Angeles and in Tokyo): each
resolution charges the clocks and computes the next phase's due times; the swept matches are
due because both clocks ran out (found through the same deadline index).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def own_database(url: str, name: str) -> str:
    """Drop and create database ``name`` on the server of ``url``; its URL."""
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def wait_until(check, timeout: float, poll: float = 0.0005) -> float:
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("the worker did not finish in time")
        time.sleep(poll)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sweep", type=int, default=2000, help="matches past their deadline")
    parser.add_argument("--one-at-a-time", type=int, default=100)
    parser.add_argument("--profiled", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--worker-log", help="write the worker's INFO log to this file")
    parser.add_argument("--clocks", action="store_true",
                        help="correspondence clocks and active hours on every match")
    parser.add_argument("--database", default="bench_lifecycle",
                        help="the database it makes anew (dropped first!)")
    parser.add_argument("--redis-db", type=int, default=11, help="the Redis db it flushes")
    args = parser.parse_args()

    base_db = os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/test")
    base_redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    database_url = own_database(base_db, args.database)
    redis_url = urlunsplit(urlsplit(base_redis)._replace(path=f"/{args.redis_db}"))
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
           "DJANGO_SETTINGS_MODULE": "portal.settings", "LOG_LEVEL": "WARNING",
           "EMAIL_URL": "dummy://", "PYTHONPATH": str(REPO), "DEBUG": "false",
           "SECRET_KEY": "bench-" + "x" * 50, "ALLOWED_HOSTS": "localhost",
           "SWEEP_CLAIM_SECONDS": "600"}
    os.environ.update(env)

    import django

    django.setup()
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    import engine
    from durable.models import OutboxEvent
    from durable.outbox import relayed
    from durable.worker import Enqueue
    from games import services
    from games.models import Match, Phase, Seat
    from games.services.resolve import LAZY_COMMIT
    from portal.mail.models import OutgoingEmail

    def idle() -> bool:
        """Nothing left for the worker: every outbox row carried out, every mail sent."""
        return not (OutboxEvent.objects.filter(done_at__isnull=True).exists()
                    or OutgoingEmail.objects.filter(status__in=[
                        OutgoingEmail.Status.QUEUED, OutgoingEmail.Status.SENDING]).exists())

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(redis_url).flushdb()
    game = engine.get("final-act")
    users = get_user_model()
    alice = users.objects.create_user("bench_alice", "alice@bench.test", "pw")
    bob = users.objects.create_user("bench_bob", "bob@bench.test", "pw")

    clock_options = {}
    if args.clocks:
        from datetime import time as wall

        from clocks.services import active_hours_set

        active_hours_set(user=alice, start=wall(8), end=wall(23), time_zone="America/Los_Angeles")
        active_hours_set(user=bob, start=wall(8), end=wall(23), time_zone="Asia/Tokyo")
        clock_options = {"clock_bank_hours": 72, "clock_increment_hours": 24,
                         "clock_cap_hours": 168}

    def new_match():
        return services.match_create(
            creator=alice, game="final-act", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
            **clock_options)

    def submit(match, seat: int, user) -> None:
        match.refresh_from_db()
        services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                               phase_number=match.phase_number, source="web",
                               data=game.default_submission(match.state, seat))

    # -- a match created ---------------------------------------------------------------------
    create_ms = []
    for _ in range(30):
        start = time.perf_counter()
        new_match()
        create_ms.append((time.perf_counter() - start) * 1000)

    # -- one resolution, profiled in this process ------------------------------------------------
    # Timed as it runs in a worker; the queries are counted on other matches, because
    # Django's query log renders every statement's SQL a second time (about a millisecond
    # of a resolution's writes), which is the log's cost, not the resolution's.
    def floor(match) -> float:
        """The least any resolution does, on this machine at this moment: a transaction
        that locks the match row and writes it back, committed as a resolution commits
        (asynchronously, with the writes), with one side effect promised (an outbox row: the
        relay hears of it; where there is none, one task is published)."""
        start = time.perf_counter()
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"{LAZY_COMMIT}; "
                           "SELECT id FROM games_match WHERE id = %s FOR NO KEY UPDATE",
                           [match.pk])
            cursor.execute("UPDATE games_match SET queued_at = NULL WHERE id = %s; "
                           "INSERT INTO durable_outboxevent (kind, name, payload, series, "
                           "created_at, next_attempt_at, status, attempts, last_error) VALUES "
                           "('signal', 'phase_resolved', '{\"match_id\": 0, \"phase_number\": "
                           "0, \"finished\": false}', 0, now(), now(), 'queued', 0, ''); "
                           "COMMIT", [match.pk])
        if not relayed():
            Enqueue("durable.tasks.outbox_dispatch", ids=[])()
        return (time.perf_counter() - start) * 1000

    resolve_ms, floor_ms, queries = [], [], []
    for index in range(args.profiled + 10):
        match = new_match()
        submit(match, 1, alice)
        submit(match, 2, bob)
        if index < 10:
            with CaptureQueriesContext(connection) as captured:
                assert services.phase_resolve(match_id=match.pk, phase_number=1)
            queries.append(len(captured))
            continue
        start = time.perf_counter()
        assert services.phase_resolve(match_id=match.pk, phase_number=1)
        resolve_ms.append((time.perf_counter() - start) * 1000)
        floor_ms.append(floor(new_match()))

    log = open(args.worker_log, "w") if args.worker_log else subprocess.DEVNULL  # noqa: SIM115
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "portal.celery", "worker", "--pool=prefork",
         f"--concurrency={args.concurrency}",
         f"--loglevel={'INFO' if args.worker_log else 'WARNING'}", "--without-gossip",
         "--without-mingle", "--without-heartbeat"],
        env=env, cwd=REPO, stdout=subprocess.DEVNULL,
        stderr=log)
    try:
        # The worker is up when it has carried out a first outbox row.
        def roundtrip(timeout: float) -> float:
            # (written without firing the outbox relay's trigger, a superuser's session
            # setting: the baseline stays one Celery round trip, not the relay's)
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = replica")
                row = OutboxEvent.objects.create(kind="signal", name="phase_resolved",
                                                 payload={"match_id": 0, "phase_number": 0,
                                                          "finished": False},
                                                 created_at=timezone.now(),
                                                 next_attempt_at=timezone.now())
            start = time.perf_counter()
            Enqueue("durable.tasks.outbox_dispatch", ids=[row.pk])()
            wait_until(lambda: OutboxEvent.objects.filter(pk=row.pk, done_at__isnull=False)
                       .exists(), timeout)
            return (time.perf_counter() - start) * 1000

        roundtrip(120)
        baseline = [roundtrip(30) for _ in range(50)]

        # -- the last sheet committed -> the next phase open, one match at a time ---------------
        open_ms = []
        for _ in range(args.one_at_a_time):
            match = new_match()
            submit(match, 1, alice)
            wait_until(idle, 60, poll=0.005)
            submit(match, 2, bob)  # commits; its resolution is queued on commit
            start = time.perf_counter()
            wait_until(lambda m=match: Match.objects.filter(pk=m.pk, phase_number=2).exists(),
                       30)
            open_ms.append((time.perf_counter() - start) * 1000)

        # -- a sweep over many overdue matches ------------------------------------------------
        template = new_match()
        phase = Phase.objects.get(match=template, number=1)
        past = timezone.now() - timedelta(minutes=1)
        timing = template.timing
        if args.clocks:  # both clocks ran out a minute ago
            timing = {**timing, "owing": {seat: {**entry, "due": past.isoformat()}
                                          for seat, entry in timing["owing"].items()}}
        matches = Match.objects.bulk_create([
            Match(game=template.game, options=template.options, status=template.status,
                  timing=timing, **clock_options,
                  seed=template.seed + n, hours_per_phase=template.hours_per_phase,
                  phase_number=1, phase_kind=template.phase_kind, phase_name=template.phase_name,
                  deadline=past, state=template.state, created_by=alice,
                  started_at=template.started_at, invite_token=f"bench-{n}")
            for n in range(args.sweep)], batch_size=1000)
        Seat.objects.bulk_create([
            Seat(match=m, number=n, user=u, status=Seat.Status.TAKEN)
            for m in matches for n, u in ((1, alice), (2, bob))], batch_size=2000)
        Phase.objects.bulk_create([
            Phase(match=m, number=1, kind=phase.kind, name=phase.name, opened_at=phase.opened_at,
                  deadline=past, state_before=phase.state_before)
            for m in matches], batch_size=1000)
        # Polled by their ids' range (bulk_create numbers them in order; only the benchmark
        # makes matches), not by a list of N ids: building and parsing that query took 45 ms
        # of the machine's two cores every poll, taken from the worker being measured.
        swept = Match.objects.filter(pk__range=(matches[0].pk, matches[-1].pk),
                                     invite_token__startswith="bench-")
        start = time.perf_counter()
        queued = services.deadlines_sweep()
        wait_until(lambda: not swept.filter(phase_number=1).exists(), 3600, poll=0.2)
        sweep_s = time.perf_counter() - start
        wait_until(idle, 3600, poll=0.2)
        notified_s = time.perf_counter() - start
    finally:
        worker.terminate()
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:  # a warm shutdown still busy: the figures are in
            worker.kill()
            worker.wait()

    print(json.dumps({
        "celery_roundtrip_ms": round(statistics.median(baseline), 2),
        "commit_to_open_p50_ms": round(percentile(open_ms, 0.5), 2),
        "commit_to_open_p99_ms": round(percentile(open_ms, 0.99), 2),
        "resolution_ms": round(statistics.median(resolve_ms), 2),
        "resolution_floor_ms": round(statistics.median(floor_ms), 2),
        "resolution_queries": int(statistics.median(queries)),
        "match_create_ms": round(statistics.median(create_ms), 2),
        "sweep_matches": args.sweep,
        "sweep_queued": queued,
        "sweep_s": round(sweep_s, 2),
        "sweep_per_s": round(args.sweep / sweep_s, 1),
        "sweep_notified_s": round(notified_s, 2),
        "worker_processes": args.concurrency,
        "clocks": args.clocks,
    }))


if __name__ == "__main__":
    main()
