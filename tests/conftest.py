"""Test-session wide settings.

Integration tests (marker ``integration``) need the real PostgreSQL (DATABASE_URL) and Redis
(REDIS_URL). Without them they are skipped on a developer machine; under CI=true a missing
service is an error, never a skip.
"""

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def services_missing() -> list[str]:
    missing = []
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        missing.append("DATABASE_URL (PostgreSQL)")
    if not os.environ.get("REDIS_URL", "").startswith("redis://"):
        missing.append("REDIS_URL")
    return missing


def pytest_collection_modifyitems(config, items):
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
