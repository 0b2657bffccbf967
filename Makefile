# `make run`: set up and start the whole portal on the embedded default (SQLite, a filesystem
# Celery transport, demo data); a process that stops is restarted (portal/keep_running.py).
# `make test`: run every test. Both create .venv on first use.
# The distribution's Python 3.11 where there is one (Debian's is built with profile-guided
# optimisation: the tests ran 12 % faster on it than on a pyenv build of 3.11; docs/operating.md).
PYTHON ?= $(firstword $(wildcard /usr/bin/python3.11) python3)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test setup lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Development is asked for explicitly: the site's default is production (DEBUG off, and it
# refuses to start without SECRET_KEY).
run: export DEBUG = true
# Webhooks may post to a receiver on this machine (scripts/webhook_receiver.py), over http too.
# Development only: the site refuses to start with it and DEBUG off.
run: export OUTBOUND_ALLOW_LOOPBACK = true
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo_setup
	$(VENV)/bin/honcho -f Procfile.dev start

# On every core (pytest-xdist): each worker has its own database, Redis database, var/ folder
# and Chromium (tests/settings.py, tests/browser.py). Tests are handed out one or two at a
# time, in the order tests/conftest.py gives them (browser tests first, long ones first), so
# that a worker that is free takes the next.
TEST_WORKERS ?= auto
test: $(STAMP)
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --maxschedchunk 2 $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check engine games portal competitions clocks durable dbops analysis tests scripts
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) var
