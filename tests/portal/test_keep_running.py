"""`make run`'s processes survive one of them dying: portal.keep_running restarts it and says
so, and honcho no longer stops the web server with it (issue 48: the worker died and the site
answered "connection refused")."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv" / "bin" / "python")


def wait_until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def running(pid: int) -> bool:
    """Is ``pid`` a live process (not gone, not a zombie waiting to be reaped)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.long
def test_a_command_that_dies_is_restarted_with_a_notice_and_a_stop_is_not(tmp_path):
    marker = tmp_path / "ran-once"
    child = ("import os, pathlib, signal, time\n"
             f"p = pathlib.Path({str(marker)!r})\n"
             "if not p.exists():\n"
             "    p.write_text('x'); os.kill(os.getpid(), signal.SIGKILL)\n"
             "time.sleep(60)\n")
    keeper = subprocess.Popen(
        [sys.executable, "-m", "portal.keep_running", "toy", "--", sys.executable, "-c", child],
        cwd=ROOT, env={**os.environ, "PORTAL_VAR_DIR": str(tmp_path)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    pid_file = tmp_path / "run" / "toy.pid"
    def restarted() -> int | None:
        """The pid of the child that runs on: started after the first one left its marker
        and killed itself, and still there a moment later (on a loaded machine the first one
        may be started and gone before the test ever reads its pid)."""
        pid = read_pid(pid_file)
        if not (marker.exists() and pid):
            return None
        time.sleep(0.5)
        return pid if read_pid(pid_file) == pid and running(pid) else None

    try:
        second = wait_until(restarted, 20, "the restart")
        assert running(second)
    finally:
        keeper.send_signal(signal.SIGTERM)
        output, _ = keeper.communicate(timeout=10)
    assert "The toy process was killed by SIGKILL" in output
    assert "Restarting it now (restart number 1); the other processes are still running." in output
    assert output.count("Restarting") == 1  # the stop asked for is not a crash
    assert not pid_file.exists()


@pytest.mark.long
def test_make_run_stack_restarts_a_killed_worker_and_the_web_server_stays_up(tmp_path):
    """The stack as `make run` starts it (honcho, Procfile.dev): the worker killed by hand
    (SIGKILL) is started again, and the web server answers all along."""
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "EMAIL_URL",
                          "DJANGO_SETTINGS_MODULE"}}
    env.update(DEBUG="true", PORTAL_VAR_DIR=str(tmp_path), PORTAL_PORT=str(port))
    log = tmp_path / "honcho.log"
    with open(log, "wb") as out:
        honcho = subprocess.Popen([str(ROOT / ".venv" / "bin" / "honcho"), "-f", "Procfile.dev",
                                   "start"], cwd=ROOT, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/static/css/portal.css"  # no database needed

    def web_answers() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                return answer.status == 200
        except OSError:
            return False

    worker_pid = tmp_path / "run" / "worker.pid"
    try:
        wait_until(web_answers, 90, "the web server")
        first = wait_until(lambda: read_pid(worker_pid), 30, "the worker")
        wait_until(lambda: "celery@" in log.read_text(errors="replace"), 60,
                   "the worker to start")
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 60
        answered = 0
        while "celery@" not in log.read_text(errors="replace").partition(
                "was killed by SIGKILL")[2]:
            assert time.monotonic() < deadline, "the worker was not started again"
            assert honcho.poll() is None, "honcho stopped the stack:\n" + log.read_text()
            assert web_answers(), "the web server stopped answering"
            answered += 1
            time.sleep(0.5)
        assert answered > 0
        second = read_pid(worker_pid)
        assert second and second != first
        os.kill(second, 0)
        assert web_answers()
        text = log.read_text(errors="replace")
        assert f"The worker process was killed by SIGKILL (pid {first})." in text
        assert "the other processes are still running" in text
    finally:
        if honcho.poll() is None:
            os.killpg(honcho.pid, signal.SIGINT)
            try:
                honcho.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(honcho.pid, signal.SIGKILL)
                honcho.wait()
