"""gunicorn's settings for the docker stack (docker/compose.yml, docker/Dockerfile) and for
scripts/bench_http.py, which measures the pages under exactly this configuration.

Why these (docs/benchmarks.md, "The pages under a real server", has the measurements):

- The pages are CPU-bound Python (templates, the engine's views of the board) plus short
  database and cache round trips. Python runs one thread at a time per process, so what serves
  requests in parallel is processes: ``WEB_WORKERS`` per container, by default one per core
  plus one, so a core is never idle while a worker waits on PostgreSQL.
- ``gthread`` workers with ``WEB_THREADS`` threads each: a thread waiting on the database or
  Redis lets another run, and keep-alive connections (the browsers' HTMX polls every few
  seconds, the proxy's upstream connections) are held by the worker's event loop instead of a
  whole sync worker. There is no long-polling or websocket traffic: every request is short, so
  gevent would buy nothing and would need every library to cooperate.
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
threads = int(os.environ.get("WEB_THREADS", "2"))
keepalive = 5
timeout = 30
graceful_timeout = 30
preload_app = True
max_requests = 5000
max_requests_jitter = 500
accesslog = "-"
