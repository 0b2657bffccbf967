"""Test-session wide settings.

Integration tests (marker ``integration``) need the real PostgreSQL (DATABASE_URL) and Redis
(REDIS_URL). Without them they are skipped on a developer machine; under CI=true a missing
service is an error, never a skip.
"""

import os

# The toy game for lifecycle tests: settings.ENGINE_EXTRA_GAMES for any worker process the
# tests start (they inherit this environment), and registered right here for this process
# (pytest-django has already read the settings by the time this file is imported).
os.environ.setdefault("ENGINE_EXTRA_GAMES", "tests.toygame,tests.plugged")

import hypothesis  # noqa: E402
import pytest  # noqa: E402

import tests.flush  # noqa: E402,F401  (a committing test's database emptied faster)
import tests.plugged  # noqa: E402,F401  (registers "toy-phases", "toy-plugged" and its plug-in)
import tests.toygame  # noqa: E402,F401  (registers "toy-duel")
from tests.axe import axe_script  # noqa: E402,F401  (the accessibility tests' axe-core)
from tests.browser import (  # noqa: E402,F401  (the browser tests' fixtures)
    SHARED_CHROMIUM,
    browser,
    is_browser_test,
    new_page,
    persistent_page,
)

IN_CI = os.environ.get("CI", "").lower() == "true"

# Hypothesis's clocks (a deadline per example, the "too slow" health check) measure the
# machine, not the code: on a shared machine with the tests on every core they failed tests
# that were right. Every property test runs without them; its example count is its own.
hypothesis.settings.register_profile(
    "portal", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("portal")


def services_missing() -> list[str]:
    missing = []
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        missing.append("DATABASE_URL (PostgreSQL)")
    if not os.environ.get("REDIS_URL", "").startswith("redis://"):
        missing.append("REDIS_URL")
    return missing


# Fixtures that reach the database (everything pytest-django gives that does, through its
# django_db_setup): a test that asks for one, or carries the django_db mark, is a database test.
DATABASE_FIXTURE = "django_db_setup"


def touches_services(item) -> bool:
    """A test whose outcome PostgreSQL or Redis can change: it uses the database, or is marked
    ``integration`` (real PostgreSQL, Redis, Celery workers) or ``services`` (Redis without the
    database), and is not marked ``presentation`` (how pages read and look in a browser:
    accessibility, colours, a phone's width, the CSP, the words of every page; their answer is
    the templates', styles' and scripts', which no database changes, and the pages' data
    is tested in both passes by the page tests and the URL walk). These run in both passes of
    .ci/run; every other test (the engine's rules, pure pairing, parsers, texts, presentation)
    runs in the first, the no-services pass, only."""
    if item.get_closest_marker("presentation") and not item.get_closest_marker("integration"):
        return False
    return (DATABASE_FIXTURE in getattr(item, "fixturenames", ())
            or any(item.get_closest_marker(name)
                   for name in ("django_db", "integration", "services")))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if touches_services(item):
            item.add_marker(pytest.mark.database)
    # The order the tests are handed out in (make test gives them to the workers one or two
    # at a time, so a free worker takes the next): the browser tests first and together (each
    # process's Chromium serves its run of them in turn: tests/browser.py), and the tests
    # marked ``long`` first within each part, so that the run does not end with one worker
    # busy on a minute-long test while the others have finished.
    items[:] = sorted(items, key=lambda item: (not is_browser_test(item),
                                               item.get_closest_marker("long") is None))

    missing = services_missing()
    if not missing:
        return
    if IN_CI:
        if any(item.get_closest_marker("integration") for item in items):
            raise pytest.UsageError(
                f"CI=true but {', '.join(missing)} not set: integration tests must run in CI"
            )
        return
    skip = pytest.mark.skip(reason=f"needs {', '.join(missing)} (set them, as .ci/run does)")
    for item in items:
        if item.get_closest_marker("integration"):
            item.add_marker(skip)


def pytest_runtest_setup(item):
    if not is_browser_test(item):
        SHARED_CHROMIUM.stop()  # the run of browser tests is over in this process


def pytest_sessionfinish(session, exitstatus):
    SHARED_CHROMIUM.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI=true nothing is skipped: a skip there means a service or a tool .ci/run should
    have provided is missing, and is reported as a failure with its reason."""
    report = yield
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"CI=true refuses to skip {item.nodeid}: {reason}"
    return report


# --- shared fixtures ------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _outbox_dispatch_queued_on_commit(settings):
    """Each transaction queues its outbox's dispatch on commit, where tests see it (and deliver
    it themselves); the relay that does it on PostgreSQL is tested on its own
    (tests/integration/test_relay.py) and runs in the integration tests' workers."""
    settings.OUTBOX_RELAY = False



@pytest.fixture
def make_user(db, django_user_model):
    """make_user("alice") -> a saved user (password "pw-<name>")."""

    def make(username: str, **extra):
        return django_user_model.objects.create_user(
            username=username, email=f"{username}@example.test", password=f"pw-{username}", **extra
        )

    return make


@pytest.fixture
def moderator(make_user):
    """A moderator: staff, in the Moderator group (what the site's moderators are given)."""
    from tests.helpers import as_moderator

    return as_moderator(make_user("mod", is_staff=True))


@pytest.fixture
def toy_duel(make_user):
    """toy_duel(**match_options) -> an active Toy Duel between two new players (alice, bob).

    Built through the services, as users do. Returns the match (players: match.alice/.bob).
    """
    from games import services

    counter = {"n": 0}

    def make(**kwargs):
        counter["n"] += 1
        n = counter["n"]
        alice, bob = make_user(f"alice{n}"), make_user(f"bob{n}")
        args = {"options": {}, "hours_per_phase": 24}
        args.update(kwargs)
        match = services.match_create(
            creator=alice, game="toy-duel",
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}], **args,
        )
        match.alice, match.bob = alice, bob
        return match

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Creating users in tests need not cost a real PBKDF2 round each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language and leaves it so: a request the test client
    made in French leaves French active in this thread (LocaleMiddleware activates a request's
    language and does not undo it), which the next test's texts would be rendered in."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _own_cache_keys(settings):
    """Each test counts its rate limits (API, log-in, sign-up) under its own cache keys: the
    cache is the shared Redis, and a count left by another test must not refuse this one."""
    import uuid

    caches = {alias: dict(conf) for alias, conf in settings.CACHES.items()}
    for conf in caches.values():
        conf["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def _empty_cache(_own_cache_keys):
    """Each test starts with an empty cache (pages cache rendered pieces: games.pagecache): its
    own key prefix in the shared one (never a clear: that would empty the whole Redis database,
    the broker's included) and nothing kept in this process."""
    from games import pagecache

    pagecache.forget_local()
    yield
