"""Write the corpus: every client of ``clients.CLIENTS`` replying to our real "your move" mail
of a Final Act match and of a Tank Game match (``<client>--<game>.eml``), and ``corpus.json``
(what each reply's player wrote).

    .venv/bin/python -m tests.portal.mail.corpus.build

Runs on a throwaway SQLite database. Run it again when the "your move" mails change a lot
(old replies quoting old mails are realistic too: players answer last week's mail).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    os.environ["PORTAL_VAR_DIR"] = tempfile.mkdtemp(prefix="mail-corpus-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ["EMAIL_URL"] = "dummy:"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    sys.path.insert(0, str(HERE.parents[3]))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from portal.mail.models import OutgoingEmail
    from portal.mail.services.gameday import gameday_opened_notify
    from tests.portal.mail.corpus import clients, matches

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    alice = users.create_user("alice", "alice@example.test")
    bob = users.create_user("bob", "bob@example.test")
    final = matches.final_act(alice, bob)
    tanks, tank_orders = matches.tank_game(alice, bob)
    gameday_opened_notify(match_id=tanks.pk, gameday="1")
    mails = {"final-act": (final, matches.ORDERS["final-act"]), "tank-game": (tanks, tank_orders)}
    manifest = {}
    for game, (match, orders) in mails.items():
        mail = OutgoingEmail.objects.filter(match=match, to=alice.email).order_by("pk").first()
        original = clients.Original(
            text=mail.body_text, html=mail.body_html, subject=mail.subject,
            message_id=f"<outbox-{mail.pk}@play.example.test>", orders=orders)
        for name, reply in clients.CLIENTS.items():
            file = f"{name}--{game}.eml"
            (HERE / file).write_bytes(reply(original))
            manifest[file] = {"game": game, "orders": orders}
    (HERE / "corpus.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{len(manifest)} replies written to {HERE}")


if __name__ == "__main__":
    main()
