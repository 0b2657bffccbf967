"""The Celery app as the integration tests run it: the real one, plus test-only broker knobs.

TEST_VISIBILITY_TIMEOUT (seconds) makes an unacknowledged message (its worker was killed)
come back quickly, and makes this worker look for such messages every second.
"""

import os

from portal.celery import app

_timeout = os.environ.get("TEST_VISIBILITY_TIMEOUT")
if _timeout:
    app.conf.broker_transport_options = {
        **(app.conf.broker_transport_options or {}),
        "visibility_timeout": float(_timeout),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    }

__all__ = ["app"]
