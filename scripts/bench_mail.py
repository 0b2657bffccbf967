"""Benchmark: render and deliver 1,000 phase-opening emails to a local SMTP server.

    .venv/bin/python scripts/bench_mail.py [--emails 1000]

Runs on a throwaway SQLite database in a temporary folder (or on DATABASE_URL if set — it
creates users and matches there), starts aiosmtpd on a free local port, creates Final Act
matches (two players each, notifications switched off while setting up), then times the real
path for every match's phase 1: the phase_opened receiver renders each player's email from the
templates (board diagram, legal moves, grammar, signed reply address) into the outbox, and the
send task (run inline) locks the row and delivers it through Django's SMTP backend. Prints
messages per second.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--emails", type=int, default=1000)
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="bench-mail-")
    os.environ.setdefault("PORTAL_VAR_DIR", tmp)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"  # the send task runs inline, on commit
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    from tests.portal.mail.smtp import start_server

    controller, boxes = start_server()
    os.environ["EMAIL_URL"] = f"smtp://{controller.hostname}:{controller.port}"

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games import services as games_services
    from games.signals import phase_opened
    from portal.mail.models import OutgoingEmail
    from portal.mail.receivers import on_phase_opened

    call_command("migrate", verbosity=0)
    print(f"database: {settings.DATABASES['default']['NAME']}; SMTP: aiosmtpd on "
          f"{controller.hostname}:{controller.port}")

    phase_opened.disconnect(dispatch_uid="mail_phase_opened")  # set up without mailing
    users = get_user_model().objects
    run = int(time.time())
    matches = []
    for n in range((args.emails + 1) // 2):
        alice = users.create_user(f"bench{run}a{n}", f"bench{run}a{n}@example.test")
        bob = users.create_user(f"bench{run}b{n}", f"bench{run}b{n}@example.test")
        matches.append(games_services.match_create(
            creator=alice, game="final-act", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}]).pk)

    start = time.perf_counter()
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        cProfile.runctx("for m in matches: on_phase_opened(sender=None, match_id=m, "
                        "phase_number=1)", globals(), locals(), sort="cumtime")
    for match_id in matches:
        on_phase_opened(sender=None, match_id=match_id, phase_number=1)
    elapsed = time.perf_counter() - start

    sent = OutgoingEmail.objects.filter(match_id__in=matches, status="sent").count()
    delivered = len(boxes.delivered)
    controller.stop()
    if sent != delivered or delivered < 2 * len(matches):
        sys.exit(f"only {delivered} of {2 * len(matches)} emails arrived ({sent} marked sent)")
    print(f"{delivered} phase-opening emails rendered and delivered in {elapsed:.2f} s: "
          f"{delivered / elapsed:.0f} messages/s")


if __name__ == "__main__":
    main()
