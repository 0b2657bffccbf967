"""Benchmark: the portal's pages under a real server, against a bare Django page.

    .venv/bin/python scripts/bench_http.py [--duration 10] [--warm 2] [--finished 100000]
        [--rounds 9] [--reuse] [--repeat 1]

Starts gunicorn exactly as the docker stack does (``docker/gunicorn.conf.py``, the project's
WSGI application, ``DEBUG=false``, persistent database connections) on a database of its own
(``--database``, default ``bench_http``, on the server of DATABASE_URL, default the
machine's PostgreSQL; dropped and made anew, then migrated) and a Redis database for the cache
(``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/12``; the servers get it as CACHE_URL,
as docker's web does), then
times with Debian's ``wrk`` (``apt-get install wrk``; this script installs nothing)
``wrk -t2 -c8 -d10s`` per page (after ``--warm`` seconds of the same load, untimed), logged
in as a player (alice) of a Final Act match at round 9, every option on, whose orders are not
sealed yet (200 other matches in the lobby, some of them alice's, and ``--finished`` finished
matches, half of them alice's; a dozen messages between the measured match's players, public
and private):

- ``bare``: a bare Django page under the same gunicorn configuration and settings (middleware
  and all): one indexed query and a 50-row template (``scripts/bench_http_bare.py``), timed
  before the first page and after each one; each page's ratio is to the mean of the two bare
  runs around it (the machine's load drifts);
- ``match``: the Final Act match page of a player giving orders (the HTML alone);
- ``match_unit``: the match page as a player first sees it: the page, then every fragment its
  HTML loads on arrival (``hx-trigger="load"``, found in the page as served; the messages
  panel was one until it was rendered with the page), sent in turn (a ``wrk`` script); its
  requests/s are pages with their fragments per second (the requests divided by the number
  of requests a page takes), its p50 and p99 those of every request in the mix, and
  ``fragments`` says which were fetched;
- ``messages``: the messages panel alone as HTMX asks for it (its polls and channel switches);
- ``lobby``, ``home``, ``mine``: the lobby, the home page after log-in and "my matches";
- ``status``: the submission-status poll as a browser sends it after the first answer (HTMX,
  ``If-None-Match`` with the ETag it got): ``304 Not Modified`` while nothing changed.

Each page is fetched once first and checked (status, what it must show). Prints one JSON line:
requests/s, p50 and p99 latency (ms) per page, each page's requests/s as a ratio of the bare
page's, and the machine's load average at the start and the end. With ``--repeat N`` the
pages are timed N times in turn, and each page's ratio is the median of its N (on a shared
machine one page's ratio moved by a fifth from one run to the next); ``ratio_runs`` and
``runs`` give them all.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# Every option on: the heaviest order panel (all advanced rules, every action token).
OPTIONS = {"advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
           "tokens": {"mode": "all", "k": 3}, "extra_forces": True}


def own_database(url: str, name: str) -> str:
    """Drop and create database ``name`` on the server of ``url``; its URL."""
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- the data -------------------------------------------------------------------------------------

def build_data(rounds: int, others: int, finished: int) -> dict:
    """Users, the measured match and the others; returns what the requests need."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    import engine
    from games import services
    from games.models import Match

    game = engine.get("final-act")
    users = get_user_model().objects
    alice = users.create_user("alice", "alice@bench.test", "bench-http-pass")
    bob = users.create_user("bob", "bob@bench.test", "bench-http-pass")
    crowd = [users.create_user(f"player{n}", f"player{n}@bench.test", "bench-http-pass")
             for n in range(40)]

    # The measured match: played by the random bot for both sides for its first rounds (then,
    # for a long match, with the default sheet: every unit stays and holds fire, so that the
    # match lasts) up to round ``rounds``, with bob's sheet of that round sealed and alice's
    # not (she is giving orders). A random match may end early: try seeds until one lasts.
    from engine.final_act.options import MAX_ROUND_LIMIT

    for attempt in range(50):
        rng = random.Random(attempt)
        match = services.match_create(
            creator=alice, game="final-act",
            options={**OPTIONS, "round_limit": min(MAX_ROUND_LIMIT, rounds + 20)},
            hours_per_phase=24, title="Measured match",
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
        players = {1: alice, 2: bob}
        while match.status == Match.Status.ACTIVE and match.state["round"] < rounds:
            for seat in (1, 2):
                sheet = (game.bot_submission(match.state, seat, "random", rng)
                         if match.state["round"] < 9 else game.default_submission(match.state,
                                                                                    seat))
                services.orders_submit(match_id=match.pk, seat_number=seat,
                                       user=players[seat], phase_number=match.phase_number,
                                       data=sheet, source="web")
            services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
            match.refresh_from_db()
        if match.status == Match.Status.ACTIVE:
            break
        match.delete()  # ended before the wanted round
    else:
        raise SystemExit("no random match lasted to the wanted round")
    services.orders_submit(match_id=match.pk, seat_number=2, user=bob,
                           phase_number=match.phase_number, source="web",
                           data=game.bot_submission(match.state, 2, "random", rng))
    # What the players said (the match page's messages panel shows it): public and private.
    from portal.chat.services import message_post

    for n in range(12):
        message_post(match_id=match.pk, user=players[1 + n % 2],
                     channel="public" if n % 3 else [1, 2], source="web",
                     text=f"Message {n}: the northern flank holds, for now.")

    # The lobby: ``others`` more public matches, half waiting for players, half in play;
    # alice sits in one in five.
    for n in range(others):
        creator = alice if n % 5 == 0 else crowd[n % len(crowd)]
        second = crowd[(n + 1) % len(crowd)]
        other = services.match_create(
            creator=creator, game="final-act", options={}, hours_per_phase=24,
            title=f"Lobby match {n}",
            seats=[{"kind": "human", "user": creator}, {"kind": "human", "user": None}])
        if n % 2:
            services.seat_join(match_id=other.pk, user=second,
                               invite_token=other.invite_token)
    if finished:
        finished_matches(finished, alice, crowd)

    client = Client()
    client.force_login(alice)
    return {"match": match.pk, "phase": match.phase_number,
            "round": match.state["round"], "session": client.cookies["sessionid"].value}


def finished_matches(count: int, alice, crowd) -> None:
    """``count`` finished two-seat matches written in bulk (history: no state, no phases);
    alice played every other one."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match, Seat

    now = timezone.now()
    batch = 5000
    for start in range(0, count, batch):
        rows = []
        for n in range(start, min(count, start + batch)):
            when = now - timedelta(minutes=n + 1)
            rows.append(Match(game="final-act", title=f"Finished {n}", status="finished",
                              is_public=True, created_by=crowd[n % len(crowd)],
                              invite_token=f"bench-finished-{n}", phase_number=20,
                              result={"winners": [1], "reason": "bench"},
                              started_at=when - timedelta(days=1), finished_at=when))
        made = Match.objects.bulk_create(rows)
        Match.objects.filter(pk__in=[m.pk for m in made]).update(
            created_at=now - timedelta(days=2))
        seats = []
        for m in made:
            n = int(m.title.split()[-1])
            first = alice if n % 2 == 0 else crowd[(n + 3) % len(crowd)]
            second = crowd[n % len(crowd)]
            if second.pk == first.pk:
                second = crowd[(n + 7) % len(crowd)]
            seats.append(Seat(match=m, number=1, user=first, status="taken"))
            seats.append(Seat(match=m, number=2, user=second, status="taken"))
        Seat.objects.bulk_create(seats)


# -- servers and wrk ------------------------------------------------------------------------------

def start_gunicorn(env: dict, port: int, log: Path, settings: str) -> subprocess.Popen:
    """gunicorn as docker/compose.yml starts it (its config file), on a local port."""
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c",
               str(REPO / "docker" / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}",
               "--pythonpath", f"{REPO},{REPO / 'scripts'}", "portal.wsgi:application"]
    server = subprocess.Popen(command, cwd=REPO, stdout=log.open("w"), stderr=subprocess.STDOUT,
                              env={**env, "DJANGO_SETTINGS_MODULE": settings},
                              start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit(f"gunicorn exited: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start")


def stop(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)


def fetch(url: str, headers: dict) -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode(errors="replace")


UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return round(float(value) * UNITS[unit], 2)


def wrk(url: str, headers: dict, args, script: Path | None = None, *, warm: bool = True
        ) -> dict:
    """``wrk`` on ``url``: its requests/s, p50 and p99. With ``warm``, the same load for
    ``--warm`` seconds first, untimed: each server process then has its caches and its
    database session's prepared statements, as a server that has been up a while has (the
    first second of a cold page was most of its p99)."""
    def command(seconds: int) -> list[str]:
        made = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s",
                "--latency", url]
        if script is not None:
            made[1:1] = ["-s", str(script)]
        for name, value in headers.items():
            made[1:1] = ["-H", f"{name}: {value}"]
        return made

    if warm and args.warm > 0:
        subprocess.run(command(args.warm), check=True, capture_output=True)
    out = subprocess.run(command(args.duration), check=True, capture_output=True,
                         text=True).stdout
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if bad:
        raise SystemExit(f"{url}: {bad.group(1)} answers were errors\n{out}")
    return {
        "rps": round(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), 1),
        "p50_ms": _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)),
        "p99_ms": _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)),
    }


def configure(database: str, tmp: Path, *, fresh: bool = True) -> dict:
    """Make database ``database`` anew (unless not ``fresh``) and set this process up (Django's
    settings, as the servers have them); the servers' environment."""
    base_db = os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/test")
    database_url = (own_database(base_db, database) if fresh else
                    urlunsplit(urlsplit(base_db)._replace(path=f"/{database}")))
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
    secret = "bench-http-" + "x" * 50
    server_env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url,
                  "CACHE_URL": redis_url,
                  "DEBUG": "false", "SECRET_KEY": secret, "ALLOWED_HOSTS": "127.0.0.1",
                  "EMAIL_URL": "dummy://", "LOG_LEVEL": "WARNING", "PORTAL_VAR_DIR": str(tmp),
                  "PYTHONPATH": f"{REPO}{os.pathsep}{REPO / 'scripts'}"}
    # This process builds the data with the same settings, except that what it queues goes to
    # a broker of folders (nothing consumes it; no Redis list fills up).
    os.environ.update({**server_env, "REDIS_URL": "", "CACHE_URL": redis_url,
                       "DJANGO_SETTINGS_MODULE": "portal.settings"})
    return server_env


