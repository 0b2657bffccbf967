"""Development's mail backend: one line per mail on the console, with its links, instead of
the whole MIME message (a verification link was lost in thousands of lines of them)."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Sequence

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage

_LINK = re.compile(r"https?://[^\s<>\"')\]]+")


def summary_line(message: EmailMessage) -> str:
    """``mail to <recipients>: "<subject>" <links>`` (each link once, in order)."""
    links = list(dict.fromkeys(_LINK.findall(str(message.body))))
    shown = " ".join(links) if links else "(no links)"
    return f'mail to {", ".join(message.recipients())}: "{message.subject}" {shown}'


class SummaryEmailBackend(BaseEmailBackend):
    """Writes ``summary_line`` of every message to standard output; sends nothing."""

    def __init__(self, *args, stream=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.stream = stream or sys.stdout
        self._lock = threading.RLock()

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        with self._lock:
            for message in email_messages:
                if not message.recipients():
                    continue
                self.stream.write(summary_line(message) + "\n")
                sent += 1
            self.stream.flush()
        return sent
