"""axe-core (the npm package) run in the browser tests' Chromium: what the accessibility tests
share (tests/portal/test_accessibility.py, docs/accessibility.md).

The package is not in the repository: the first test that needs it installs it with npm into
``var/npm/`` (``npm install --no-save axe-core@<AXE_CORE>``), and later runs find it there. Under
CI a missing npm, or an install that fails, is an error; on a developer's machine without npm
the tests are skipped.

``axe_violations(page)`` injects axe into the page (the browser tests bypass the site's CSP) and
runs every rule axe enables by default (WCAG 2.0-2.2 A and AA, best practices) plus the two
duplicate-id rules, deprecated in axe since WCAG 2.2 dropped 4.1.1 but still a real bug for
``aria-labelledby`` and for scripts that look an element up; it answers the violations whose
impact is serious or critical, and every duplicate id, as readable lines.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# A minor version range: the rules (and so what the tests fail on) change between minors.
AXE_CORE = "~4.14.1"
NPM_PREFIX = REPO / "var" / "npm"
AXE_SCRIPT = NPM_PREFIX / "node_modules" / "axe-core" / "axe.min.js"
IN_CI = os.environ.get("CI", "").lower() == "true"

FAILING_IMPACTS = ("serious", "critical")
ALWAYS_FAILING = ("duplicate-id", "duplicate-id-active", "duplicate-id-aria")

RUN_AXE = """async () => {
  const results = await axe.run(document, {
    resultTypes: ["violations"],
    rules: {"duplicate-id": {enabled: true}, "duplicate-id-active": {enabled: true}},
  });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 160),
                                summary: (n.failureSummary || "").slice(0, 300)})),
  }));
}"""


def _installed_version() -> str | None:
    package = AXE_SCRIPT.parent / "package.json"
    if not AXE_SCRIPT.exists() or not package.exists():
        return None
    return json.loads(package.read_text()).get("version")


def _satisfies(version: str | None) -> bool:
    """True if ``version`` is in AXE_CORE's tilde range (same major and minor, patch at least)."""
    if version is None:
        return False
    wanted = [int(p) for p in AXE_CORE.lstrip("~").split(".")]
    have = [int(p) for p in version.split(".")[:3]]
    return have[:2] == wanted[:2] and have[2] >= wanted[2]


def axe_source() -> str:
    """axe.min.js, installed with npm first if it is missing (or not in AXE_CORE's range).
    Test workers running side by side (pytest-xdist) install it one at a time."""
    NPM_PREFIX.mkdir(parents=True, exist_ok=True)
    with open(NPM_PREFIX / ".install-lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _axe_source()


def _axe_source() -> str:
    if not _satisfies(_installed_version()):
        npm = shutil.which("npm")
        if npm is None:
            if IN_CI:
                pytest.fail("CI=true needs npm to install axe-core")
            pytest.skip("needs npm (apt-get install npm) to install axe-core")
        NPM_PREFIX.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--no-package-lock",
             "--prefix", str(NPM_PREFIX), f"axe-core@{AXE_CORE}"],
            capture_output=True, text=True, timeout=300)
        if done.returncode != 0 or not _satisfies(_installed_version()):
            message = f"npm could not install axe-core@{AXE_CORE}: {done.stderr[-2000:]}"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
    return AXE_SCRIPT.read_text()


@pytest.fixture(scope="session")
def axe_script() -> str:
    return axe_source()


def axe_violations(page, script: str, *, where: str = "") -> list[str]:
    """The page's serious and critical violations (and duplicate ids), a readable line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=script)
    found = page.evaluate(RUN_AXE)
    lines = []
    for violation in found:
        if violation["impact"] not in FAILING_IMPACTS and violation["id"] not in ALWAYS_FAILING:
            continue
        nodes = violation["nodes"]
        shown = "; ".join(f"{n['target']}: {n['html']}" for n in nodes[:3])
        more = f" (and {len(nodes) - 3} more)" if len(nodes) > 3 else ""
        lines.append(f"{where or page.url}: [{violation['impact']}] {violation['id']} "
                     f"({violation['help']}), {len(nodes)} element(s): {shown}{more} — "
                     f"{nodes[0]['summary']}")
    return lines
