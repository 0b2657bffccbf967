"""Keep one development process running: ``python -m portal.keep_running NAME -- COMMAND...``.

``make run`` starts the web server, the Celery worker and beat with honcho (Procfile.dev), which
stops all of them as soon as one exits: a worker that crashed took the web server down with it
and the browser only said "connection refused". Each Procfile line runs its command through
this wrapper instead. When the command exits without having been asked to, the wrapper says so
in a framed message (which process, how it ended, that the others are still up) and starts it
again: at once the first time, then waiting longer while it keeps failing quickly (up to 10 s),
so a process that cannot start does not spin. When honcho stops everything (Ctrl-C), the
wrapper passes the signal on, waits for its command and exits with it.

The command's process id is kept in ``$PORTAL_VAR_DIR/run/NAME.pid`` (the soak test and the
restart test kill the worker by hand with it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# A run shorter than this counts as failing quickly: the next start waits longer.
QUICK_FAILURE_SECONDS = 30.0
MAX_WAIT_SECONDS = 10.0


def how_it_ended(returncode: int) -> str:
    """'exited with status 1' / 'was killed by SIGKILL' for a return code."""
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


def framed(*lines: str) -> str:
    width = max(len(line) for line in lines) + 4
    rule = "=" * width
    return "\n".join([rule, *(f"| {line.ljust(width - 4)} |" for line in lines), rule])


class Keeper:
    def __init__(self, name: str, command: list[str], pid_dir: Path) -> None:
        self.name = name
        self.command = command
        self.pid_file = pid_dir / f"{name}.pid"
        self.child: subprocess.Popen[bytes] | None = None
        self.stopping = False
        pid_dir.mkdir(parents=True, exist_ok=True)

    def stop(self, signum: int, frame: object) -> None:
        """Honcho (or Ctrl-C) stops everything: pass the signal on, do not restart."""
        self.stopping = True
        if self.child is not None and self.child.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.child.send_signal(signum)

    def run(self) -> int:
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, self.stop)
        restarts = 0
        quick_failures = 0
        while True:
            started = time.monotonic()
            self.child = subprocess.Popen(self.command)
            self.pid_file.write_text(f"{self.child.pid}\n")
            returncode = self.child.wait()
            if self.stopping:
                self.pid_file.unlink(missing_ok=True)
                return returncode if returncode >= 0 else 128 - returncode
            quick_failures = (quick_failures + 1
                              if time.monotonic() - started < QUICK_FAILURE_SECONDS else 0)
            wait = min(MAX_WAIT_SECONDS, 0.0 if quick_failures <= 1 else 2.0 ** quick_failures)
            restarts += 1
            print(framed(
                f"The {self.name} process {how_it_ended(returncode)} "
                f"(pid {self.child.pid}).",
                f"Restarting it{f' in {wait:.0f} s' if wait else ' now'} "
                f"(restart number {restarts}); the other processes are still running.",
            ), file=sys.stderr, flush=True)
            deadline = time.monotonic() + wait
            while not self.stopping and time.monotonic() < deadline:
                time.sleep(0.2)
            if self.stopping:
                return 0


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m portal.keep_running NAME -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    var_dir = Path(os.environ.get("PORTAL_VAR_DIR", Path(__file__).resolve().parent.parent
                                  / "var"))
    return Keeper(argv[0], argv[2:], var_dir / "run").run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
