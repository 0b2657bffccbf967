"""Soak test of the embedded stack: what `make run` starts, played by bots for an hour.

    python scripts/soak.py [--minutes 60] [--port 8155] [--var-dir var/soak]
                           [--kill-worker-every MINUTES]

Starts the stack as `make run` does (DEBUG, SQLite and the folder broker in a var directory of
its own, the migrations, the demo data, then Procfile.dev through honcho on its own port), and
for the whole time:

- keeps a bot-only match of every installed game going (a new one when the last finished, at
  most one new match per game every two minutes, so as not to eat a shared machine);
- logs in as alice through the web pages and creates a club there (the step before the crash
  of issue 48), then a tournament of four bots in it, every few minutes;
- asks the web server for the home page, the lobby, the clubs and a live match page every two
  seconds, as alice;
- watches the processes: honcho must stay up, and a process that stops must be restarted
  (portal.keep_running says so in the log); ``--kill-worker-every`` kills the worker by hand
  (SIGKILL) now and then to see that happen.

At the end it prints a summary and exits 1 if anything failed: a page that did not answer (or
answered 5xx), a process that stopped without being killed here (a crash), a process that was
not restarted, a game that finished no match, or a tournament that never started.
The stack's whole output is in ``<var-dir>/stack.log``.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = str(ROOT / ".venv" / "bin" / "python")
HONCHO = str(ROOT / ".venv" / "bin" / "honcho")
RESTARTED = re.compile(r"\| The (\w+) process (.+?) \(pid (\d+)\)")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CRASH_WORDS = ("Unrecoverable error", "JSONDecodeError")


def stack_environment(var_dir: Path, port: int) -> dict[str, str]:
    """`make run`'s environment: development, the embedded default, our var dir and port."""
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "EMAIL_URL",
                          "CELERY_TASK_ALWAYS_EAGER", "DJANGO_SETTINGS_MODULE"}}
    env.update(DEBUG="true", OUTBOUND_ALLOW_LOOPBACK="true", PORTAL_VAR_DIR=str(var_dir),
               PORTAL_PORT=str(port), PYTHONUNBUFFERED="1")
    return env


