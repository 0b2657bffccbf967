"""gunicorn's settings for the docker stack (docker/compose.yml, docker/Dockerfile) and for
scripts/bench_http.py, which measures the pages under exactly this configuration.

Why these (docs/benchmarks.md, "The pages under a real server", has the measurements):

- The pages are CPU-bound Python (templates, the engine's views of the board) plus short
  database and cache round trips. Python runs one thread at a time per process, so what serves
  requests in parallel is processes: ``WEB_WORKERS`` per container, by default one per core
  plus one, so a core is never idle while a worker waits on PostgreSQL.
- ``gthread`` workers, one thread each by default (``WEB_THREADS``), each accepting a
  connection only when a thread of its own is free (``worker_connections = threads``): the
  requests wait in the kernel's queue, first come first served, until a worker is free, not
  behind a busy worker that accepted them (gunicorn accepts otherwise whatever it can). Two
  threads a worker had the same throughput and a longer tail (the match page's p99 65 ms
  against 50–58 with one; two threads share their process's interpreter lock). There is no
  long-polling or websocket traffic: every request is short, so gevent would buy nothing and
  would need every library to cooperate; a slow client is the proxy's to buffer.
- No keep-alive (``WEB_KEEPALIVE``, default 0: the connection closes after each response). A
  kept-alive connection stays with the worker that accepted it, and one worker may accept them
  all: a proxy's eight upstream connections served by one process, one core of two, half the
  throughput (measured: the lobby at 288 or 143 requests/s from one run to the next, nothing
  else changed). Closed after each request, every request is accepted afresh by whichever
  worker is free (a loopback connection costs about 0.1 ms). ``reuse_port``, which spreads
  connections by the kernel instead, was measured too and left out: a worker recycled by
  ``max_requests`` drops the connections waiting on its own socket (340 read errors in 15 s of
  load, recycling every 300 requests; none without it).
- ``preload_app``: the project is imported once before the fork; the workers share those pages
  of memory (``portal/wsgi.py`` freezes them out of the garbage collector's reach).
- ``max_requests`` (with jitter) recycles a worker now and then, bounding any slow growth of
  its memory (its in-process cache when ``CACHE_URL`` is not set).
"""

import multiprocessing
import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "1"))
worker_connections = threads
keepalive = int(os.environ.get("WEB_KEEPALIVE", "0"))
timeout = 30
graceful_timeout = 30
preload_app = True
max_requests = 5000
max_requests_jitter = 500
accesslog = "-"
