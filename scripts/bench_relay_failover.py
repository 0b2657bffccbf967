"""Benchmark: the outbox relay's failover, the delay from commit to carried out of the outbox
rows written while no relay listened (issue 35's fault).

    .venv/bin/python scripts/bench_relay_failover.py [--matches 1500] [--kill-at 0.3]
        [--commit-rows 1,8,1,8]

Uses a database of its own (``bench_relay`` on the server of DATABASE_URL, default the
machine's PostgreSQL; dropped and made anew, then migrated) and a Redis database of its own
(``REDIS_URL`` with db 12, flushed), and starts two Celery workers (prefork, 2 processes each,
the project's app and settings: every relay setting at its default, the dispatch batch
included; mail to Django's dummy backend). No beat, and a grace time of ten minutes: the
sweeper can carry nothing out, only the relays. Final Act matches with two human seats, all
past their deadline; one sweep queues them. When ``--kill-at`` of them are resolved, the
worker whose relay leads is killed (SIGKILL to its process group); the other one's relay
takes the lead at its next look (``OUTBOX_RELAY_RETRY_SECONDS``, 2 s) and catches up.
``--commit-rows`` runs the scenario once for each value given, in that order, each time in
the database made anew, with the workers' ``OUTBOX_COMMIT_ROWS`` (rows a dispatcher carries
out in one transaction) set to it; 1 is a transaction per row, the code before grouping, so
alternating values compares both on the machine as it is during the run. Prints one JSON
line per round:

- ``unheard_rows``: rows written between the kill and the new leader taking the lead (the
  lock granted: it listens, then catches up); ``unheard_p50_s`` / ``_p99_s``: their delay
  from commit (``created_at``, in the committing transaction) to carried out (``done_at``);
- ``heard_p50_s`` / ``_p99_s``, the baseline measured in the same run: the same delay for the
  rows a relay heard (written before the kill or after the new leader), which wait in the
  same queues; ``unheard_to_heard_p99``: the ratio;
- ``new_leader_s``: from the kill to the new leader; ``lead_to_unheard_done_s``: from then to
  the last unheard row carried out;
- ``after_lead_rows_per_s``: how fast the rows were carried out once the new leader led
  (rows done after it, over the time from it to the last one);
- ``held_rows``: rows the dead worker had claimed and not finished (only the grace time frees
  them: not counted above).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_lifecycle import own_database, percentile  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1500, help="matches past their deadline")
    parser.add_argument("--kill-at", type=float, default=0.3,
                        help="the share of them resolved when the leader is killed")
    parser.add_argument("--database", default="bench_relay",
                        help="the database it makes anew (dropped first!)")
    parser.add_argument("--redis-db", type=int, default=12, help="the Redis db it flushes")
    parser.add_argument("--logs", default="/tmp", help="where the workers' logs go")
    parser.add_argument("--commit-rows", default="",
                        help="comma-separated OUTBOX_COMMIT_ROWS, one round each (default: the "
                             "setting's default, one round)")
    args = parser.parse_args()
    rounds = [int(value) for value in args.commit_rows.split(",") if value] or [None]
    for commit_rows in rounds:
        print(json.dumps(scenario(args, commit_rows)), flush=True)


def scenario(args: argparse.Namespace, commit_rows: int | None) -> dict:
    """One round: the database made anew, two workers, the leader killed; the figures."""
    base_db = os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/test")
    base_redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    database_url = own_database(base_db, args.database)
    redis_url = urlunsplit(urlsplit(base_redis)._replace(path=f"/{args.redis_db}"))
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
           "DJANGO_SETTINGS_MODULE": "portal.settings", "LOG_LEVEL": "INFO",
           "EMAIL_URL": "dummy://", "PYTHONPATH": str(REPO), "DEBUG": "false",
           "SECRET_KEY": "bench-" + "x" * 50, "ALLOWED_HOSTS": "localhost",
           "SWEEP_CLAIM_SECONDS": "600", "OUTBOX_GRACE_SECONDS": "600"}
    if commit_rows is not None:
        env["OUTBOX_COMMIT_ROWS"] = str(commit_rows)
    os.environ.update(env)

    import django

    django.setup()
    from django.db import connections

    connections.close_all()  # (a round before: its database was dropped and made anew)
    import redis
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from durable.models import OutboxEvent
    from durable.relay import LEAD_LOCK
    from games import services
    from games.models import Match, Phase, Seat

    call_command("migrate", verbosity=0)
    redis.Redis.from_url(redis_url).flushdb()
    users = get_user_model()
    alice = users.objects.create_user("bench_alice", "alice@bench.test", "pw")
    bob = users.objects.create_user("bench_bob", "bob@bench.test", "pw")
    template = services.match_create(
        creator=alice, game="final-act", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    phase = Phase.objects.get(match=template, number=1)
    past = timezone.now() - timedelta(minutes=1)
    matches = Match.objects.bulk_create([
        Match(game=template.game, options=template.options, status=template.status,
              timing=template.timing, seed=template.seed + n,
              hours_per_phase=template.hours_per_phase, phase_number=1,
              phase_kind=template.phase_kind, phase_name=template.phase_name, deadline=past,
              state=template.state, created_by=alice, started_at=template.started_at,
              invite_token=f"bench-{n}")
        for n in range(args.matches)], batch_size=1000)
    Seat.objects.bulk_create([Seat(match=m, number=n, user=u, status=Seat.Status.TAKEN)
                              for m in matches for n, u in ((1, alice), (2, bob))],
                             batch_size=2000)
    Phase.objects.bulk_create([
        Phase(match=m, number=1, kind=phase.kind, name=phase.name, opened_at=phase.opened_at,
              deadline=past, state_before=phase.state_before)
        for m in matches], batch_size=1000)
    swept = Match.objects.filter(pk__range=(matches[0].pk, matches[-1].pk))

    def leader() -> int | None:
        """The process id of the connection holding the relay's lead, if one does."""
        with connection.cursor() as cursor:
            # (pg_locks lists the whole server's: other databases' relays use the same key)
            cursor.execute("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
                           "AND database = (SELECT oid FROM pg_database WHERE datname = "
                           "current_database()) AND classid = %s AND objid = %s AND objsubid = 1",
                           [LEAD_LOCK >> 32, LEAD_LOCK & 0xFFFFFFFF])
            row = cursor.fetchone()
        return row[0] if row else None

    def wait(check, timeout: float, what: str, poll: float = 0.02):
        end = time.monotonic() + timeout
        while not (value := check()):
            if time.monotonic() > end:
                raise TimeoutError(f"waited {timeout} s for {what}")
            time.sleep(poll)
        return value

    workers = []

    def worker(name: str) -> subprocess.Popen:
        log = Path(args.logs) / f"bench_relay_{name}.log"
        log.write_text("")
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "portal.celery", "worker", "--pool=prefork",
             "--concurrency=2", "--loglevel=INFO", "--without-gossip", "--without-mingle",
             "--without-heartbeat", f"--hostname={name}@%h", f"--logfile={log}"],
            env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        workers.append(proc)
        wait(lambda: " ready." in log.read_text(errors="replace"), 120, f"{name} ready")
        return proc

    try:
        first = worker("first")
        first_lead = wait(leader, 30, "the first worker's relay leading")
        worker("second")

        queued = services.deadlines_sweep()
        kill_at = int(args.kill_at * args.matches)
        wait(lambda: swept.filter(phase_number=2).count() >= kill_at, 600,
             "the backlog being resolved")
        killed_leader = leader() == first_lead  # (it led since it started)
        os.killpg(first.pid, signal.SIGKILL)
        killed_at = timezone.now()
        first.wait()
        new_lead = wait(lambda: (pid := leader()) not in (None, first_lead) and pid, 60,
                        "a new leader", poll=0.005)
        led_at = timezone.now()
        left = swept.filter(phase_number=1).count()
        undone = OutboxEvent.objects.filter(done_at__isnull=True)
        held_by_the_dead = {"status": "sending", "sending_since__lt": killed_at}
        wait(lambda: not undone.exclude(**held_by_the_dead).exists(), 3600,
             "every row but the dead worker's carried out", poll=0.2)
    finally:
        for proc in workers:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in workers:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    held = set(undone.values_list("pk", flat=True))
    rows = OutboxEvent.objects.exclude(pk__in=held).values_list("created_at", "done_at")
    unheard, heard = [], []
    for created, done in rows:
        delay = (done - created).total_seconds()
        (unheard if killed_at <= created <= led_at else heard).append(delay)
    last_unheard = max((done for created, done in rows if killed_at <= created <= led_at),
                       default=led_at)

    def p(values: list[float], fraction: float) -> float | None:
        return round(percentile(values, fraction), 2) if values else None

    after_lead = sorted(done for created, done in rows if done > led_at)
    return {
        "commit_rows": commit_rows,
        "load_average": os.getloadavg()[0],
        "matches": args.matches,
        "sweep_queued": queued,
        "left_at_kill": left,
        "killed_the_leader": killed_leader and new_lead != first_lead,
        "new_leader_s": round((led_at - killed_at).total_seconds(), 2),
        "unheard_rows": len(unheard),
        "unheard_p50_s": p(unheard, 0.5),
        "unheard_p99_s": p(unheard, 0.99),
        "heard_rows": len(heard),
        "heard_p50_s": p(heard, 0.5),
        "heard_p99_s": p(heard, 0.99),
        "unheard_to_heard_p99": (round(p(unheard, 0.99) / p(heard, 0.99), 2)
                                 if unheard and heard else None),
        "lead_to_unheard_done_s": round((last_unheard - led_at).total_seconds(), 2),
        "after_lead_rows_per_s": (round(len(after_lead) / (after_lead[-1] - led_at)
                                        .total_seconds()) if after_lead else None),
        "held_rows": len(held),
    }


if __name__ == "__main__":
    main()
