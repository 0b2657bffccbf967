"""The tests' settings: development, asked for explicitly (the site's default is production).
Processes the tests start (Celery workers, `manage.py` runs) inherit it through DEBUG.

Under pytest-xdist each worker process (gw0, gw1, ...) gets a place of its own before the
site's settings read the environment: its own var/ folder (the SQLite file, the folder broker,
keys), its own Redis database (REDIS_URL's number plus the worker's), and pytest-django gives it
its own test database (test_<name>_gw0, ...). Celery workers and `manage.py` runs that a test
starts inherit the same environment, so nothing one worker writes reaches another.
"""

import os
import re
from pathlib import Path

os.environ.setdefault("DEBUG", "true")

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ... under xdist
if _worker and not os.environ.get("TEST_WORKER_ISOLATED"):
    os.environ["TEST_WORKER_ISOLATED"] = _worker  # once, not again in a child process
    _number = int(_worker.removeprefix("gw"))
    _var = Path(os.environ.get("PORTAL_VAR_DIR") or Path(__file__).resolve().parents[1] / "var")
    os.environ["PORTAL_VAR_DIR"] = str(_var / "test-workers" / _worker)
    for _name in ("REDIS_URL", "CACHE_URL"):
        _url = os.environ.get(_name, "")
        _match = re.fullmatch(r"(redis://[^/]*)(?:/(\d+))?", _url)
        if _match:
            os.environ[_name] = f"{_match[1]}/{int(_match[2] or 0) + _number}"

from portal.settings import *  # noqa: E402,F403

# Requests in flight are counted, for the browser tests' teardown (tests/inflight.py).
MIDDLEWARE = ["tests.inflight.InFlight", *MIDDLEWARE]  # noqa: F405

# On PostgreSQL the tests' commits do not wait for the write-ahead log to reach the disk
# (synchronous_commit off: a crash of the server could lose the last commits, never corrupt
# them; the tests never crash the server). A test that commits (the browser, live-server and
# integration tests) and each emptying of the database between them waited for it.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["options"] = f"{_options.get('options', '')} -c synchronous_commit=off".strip()

# A query while a {% pagekept %} block of the match page renders is an error (games/templatetags/
# kept.py): everything such a block shows must be in the context its key is made of.
PAGE_KEPT_STRICT = True
