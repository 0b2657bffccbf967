"""Every main page under the Content-Security-Policy in a real browser (Debian's Chromium,
Playwright): no violation is reported, as a console message or a securitypolicyviolation event,
on the public pages, a player's pages, and every installed game's match and rules pages."""

from __future__ import annotations

import pytest

import engine
from games import plugins
from games.services import match_create
from tests.browser import BROWSER_MARKS, log_in
from tests.portal.builders import make_user

pytestmark = BROWSER_MARKS

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push({directive: e.violatedDirective, blocked: e.blockedURI || "inline",
                    source: e.sourceFile || "", line: e.lineNumber});
});
"""
CONTROL = "csp-control"  # what the control script would set, were it allowed to run


def violations_after_load(page) -> list[str]:
    """The page's violations so far. A deliberately inline script is added last and its own
    violation awaited: events come in order, so everything before it has been reported (and
    the detector is shown to work), with no guessed sleep."""
    page.evaluate("""(control) => {
        const s = document.createElement("script");
        s.textContent = "window.__ran = '" + control + "'";
        document.body.appendChild(s);
    }""", CONTROL)
    # The control has no source file (it came from this test, not from the page).
    page.wait_for_function("() => window.__csp.some(v => v.directive.startsWith('script-src')"
                           " && v.blocked === 'inline' && v.source === '')")
    seen = page.evaluate("window.__csp")
    assert page.evaluate("window.__ran === undefined"), "the inline control script ran"
    return [f"{v['directive']} {v['blocked']} {v['source']}:{v['line']}" for v in seen
            if not (v["blocked"] == "inline" and v["source"] == "")]


@pytest.mark.presentation
def test_the_main_pages_report_no_csp_violation(new_page):
    alice, bob = make_user("alice"), make_user("bob")
    matches = []
    for slug in plugins.installed():
        game = engine.get(slug)
        seats = [{"kind": "human", "user": alice}, {"kind": "human", "user": bob}]
        seats += [{"kind": "bot", "bot": game.bots[0]} if game.bots
                  else {"kind": "human", "user": None} for _ in range(game.min_seats - 2)]
        matches.append(match_create(creator=alice, game=slug, options=game.default_options(),
                                    seats=seats, hours_per_phase=24))
    # Under the site's policy, unlike the other browser tests (JavaScript errors fail the test).
    page = new_page(bypass_csp=False, init_script=RECORD_VIOLATIONS, timeout=20_000)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{page.url}: {m.text}")
            if "Content Security Policy" in m.text else None)
    base = page.base

    found: dict[str, list[str]] = {}
    visited: list[str] = []

    def visit(path: str) -> None:
        response = page.goto(base + path)
        assert response is not None and response.status < 400, (path, response and
                                                                 response.status)
        assert "script-src 'self'" in response.headers["content-security-policy"]
        visited.append(path)
        bad = violations_after_load(page)
        if bad:
            found[path] = bad

    for path in ("/", "/accounts/login/", "/accounts/signup/", "/clubs/", "/api/v1/docs"):
        visit(path)
    log_in(page, "alice")
    for path in ("/matches/mine/", "/matches/new/", "/accounts/profile/"):
        visit(path)
    for match in matches:
        visit(f"/matches/{match.pk}/")
        visit(f"/games/{match.game}/rules/")
    # The match page's own scripts ran (the policy allows them): htmx is loaded.
    assert page.evaluate("typeof window.htmx") == "object"
    assert found == {}, found
    # The console has exactly one report per page: the control's.
    assert len(console) == len(visited), console