def stack_prepare(env: dict[str, str], log) -> None:
    """`make run`'s first two steps."""
    for command in (["migrate", "--noinput"], ["demo_setup"]):
        subprocess.run([PY, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       stdout=log, stderr=subprocess.STDOUT)


def stack_start(env: dict[str, str], log) -> subprocess.Popen:
    """`make run`'s last step: honcho with Procfile.dev, in a session of its own."""
    return subprocess.Popen([HONCHO, "-f", "Procfile.dev", "start"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def stack_stop(honcho: subprocess.Popen, timeout: float = 30) -> None:
    if honcho.poll() is None:
        os.killpg(honcho.pid, signal.SIGINT)  # what Ctrl-C does
        try:
            honcho.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(honcho.pid, signal.SIGKILL)
            honcho.wait()


def wait_for_web(base: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/accounts/login/", timeout=5).read()
            return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"the web server did not answer at {base} within {timeout:.0f} s")


def read_pid(var_dir: Path, name: str) -> int | None:
    try:
        return int((var_dir / "run" / f"{name}.pid").read_text())
    except (OSError, ValueError):
        return None


class Browser:
    """A person at the site: cookies, log-in, forms with their CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str, timeout: float = 20) -> tuple[int, str]:
        try:
            with self.opener.open(self.base + path, timeout=timeout) as answer:
                return answer.status, answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, ""

    def post_form(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        status, page = self.get(path)
        token = CSRF.search(page)
        if status != 200 or not token:
            return status, page
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1), **fields})
        request = urllib.request.Request(self.base + path, data=data.encode(),
                                         headers={"Referer": self.base + path})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.geturl()
        except urllib.error.HTTPError as error:
            return error.code, ""


class Soak:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.var_dir = Path(args.var_dir).resolve()
        self.base = f"http://127.0.0.1:{args.port}"
        self.http_ms: list[float] = []
        self.http_failures: list[str] = []
        self.kills = 0
        self.created = Counter()
        self.clubs = 0
        self.tournament_ids: list[int] = []
        self.problems: list[str] = []

    # -- the site's data, read and written as the other processes do ------------------------
    def django_setup(self, env: dict[str, str]) -> None:
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "portal.settings"
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()

    def bot_match_keep(self, last_created: dict[str, float]) -> None:
        """A live bot-only match of every game; a new one when the last has finished."""
        from django.contrib.auth import get_user_model

        import engine
        from games.models import Match
        from games.option_fields import PRESET_QUICK
        from games.services import match_create

        owner = get_user_model().objects.get(username="bob")
        for slug, game in sorted(engine.games().items()):
            if not game.bots:
                continue
            live = Match.objects.filter(game=slug, created_by=owner, title__startswith="Soak",
                                        status__in=(Match.Status.OPEN, Match.Status.ACTIVE))
            if live.exists() or time.monotonic() - last_created.get(slug, -1e9) < 120:
                continue
            options = {**game.default_options(), **game.preset_options(PRESET_QUICK)}
            match_create(creator=owner, game=slug, options=options,
                         seats=[{"kind": "bot", "bot": game.bots[0]}] * game.min_seats,
                         hours_per_phase="0.25", title=f"Soak {slug} {self.created[slug] + 1}")
            self.created[slug] += 1
            last_created[slug] = time.monotonic()

    def club_and_tournament(self, browser: Browser) -> None:
        """Alice creates a club on the web pages, then a tournament of four bots in it."""
        from django.contrib.auth import get_user_model

        import engine
        from competitions import services
        from competitions.models import Club
        from games.option_fields import PRESET_QUICK

        self.clubs += 1
        name = f"Soak club {self.clubs} {random.randrange(10**6)}"
        status, _ = browser.post_form("/clubs/new/", {"name": name, "description": "soak",
                                                      "is_public": "on"})
        club = Club.objects.filter(name=name).first()
        if status >= 500 or club is None:
            self.problems.append(f"creating a club on the web answered {status}")
            return
        alice = get_user_model().objects.get(username="alice")
        games = sorted(slug for slug, g in engine.games().items()
                       if g.bots and g.min_seats == 2)
        game = games[self.clubs % len(games)]
        the_game = engine.get(game)
        options = {**the_game.default_options(), **the_game.preset_options(PRESET_QUICK)}
        tournament = services.tournament_create(
            by=alice, club_id=club.pk, name=f"Soak cup {self.clubs}", game=game,
            format="round_robin", options=options, hours_per_phase="0.25", round_hours=1)
        for _ in range(4):
            services.tournament_bot_enter(tournament_id=tournament.pk, by=alice,
                                          bot=the_game.bots[0])
        services.tournament_start(tournament_id=tournament.pk, by=alice)
        self.tournament_ids.append(tournament.pk)

    def live_match_path(self) -> str:
        from games.models import Match

        match = (Match.objects.filter(status=Match.Status.ACTIVE).order_by("?").only("pk")
                 .first())
        return f"/matches/{match.pk}/" if match else "/"

    # -- checks -----------------------------------------------------------------------------
    def check_web(self, browser: Browser, path: str) -> None:
        started = time.monotonic()
        try:
            status, _ = browser.get(path)
        except OSError as error:
            self.http_failures.append(f"{time.strftime('%H:%M:%S')} {path}: {error}")
            return
        self.http_ms.append((time.monotonic() - started) * 1000)
        if status >= 500:
            self.http_failures.append(f"{time.strftime('%H:%M:%S')} {path}: {status}")

    def run(self) -> int:
        args = self.args
        if self.var_dir.exists():
            shutil.rmtree(self.var_dir)
        self.var_dir.mkdir(parents=True)
        env = stack_environment(self.var_dir, args.port)
        log_path = self.var_dir / "stack.log"
        log = open(log_path, "ab", buffering=0)  # noqa: SIM115 - closed below, honcho writes
        print(f"soak: preparing the stack in {self.var_dir} (migrations, demo data)", flush=True)
        stack_prepare(env, log)
        honcho = stack_start(env, log)
        started = time.monotonic()
        try:
            wait_for_web(self.base, 120)
            self.django_setup(env)
            browser = Browser(self.base)
            status, where = browser.post_form("/accounts/login/", {
                "login": "alice", "password": "tank-demo-pass"})
            if status != 200 or "/accounts/login/" in where:
                raise SystemExit(f"could not log in as alice ({status}, {where})")
            print(f"soak: stack up at {self.base}, playing for {args.minutes:g} minutes",
                  flush=True)
            self.loop(browser, honcho, started)
        finally:
            stack_stop(honcho)
            log.close()
        return self.summary(honcho, log_path, time.monotonic() - started)

    def loop(self, browser: Browser, honcho: subprocess.Popen, started: float) -> None:
        args = self.args
        end = started + args.minutes * 60
        last_created: dict[str, float] = {}
        next_club = time.monotonic() + 20
        next_kill = (time.monotonic() + args.kill_worker_every * 60
                     if args.kill_worker_every else float("inf"))
        next_report = time.monotonic() + 300
        pages = ["/home/", "/", "/clubs/"]
        tick = 0
        while time.monotonic() < end:
            if honcho.poll() is not None:
                self.problems.append(f"honcho stopped (status {honcho.returncode}): the "
                                     "whole stack went down")
                return
            tick += 1
            try:
                if tick % 5 == 1:
                    self.bot_match_keep(last_created)
                if time.monotonic() >= next_club:
                    self.club_and_tournament(browser)
                    next_club = time.monotonic() + args.club_every * 60
                path = pages[tick % len(pages)] if tick % 2 else self.live_match_path()
            except Exception as error:  # noqa: BLE001 - a soak reports, it does not stop
                self.problems.append(f"{time.strftime('%H:%M:%S')} soak step: {error!r}")
                path = "/"
            self.check_web(browser, path)
            if time.monotonic() >= next_kill:
                pid = read_pid(self.var_dir, "worker")
                if pid:
                    os.kill(pid, signal.SIGKILL)
                    self.kills += 1
                    print(f"soak: killed the worker by hand (pid {pid})", flush=True)
                next_kill = time.monotonic() + args.kill_worker_every * 60
            if time.monotonic() >= next_report:
                print(f"soak: {(time.monotonic() - started) / 60:.0f} min, "
                      f"{len(self.http_ms)} page checks, {len(self.http_failures)} failed, "
                      f"matches created {dict(self.created)}", flush=True)
                next_report = time.monotonic() + 300
            time.sleep(2)

    def summary(self, honcho: subprocess.Popen, log_path: Path, seconds: float) -> int:
        from django.db.models import Count

        from competitions.models import Tournament
        from games.models import Action, Match, Phase

        text = log_path.read_text(errors="replace")
        restarts = RESTARTED.findall(text)
        crashes = [(name, how) for name, how, _ in restarts if how != "was killed by SIGKILL"]
        killed_restarts = len(restarts) - len(crashes)
        finished = dict(Match.objects.filter(status=Match.Status.FINISHED).values_list("game")
                        .annotate(n=Count("pk")))
        phases = Counter(dict(Phase.objects.exclude(resolved_at=None)
                              .values_list("match__game").annotate(n=Count("pk"))))
        # a continuous game (Tank Game) moves by actions, not resolved phases
        phases.update(dict(Action.objects.values_list("match__game").annotate(n=Count("pk"))))
        tournaments = Counter(Tournament.objects.filter(pk__in=self.tournament_ids)
                              .values_list("status", flat=True))
        crash_lines = [line for line in text.splitlines()
                       if any(word in line for word in CRASH_WORDS)]
        tracebacks = text.count("Traceback (most recent call last)")
        # runserver restarts itself when a file it watches changes (a checkout, a pip install
        # into the virtualenv): a few seconds without answers that are not a crash
        reloads = [line[:8] for line in text.splitlines() if "changed, reloading." in line]
        rejected = self.var_dir / "celery-processed" / "rejected"
        rejected_count = len(list(rejected.iterdir())) if rejected.is_dir() else 0
        ms = sorted(self.http_ms) or [0.0]
        print()
        print(f"Soak of the embedded stack: {seconds / 60:.1f} minutes at {self.base}")
        print(f"  page checks: {len(self.http_ms)} answered, {len(self.http_failures)} failed;"
              f" median {statistics.median(ms):.0f} ms, p95 {ms[int(len(ms) * .95)]:.0f} ms,"
              f" max {ms[-1]:.0f} ms")
        for failure in self.http_failures[:10]:
            print(f"    failed: {failure}")
        if reloads:
            print(f"  the web server reloaded itself after a file changed at: "
                  f"{', '.join(sorted(set(reloads)))} (pages fail for a few seconds then)")
        print(f"  bot matches created per game: {dict(sorted(self.created.items()))}")
        print("  matches finished per game (tournaments' too): "
              f"{dict(sorted(finished.items()))}")
        print(f"  phases resolved and actions applied per game: {dict(sorted(phases.items()))}")
        print(f"  clubs created on the web: {self.clubs}; tournaments: "
              f"{dict(tournaments) or 'none'}")
        print(f"  worker killed by hand: {self.kills}; restarts after those kills: "
              f"{killed_restarts}; other stops (crashes): {len(crashes)} {crashes or ''}")
        print(f"  log: {tracebacks} tracebacks, {len(crash_lines)} lines naming "
              f"{' or '.join(CRASH_WORDS)}; broker messages set aside unreadable: "
              f"{rejected_count}")
        went_down = any("honcho stopped" in problem for problem in self.problems)
        print("  honcho: " + ("stopped early: the whole stack went down" if went_down
                              else "ran to the end"))
        for problem in self.problems[:20]:
            print(f"  problem: {problem}")
        failed = []
        if self.http_failures:
            failed.append("pages failed")
        if crashes:
            failed.append("a process crashed")
        if killed_restarts < self.kills:
            failed.append("a killed worker was not restarted")
        if crash_lines:
            failed.append("the log names a broker error")
        if self.problems:
            failed.append("soak steps failed")
        idle = sorted(set(self.created) - set(phases))
        if idle:
            failed.append(f"no phase resolved nor action applied in {idle}")
        print(f"RESULT: {'FAIL (' + '; '.join(failed) + ')' if failed else 'PASS'}")
        return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=60)
    parser.add_argument("--port", type=int, default=8155)
    parser.add_argument("--var-dir", default=str(ROOT / "var" / "soak"),
                        help="the stack's own var directory (emptied first)")
    parser.add_argument("--club-every", type=float, default=5,
                        help="minutes between clubs (each with a bots' tournament)")
    parser.add_argument("--kill-worker-every", type=float, default=0,
                        help="minutes between SIGKILLs of the worker (0: never)")
    return Soak(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
