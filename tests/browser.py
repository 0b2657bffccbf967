"""What every Playwright browser test shares: Debian's Chromium (no browser download), the marks,
a fresh browser per test, pages that fail the test on any JavaScript error, and the log-in.

Pages are opened in Debian's ``chromium-headless-shell`` where it is installed (.ci/run installs
it): Chromium's own headless build, the one Playwright itself runs headless, which took three
quarters of the full browser's CPU for the same tests. A test that needs what only the full
browser has (web push's notifications) is marked ``full_chromium``. Without the shell, every
test runs in the full ``chromium``.

A browser test module::

    pytestmark = BROWSER_MARKS              # [pytest.mark.integration, *BROWSER_MARKS] on the stack
    page = browser_page(timeout=20_000)     # its ``page`` fixture, with the module's own needs

and a test that needs several pages (players side by side, a phone) takes ``new_page``. The
``browser`` and ``new_page`` fixtures are registered in tests/conftest.py. One Chromium serves a
run of consecutive browser tests (SHARED_CHROMIUM); each test's pages have contexts of their
own, closed after it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests import inflight

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL") or shutil.which(
    "chromium-headless-shell") or CHROMIUM
IN_CI = os.environ.get("CI", "").lower() == "true"

# --no-sandbox: the tests run as root in a container. The rest keep Chromium from starting
# what a test never needs: a GPU process with no GPU, updates, sync, the default apps (most
# are in Playwright's own defaults too, said here so that they hold whatever its version).
# Chromium still asks Google for its accounts and component updates, so every name but the
# live server's resolves to nothing: nothing a test does leaves the machine.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # Under CI a missing Chromium is an error (.ci/run installs it), never a skip.
    pytest.mark.skipif(not CHROMIUM and not IN_CI,
                       reason="needs Chromium (apt-get install chromium)"),
]

# Playwright's waits (wait_for_function, ...) evaluate script, which the site's CSP refuses:
# pages bypass it unless told otherwise (the CSP itself is tested in test_csp_browser.py).
PAGE_DEFAULTS: dict[str, Any] = {"bypass_csp": True}
TIMEOUT_MS = 15_000


def browser_test(test: Callable) -> Callable:
    """BROWSER_MARKS on one test, in a module whose other tests need no browser."""
    for mark in reversed(BROWSER_MARKS):
        test = mark(test)
    return test


def launch(playwright, *, full: bool = False):
    """Debian's Chromium, headless (its headless shell unless ``full``), with CHROMIUM_ARGS."""
    return playwright.chromium.launch(executable_path=CHROMIUM if full else HEADLESS_SHELL,
                                      args=CHROMIUM_ARGS)


class _SharedChromium:
    """One Chromium for a run of consecutive browser tests in this process: started by the
    first, kept while browser tests follow one another (each has its own context, so its own
    cookies and storage), stopped as soon as a test that is not one comes, or the session ends.
    Playwright's sync API keeps its event loop in this thread while it runs, which Django's
    async-safety check and asyncio code in other tests would take for async code: so it runs
    only while browser tests do (the browser tests come first, together: tests/conftest.py)."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._manager: Any = None
        self.browsers: dict[bool, Any] = {}  # full? -> the running browser

    def get(self, *, full: bool = False) -> Any:
        """The headless shell, or the full browser if ``full`` (each started when first
        asked for)."""
        running = self.browsers.get(full)
        if running is not None and running.is_connected():
            return running
        self.playwright()
        self.browsers[full] = launch(self._playwright, full=full)
        return self.browsers[full]

    def playwright(self) -> Any:
        """The running Playwright (started with the first browser)."""
        if self._manager is None:
            from playwright import sync_api

            self._manager = sync_api.sync_playwright()
            self._playwright = self._manager.__enter__()
            # The ORM is used from this thread while Playwright's loop is in it (see above).
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        return self._playwright

    def stop(self) -> None:
        if self._manager is None:
            return
        try:
            for running in self.browsers.values():
                if running.is_connected():
                    running.close()
        finally:
            self._manager.__exit__(None, None, None)
            self._manager = self._playwright = None
            self.browsers = {}
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


SHARED_CHROMIUM = _SharedChromium()


def is_browser_test(item) -> bool:
    return item.get_closest_marker("browser") is not None


@pytest.fixture
def browser(request) -> Iterator[Any]:
    """The process's Chromium (SHARED_CHROMIUM: its headless shell, or the full browser for a
    test marked ``full_chromium``); a test's pages live in contexts of their own, which
    ``new_page`` closes after the test."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("CI=true needs Playwright")
        pytest.skip("needs Playwright")
    yield SHARED_CHROMIUM.get(full=request.node.get_closest_marker("full_chromium") is not None)


@pytest.fixture
def new_page(browser, live_server) -> Iterator[Callable[..., Any]]:
    """new_page(timeout=..., init_script=..., **context_options) -> a page in a browser context
    of its own (its own cookies), ``page.base`` the live server's URL. Context options go to
    ``browser.new_context`` over PAGE_DEFAULTS. A JavaScript error on any page fails the test."""
    errors: list[str] = []
    contexts: list[Any] = []

    def make(*, timeout: float = TIMEOUT_MS, init_script: str | None = None, **options: Any):
        context = browser.new_context(**{**PAGE_DEFAULTS, **options})
        contexts.append(context)
        if init_script:
            context.add_init_script(init_script)
        page = context.new_page()
        page.set_default_timeout(timeout)
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.base = live_server.url
        return page

    yield make
    for context in contexts:
        context.close()
    inflight.wait_until_idle()  # before the database is emptied (tests/inflight.py)
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.fixture
def persistent_page(browser, live_server, tmp_path) -> Iterator[Callable[..., Any]]:
    """persistent_page(**context_options) -> a page of a Chromium profile kept on disk (in the
    test's tmp_path): what a browser needs to call a site installable, which it never does in
    the incognito-like contexts of ``new_page``. ``page.base`` is the live server's URL."""
    contexts: list[Any] = []

    def make(*, timeout: float = TIMEOUT_MS, **options: Any):
        context = SHARED_CHROMIUM.playwright().chromium.launch_persistent_context(
            str(tmp_path / f"profile-{len(contexts)}"), executable_path=CHROMIUM,
            args=CHROMIUM_ARGS, **{**PAGE_DEFAULTS, **options})
        contexts.append(context)
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(timeout)
        page.base = live_server.url
        return page

    yield make
    for context in contexts:
        context.close()
    inflight.wait_until_idle()


def browser_page(**options: Any):
    """A module's ``page`` fixture: one page made by ``new_page(**options)``."""

    @pytest.fixture
    def page(new_page):
        return new_page(**options)

    return page


def log_in(page, username: str, password: str | None = None) -> None:
    """Log in through the site's form (password: the builders' PASSWORD) and land on home."""
    if password is None:
        from tests.portal.builders import PASSWORD  # (builders needs Django set up)

        password = PASSWORD
    page.goto(page.base + "/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url("**/home/")


# Loaded, and no HTMX request, swap or settle under way: the fragments a page loads on arrival
# (hx-trigger="load") are in. (Playwright's "networkidle" waited for the same plus half a
# second of silence on every page.)
SETTLED = """() => document.readyState === "complete"
  && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")"""


def settle(page) -> None:
    """Wait until the page has settled (see SETTLED) before reading or auditing it."""
    page.wait_for_function(SETTLED)