def existing_data() -> dict:
    """What the requests need, read from a database ``fill_database`` filled before."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.models import Match

    match = Match.objects.get(title="Measured match", status=Match.Status.ACTIVE)
    client = Client()
    client.force_login(get_user_model().objects.get(username="alice"))
    return {"match": match.pk, "phase": match.phase_number, "round": match.state["round"],
            "session": client.cookies["sessionid"].value}


def fill_database(args) -> dict:
    """Migrate, collect the static files, empty the cache and build the data (``build_data``);
    what the requests need."""
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    cache.clear()
    data = build_data(args.rounds, args.others, args.finished)
    with connection.cursor() as cursor:  # statistics, as autovacuum would gather them
        cursor.execute("ANALYZE")
    return data


def page_requests(data: dict) -> dict[str, tuple[str, dict, int, str]]:
    """Each page's path, request headers, expected status and a text its answer must hold."""
    headers = {"Cookie": f"sessionid={data['session']}", "X-Forwarded-Proto": "https"}
    htmx = {**headers, "HX-Request": "true"}
    match_path = f"/matches/{data['match']}/"
    return {
        "match": (match_path, headers, 200, 'id="fa-sheet-panel"'),
        "messages": (f"{match_path}messages/", htmx, 200, "Message 11:"),
        "lobby": ("/", headers, 200, "Lobby match"),
        "home": ("/home/", headers, 200, "Measured match"),
        "mine": ("/matches/mine/", headers, 200, "Measured match"),
        "status": (f"{match_path}status/?phase={data['phase']}", htmx, 200,
                   'id="submission-status"'),
        "bare": ("/bare/", headers, 200, "row 50"),
    }


