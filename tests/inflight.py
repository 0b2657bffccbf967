"""The requests this process is answering (the live server answers in threads of its own).

A browser test's teardown closes its pages, then waits here until the live server has answered
what they had asked (a poll, a form sent as the page closed) before pytest-django empties the
database: on SQLite the two shared one connection, and emptying it while a request still read
it failed the test ("database table is locked").
"""

from __future__ import annotations

import threading

_idle = threading.Condition()
_answering = 0


class InFlight:
    """Middleware (first in the test settings' list): counts the requests being answered."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        global _answering
        with _idle:
            _answering += 1
        try:
            return self.get_response(request)
        finally:
            with _idle:
                _answering -= 1
                _idle.notify_all()


def wait_until_idle(timeout: float = 15) -> bool:
    """True once no request is being answered (False if one still is after ``timeout``)."""
    with _idle:
        return _idle.wait_for(lambda: _answering == 0, timeout)
