"""Integration harness: real PostgreSQL, real Redis, real Celery worker and beat processes.

Tests here are transactional (committed data), so the worker processes, which connect to the
test database by its name, see what the test wrote, and the test sees what they wrote.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def wait_until(predicate: Callable[[], object], timeout: float, what: str,
               interval: float = 0.2) -> object:
    """Poll ``predicate`` until it returns something truthy; fail naming ``what``."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Proc:
    """A started process (in its own process group) with its output in a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log_path = log
        self._log = open(log, "ab")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(args, env=env, cwd=REPO, stdout=self._log,
                                      stderr=subprocess.STDOUT, start_new_session=True)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, text: str, timeout: float = 60) -> None:
        def seen() -> bool:
            if self.popen.poll() is not None:
                raise AssertionError(f"{self.name} exited ({self.popen.returncode}):\n"
                                     f"{self.log()[-3000:]}")
            return text in self.log()

        wait_until(seen, timeout, f"{text!r} in the {self.name} log")

    def kill(self) -> None:
        """SIGKILL the whole process group: no goodbye, no ack, no rollback by the process."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)
        self._log.close()

    def stop(self, timeout: float = 15) -> None:
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)  # stray children (prefork, beat)
        self._log.close()


@pytest.fixture(scope="session")
def test_database_url(django_db_setup, django_db_blocker) -> str:
    """DATABASE_URL of pytest-django's test database, for the worker processes."""
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def flush_broker(url: str) -> None:
    """Drop queued and unacknowledged messages left by earlier runs or tests (ids get reused):
    every queue the site declares (a resolution waiting on the lifecycle queue would be
    carried out by the next test's worker), and the unacknowledged ones."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(url)
    queues = [queue.name for queue in settings.CELERY_TASK_QUEUES]
    client.delete(*queues, "unacked", "unacked_index", "unacked_mutex")
    client.close()


class Services:
    """Starts Celery workers, beat and private Redis servers for one test; stops them after."""

    def __init__(self, database_url: str, tmp: Path) -> None:
        self.database_url = database_url
        self.tmp = tmp
        self.procs: list[Proc] = []
        self.broker_url = os.environ["REDIS_URL"]

    def env(self, broker_url: str | None = None, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.database_url,
            REDIS_URL=broker_url or self.broker_url,
            ENGINE_EXTRA_GAMES="tests.toygame",
            DJANGO_SETTINGS_MODULE="portal.settings",
            PYTHONPATH=str(REPO),
            PORTAL_VAR_DIR=str(self.tmp),
            SWEEP_INTERVAL_SECONDS="1",
            SWEEP_COMPLETE_GRACE_SECONDS="2",
            OUTBOX_RELAY="true",
            OUTBOX_RELAY_RETRY_SECONDS="0.5",
            LOG_LEVEL="INFO",
        )
        for key in ("TOY_DUEL_RESOLVE_SLEEP", "TOY_DUEL_RESOLVE_MARKER",
                    "TEST_VISIBILITY_TIMEOUT"):
            env.pop(key, None)
        env.update(extra)
        return env

    def _start(self, name: str, args: list[str], env: dict[str, str]) -> Proc:
        proc = Proc(name, args, env, self.tmp / f"{name}-{len(self.procs)}.log")
        self.procs.append(proc)
        return proc

    def worker(self, *, concurrency: int = 2, pool: str = "prefork",
               broker_url: str | None = None, **env: str) -> Proc:
        name = f"worker{len(self.procs)}"
        proc = self._start(name, [
            sys.executable, "-m", "celery", "-A", "tests.integration.worker_app", "worker",
            f"--pool={pool}", f"--concurrency={concurrency}", "--loglevel=INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
            f"--hostname={name}@%h",
        ], self.env(broker_url, **env))
        proc.wait_for_log(" ready.")
        return proc

    def beat(self, *, broker_url: str | None = None) -> Proc:
        proc = self._start("beat", [
            sys.executable, "-m", "celery", "-A", "tests.integration.worker_app", "beat",
            "--loglevel=INFO", "-s", str(self.tmp / f"beat-schedule-{len(self.procs)}"),
        ], self.env(broker_url))
        proc.wait_for_log("beat: Starting")
        return proc

    def redis(self, port: int | None = None) -> tuple[Proc, str]:
        """A private redis-server (no persistence): stopping it disturbs nobody else."""
        port = port or free_port()
        proc = self._start(f"redis{port}", [
            "/usr/bin/redis-server", "--port", str(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", str(self.tmp),
        ], dict(os.environ))
        proc.wait_for_log("Ready to accept connections", timeout=20)
        return proc, f"redis://127.0.0.1:{port}/0"

    def stop_all(self) -> None:
        for proc in reversed(self.procs):
            proc.stop()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, for fixtures that act on a failure."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def stack(test_database_url, tmp_path, request, settings) -> Iterator[Services]:
    # This process plays the web's part, whose transactions leave the outbox's dispatch to
    # the workers' relay, as in production (else both would queue every row).
    settings.OUTBOX_RELAY = True
    flush_broker(os.environ["REDIS_URL"])
    started = Services(test_database_url, tmp_path)
    try:
        yield started
    finally:
        started.stop_all()
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            # What the workers and beat saw is what explains a failure here: print its end.
            for proc in started.procs:
                sys.stderr.write(f"----- {proc.name} log, beat's routine lines left out "
                                 f"-----\n{telling(proc.log())[-20_000:]}\n")
            sys.stderr.write(f"----- the sweeper's heartbeat -----\n{sweep_runs()}\n")


# Beat's sendings and the sweeps that found nothing to do, once a second: they filled the
# end of a failed test's log, where what explains the failure was cut off.
_ROUTINE = re.compile(r"Sending due task|(?:_sweep|tasks\.sweep|votes_expire)\[[^\]]+\] "
                      r"(?:received|succeeded in [\d.]+s: (?:0|\{[^}]*\}))\s*$")


def telling(log: str) -> str:
    """A worker's or beat's log without its routine lines (see _ROUTINE)."""
    return "\n".join(line for line in log.splitlines() if not _ROUTINE.search(line))


def sweep_runs() -> str:
    """The sweeper's heartbeat rows, as the test's database holds them at its end."""
    from games.models import SweepRun

    try:
        return "\n".join(str(row) for row in SweepRun.objects.values()) or "(none)"
    except Exception as error:  # noqa: BLE001  (a report, whatever the database's state)
        return f"(unreadable: {error!r})"


@contextlib.contextmanager
def broker(url: str) -> Iterator[None]:
    """Point this (test) process's Celery producer at another broker for a while."""
    from kombu import pools as kombu_pools

    from portal.celery import app

    def reset() -> None:
        # kombu keeps one global pool per broker: drop them all so new ones get made.
        kombu_pools.reset()
        app._pool = None
        app.amqp._producer_pool = None

    old = app.conf.broker_url
    reset()
    app.conf.broker_url = url
    try:
        yield
    finally:
        reset()
        app.conf.broker_url = old