# A page as a player first sees it: its HTML and every fragment it loads as soon as it
# arrives (``arrival_fragments``), timed as one unit.
UNITS_OF = {"match_unit": "match"}


def arrival_fragments(html: str) -> list[str]:
    """The paths the page's HTML asks for on arrival: ``hx-get`` of elements triggered by
    ``load`` (a ``revealed`` or polling trigger waits for the reader or the clock)."""
    found = []
    for tag in re.findall(r"<[^>]*\bhx-trigger=\"[^\"]*\bload\b[^>]*>", html):
        path = re.search(r'\bhx-get="([^"]+)"', tag)
        if path:
            found.append(path.group(1).replace("&amp;", "&"))
    return found


def wrk_script(tmp: Path, name: str, requests: list[tuple[str, dict]]) -> Path:
    """A ``wrk`` script sending ``requests`` (path, headers) in turn on each connection."""
    def lua(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def row(path: str, headers: dict) -> str:
        pairs = ", ".join(f"[{lua(key)}] = {lua(value)}" for key, value in headers.items())
        return f"  {{path = {lua(path)}, headers = {{{pairs}}}}}"

    rows = ",\n".join(row(path, headers) for path, headers in requests)
    script = tmp / f"{name}.lua"
    script.write_text(f"""local requests = {{\n{rows}\n}}
local turn = 0
request = function()
  turn = turn % #requests + 1
  local r = requests[turn]
  return wrk.format("GET", r.path, r.headers)
end
""")
    return script


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per page (wrk -d)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time the pages this many times in turn (the median ratio kept)")
    parser.add_argument("--warm", type=int, default=2,
                        help="seconds of untimed load on each page first (0: none)")
    parser.add_argument("--threads", type=int, default=2, help="wrk -t")
    parser.add_argument("--connections", type=int, default=8, help="wrk -c")
    parser.add_argument("--rounds", type=int, default=9, help="the measured match's round")
    parser.add_argument("--others", type=int, default=200, help="other matches in the lobby")
    parser.add_argument("--finished", type=int, default=0, help="finished matches (history)")
    parser.add_argument("--pages", default="match_unit,match,lobby,home,mine,status",
                        help="which pages to time (comma-separated)")
    parser.add_argument("--database", default="bench_http",
                        help="the database to drop, make anew and fill (DATABASE_URL's server)")
    parser.add_argument("--reuse", action="store_true",
                        help="time on the database a previous run (or profile_pages) filled")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("needs wrk: apt-get install wrk")

    load_start = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="bench-http-"))
    server_env = configure(args.database, tmp, fresh=not args.reuse)
    if args.reuse:
        import django

        django.setup()
        from django.core.cache import cache
        from django.core.management import call_command

        call_command("collectstatic", interactive=False, verbosity=0)  # (a fresh checkout)
        cache.clear()
        data = existing_data()
    else:
        data = fill_database(args)

    pages = page_requests(data)
    wanted = [name for name in args.pages.split(",") if name]

    def prepared(name: str, port: int) -> tuple[str, dict]:
        """The page's URL and headers, after one checked fetch (and, for the status poll,
        the ETag the browser would send back)."""
        path, page_headers, status, marker = pages[name]
        url = f"http://127.0.0.1:{port}{path}"
        code, answer_headers, body = fetch(url, page_headers)
        if code != status or marker not in body:
            raise SystemExit(f"{name}: {url} answered {code}\n{body[:3000]}")
        if name == "status" and "ETag" in answer_headers:
            page_headers = {**page_headers, "If-None-Match": answer_headers["ETag"]}
            code, _, _ = fetch(url, page_headers)
            if code != 304:
                raise SystemExit(f"status: the revalidation answered {code}, not 304")
        return url, page_headers

    # Both servers run at once (the idle one costs nothing); the bare page is timed before the
    # first page and after each, and each page is compared with the mean of the bare runs on
    # either side of it: the machine's load drifts.
    bare_port, portal_port = free_port(), free_port()
    servers = [start_gunicorn(server_env, bare_port, tmp / "bare.log", "bench_http_bare"),
               start_gunicorn(server_env, portal_port, tmp / "portal.log", "portal.settings")]
    try:
        bare_url, bare_headers = prepared("bare", bare_port)
        bare_runs = [wrk(bare_url, bare_headers, args)]
        results: dict[str, dict] = {}
        ratios: dict[str, list[float]] = {}
        runs: dict[str, list[dict]] = {}
        for name in wanted * args.repeat:
            if name in UNITS_OF:
                # The page, then each fragment it loads on arrival (as HTMX asks for it), in
                # turn on each wrk thread's connections.
                url, page_headers = prepared(UNITS_OF[name], portal_port)
                _, _, html = fetch(url, page_headers)
                parts = [(urlsplit(url).path, page_headers)] + [
                    (path, {**page_headers, "HX-Request": "true"})
                    for path in arrival_fragments(html)]
                for path, part_headers in parts[1:]:
                    code, _, _ = fetch(f"http://127.0.0.1:{portal_port}{path}", part_headers)
                    if code != 200:
                        raise SystemExit(f"{name}: the fragment {path} answered {code}")
                unit = wrk(url, page_headers, args, wrk_script(tmp, name, parts))
                unit["requests_per_unit"] = len(parts)
                unit["fragments"] = [path for path, _ in parts[1:]]
                unit["requests_rps"] = unit["rps"]
                unit["rps"] = round(unit["rps"] / len(parts), 1)
                results[name] = unit
            else:
                url, page_headers = prepared(name, portal_port)
                results[name] = wrk(url, page_headers, args)
            bare_runs.append(wrk(bare_url, bare_headers, args, warm=False))
            around = (bare_runs[-2]["rps"] + bare_runs[-1]["rps"]) / 2
            ratios.setdefault(name, []).append(round(results[name]["rps"] / around, 3))
            runs.setdefault(name, []).append(results[name])
    finally:
        for server in servers:
            stop(server)
    figures = {
        "round": data["round"],
        "other_matches": args.others,
        "finished_matches": args.finished,
        "wrk": f"-t{args.threads} -c{args.connections} -d{args.duration}s",
        "bare": {"rps": round(sum(r["rps"] for r in bare_runs) / len(bare_runs), 1),
                 "runs": bare_runs},
        **results,
        # (with --repeat, each page's median ratio, its runs' ratios in order, and each run)
        "ratio": {name: statistics.median(found) for name, found in ratios.items()},
        **({"ratio_runs": ratios, "runs": runs} if args.repeat > 1 else {}),
        "load_average": {"start": [round(x, 2) for x in load_start],
                         "end": [round(x, 2) for x in os.getloadavg()]},
    }
    print(json.dumps(figures))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
