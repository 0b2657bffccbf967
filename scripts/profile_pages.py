"""Where a page's time goes: the pages of scripts/bench_http.py, profiled in one process.

    .venv/bin/python scripts/profile_pages.py [--database bench_http_profile] [--reuse]
        [--finished 20000] [--rounds 9] [--requests 50]
        [--pages bare,match,messages,lobby,home,mine,status]
        [--top 30] [--sort tottime] [--dump FOLDER]

Builds the same database as ``bench_http.py`` (``--database``, dropped and made anew; with
``--reuse``, the one a previous run built), with the same settings as its servers
(``DEBUG=false``, the cached template loader, the cache and sessions in Redis at
``BENCH_REDIS_URL``, persistent database connections), then sends each page ``--requests``
times (after two warm-up requests) straight to Django's WSGI handler, as gunicorn's worker
would, under cProfile. For each page it prints the CPU time per request (the process's, so
other processes' load counts less; the best of five batches without the profiler), the
Python function calls, SQL queries and cache
round trips per request, and the profile's top functions. The bare page is the one
``bench_http.py`` compares with (``scripts/bench_http_bare.py``), served by the same handler.
Counts are what to compare between two versions of the code; the times move with the
machine's load.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

import bench_http  # noqa: E402


def counters():
    """Count SQL queries (through every connection's execute wrapper) and cache round trips
    (each call to the Redis cache client's methods)."""
    from django.core.cache.backends.redis import RedisCacheClient
    from django.db import connection

    counts = {"queries": 0, "cache": 0}

    def query(execute, sql, params, many, context):
        counts["queries"] += 1
        return execute(sql, params, many, context)

    connection.execute_wrappers.append(query)
    for name in ("get", "get_many", "set", "set_many", "add", "delete", "delete_many", "touch",
                 "incr", "has_key"):
        original = getattr(RedisCacheClient, name)

        def counted(self, *args, __original=original, **kwargs):
            counts["cache"] += 1
            return __original(self, *args, **kwargs)

        setattr(RedisCacheClient, name, counted)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="bench_http_profile")
    parser.add_argument("--reuse", action="store_true",
                        help="use the database a previous run built (do not make it anew)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--others", type=int, default=200)
    parser.add_argument("--finished", type=int, default=20000)
    parser.add_argument("--requests", type=int, default=50, help="requests per page")
    parser.add_argument("--pages", default="bare,match,messages,lobby,home,mine,status")
    parser.add_argument("--top", type=int, default=30, help="functions shown per page (0: none)")
    parser.add_argument("--sort", default="tottime", help="pstats sort key")
    parser.add_argument("--json", action="store_true", help="one JSON line of figures only")
    parser.add_argument("--sql", action="store_true",
                        help="print each page's SQL statements (one request's, shortened)")
    parser.add_argument("--dump", type=Path, default=None,
                        help="a folder to write each page's profile to (<page>.prof, for pstats)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="profile-pages-"))
    bench_http.configure(args.database, tmp, fresh=not args.reuse)
    # The bare page's settings: the portal's, with the bare page's URL before the portal's.
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench_http_bare"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # (a fresh checkout has none)
    if args.reuse:
        from django.core.cache import cache

        cache.clear()
        data = bench_http.existing_data()
    else:
        data = bench_http.fill_database(args)
    from django.core.handlers.wsgi import WSGIHandler
    from django.test.client import FakePayload

    handler = WSGIHandler()
    counts = counters()

    def call(path_: str, headers: dict) -> tuple[str, bytes]:
        path_only, _, query = path_.partition("?")
        environ = {
            "REQUEST_METHOD": "GET", "PATH_INFO": path_only, "QUERY_STRING": query,
            "SCRIPT_NAME": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "127.0.0.1",
            "wsgi.version": (1, 0), "wsgi.url_scheme": "http", "wsgi.input": FakePayload(b""),
            "wsgi.errors": sys.stderr, "wsgi.multiprocess": True, "wsgi.multithread": True,
            "wsgi.run_once": False,
            **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()},
        }
        answer = {}

        def start_response(status, response_headers, exc_info=None):
            answer["status"] = status
            answer["headers"] = dict(response_headers)

        body = b"".join(handler(environ, start_response))
        return answer["status"], answer["headers"], body

    figures = {"round": data["round"], "finished_matches": args.finished,
               "requests": args.requests, "pages": {}}
    pages = bench_http.page_requests(data)
    for name in [n for n in args.pages.split(",") if n]:
        path_, headers, expected, marker = pages[name]
        status, answer_headers, body = call(path_, headers)
        if not status.startswith(str(expected)) or marker.encode() not in body:
            raise SystemExit(f"{name}: {path_} answered {status}\n{body[:3000]!r}")
        if name == "status" and "ETag" in answer_headers:
            headers = {**headers, "If-None-Match": answer_headers["ETag"]}
            status, _, _ = call(path_, headers)
            if not status.startswith("304"):
                raise SystemExit(f"status: the revalidation answered {status}, not 304")
        call(path_, headers)  # warm
        if args.sql:
            from django.db import connection
            from django.test.utils import CaptureQueriesContext

            with CaptureQueriesContext(connection) as captured:
                call(path_, headers)
            for number, query in enumerate(captured.captured_queries, 1):
                print(f"   sql {name} {number}: {query['sql'][:300]}")
        counts.update(queries=0, cache=0)
        # Timed by the process's CPU clock: what other processes do (the database included)
        # does not count, so the profile holds under load.
        profile = cProfile.Profile(time.process_time)
        cpu, wall = time.process_time(), time.perf_counter()
        profile.enable()
        for _ in range(args.requests):
            call(path_, headers)
        profile.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        # The same requests without the profiler, CPU time as served: the best of five
        # batches (other processes' load slows a batch down, never speeds one up).
        batches = []
        for _ in range(5):
            plain = time.process_time()
            for _ in range(args.requests):
                call(path_, headers)
            batches.append(time.process_time() - plain)
        plain = min(batches)
        stats = pstats.Stats(profile)
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            stats.dump_stats(args.dump / f"{name}.prof")
        n = args.requests
        figures["pages"][name] = {
            "cpu_ms": round(plain / n * 1000, 2),
            "cpu_ms_profiled": round(cpu / n * 1000, 2),
            "calls": round(stats.total_calls / n),
            "queries": counts["queries"] / (6 * n),
            "cache_round_trips": counts["cache"] / (6 * n),
            "bytes": len(body),
        }
        if not args.json:
            print(f"== {name} {path_}: {json.dumps(figures['pages'][name])}")
            if args.top:
                out = io.StringIO()
                pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
                print(out.getvalue())
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
