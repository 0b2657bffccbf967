"""Receive email: one raw RFC 822 message on stdin (an MTA pipe), or every new message of a
maildir (``--maildir PATH``). Each message is stored before it is processed and answered.

Exit status 75 (EX_TEMPFAIL) when a message could not even be stored, so the MTA tries again.
"""

from __future__ import annotations

import mailbox
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.mail.models import InboundMessage
from portal.mail.services import inbound_process, inbound_store

EX_TEMPFAIL = 75


class Command(BaseCommand):
    help = "Read one email from stdin, or every new email of a maildir, and process it."
    # The MTA runs this once per message: the site's checks (mail.E001 among them) belong to
    # starting the site, and a failing one must not make the MTA bounce the players' mail.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument("--maildir", help="Process every new message of this maildir.")

    def handle(self, *args, maildir: str | None = None, **options) -> None:
        if maildir:
            self._maildir(Path(maildir))
            return
        raw = sys.stdin.buffer.read()
        if not raw.strip():
            raise CommandError("stdin is empty: pipe one RFC 822 message into this command.")
        self._process(self._store(raw, InboundMessage.Source.PIPE))

    def _store(self, raw: bytes, source: str) -> InboundMessage:
        try:
            return inbound_store(raw=raw, source=source, processed_here=True)
        except Exception as error:
            self.stderr.write(f"could not store the message: {error}")
            sys.exit(EX_TEMPFAIL)

    def _process(self, row: InboundMessage) -> None:
        row = inbound_process(inbound_id=row.pk) or row
        self.stdout.write(f"message {row.pk} from {row.sender or '?'}: {row.status}"
                          f" ({row.outcome or row.error[:80]})")

    def _maildir(self, path: Path) -> None:
        if not (path / "new").is_dir() or not (path / "cur").is_dir():
            raise CommandError(f"{path} is not a maildir (it needs new/ and cur/ folders).")
        box = mailbox.Maildir(path, factory=None, create=False)
        count = 0
        for key in sorted(box.keys()):
            message = box.get_message(key)
            if "S" in message.get_flags():
                continue  # processed by an earlier run
            row = self._store(box.get_bytes(key), InboundMessage.Source.MAILDIR)
            # Marked as seen once stored (before processing): a crash never stores it twice.
            message.set_subdir("cur")
            message.add_flag("S")
            box[key] = message
            self._process(row)
            count += 1
        self.stdout.write(f"{count} message(s) processed from {path}")
