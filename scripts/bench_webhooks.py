"""Benchmark the webhook channel: webhook posts delivered per second to a local https receiver
(the tests' own CA, keep-alive), against plain ``requests`` posts to the same receiver in the
same run.

    DATABASE_URL=postgres://... .venv/bin/python scripts/bench_webhooks.py [--posts 2000]

It migrates and writes to that database. Set-up (untimed): a club, a Slack-format webhook
target at the receiver (registered through the service: its address resolved and checked) and
``--posts`` queued rows, each a "your move" body built by the webhook formats.

The receiver runs in a process of its own. Then:

* baseline: one ``requests.Session`` posts the same bodies, one after the other;
* webhooks: ``portal.delivery.pipeline.flush("webhook")`` (what the Celery task
  ``deliver_due`` runs): claim a batch, post each row through ``portal.outbound``'s session
  (every request checked, the connection pinned to the address checked), record each result,
  update the target's count; until none is due.

Prints one JSON line: both rates and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def setup_django(var_dir: str, ca_bundle: str) -> None:
    os.environ["PORTAL_VAR_DIR"] = var_dir
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DEBUG", "true")  # loopback is allowed in development only
    os.environ["OUTBOUND_ALLOW_LOOPBACK"] = "true"
    os.environ["OUTBOUND_CA_BUNDLE"] = ca_bundle
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("CELERY_BROKER_URL", f"filesystem://{var_dir}")
    import django

    django.setup()


def queue(posts: int, url: str) -> list[bytes]:
    """The target and ``posts`` queued rows; returns their bodies (for the baseline)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from competitions.services.clubs import club_create
    from portal.webhooks import formats
    from portal.webhooks.models import WebhookDelivery, WebhookTarget
    from portal.webhooks.services import target_create

    stamp = int(time.time() * 1000)
    owner = get_user_model().objects.create_user(f"bench-hooks-{stamp}")
    club = club_create(by=owner, name=f"Bench hooks {stamp}")
    target, _ = target_create(by=owner, club=club, name="bench", format="slack", url=url,
                              language="en-gb")
    now = timezone.now()
    rows = []
    for n in range(posts):
        message = formats.Message(
            event="your_move", url=f"https://tanks.example.test/matches/{n}/",
            text="Your move in %(match)s: %(players)s. Phase %(phase)s.",
            values={"match": f"Bench match {n}", "phase": "3"},
            players=(formats.Player("alice", "U024BE7LH"), formats.Player("bob")))
        rows.append(WebhookDelivery(target=target, event="your_move", next_attempt_at=now,
                                    dedupe_key=f"bench:{stamp}:{n}",
                                    payload=formats.body_for("slack", message)))
    WebhookDelivery.objects.bulk_create(rows, batch_size=1000)
    WebhookTarget.objects.filter(pk=target.pk).update(consecutive_failures=0)
    return [formats.encode(row.payload) for row in rows]


def serve() -> None:
    """The receiver's own process (as a chat service is elsewhere): print its port, count the
    posts until a line on stdin, print the count."""
    from tests.portal.tls import ca_bundle
    from tests.portal.webhooks.receiver import Receiver

    receiver = Receiver()
    print(receiver.port, ca_bundle(), flush=True)
    sys.stdin.readline()
    print(len(receiver.posts), flush=True)
    receiver.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, default=2000)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database; it is migrated and written to")
    receiver = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
    port, ca_bundle = receiver.stdout.readline().split()
    url = f"https://localhost:{port}/bench"
    var_dir = tempfile.mkdtemp(prefix="bench-webhooks-")
    setup_django(var_dir, ca_bundle)
    import requests
    from django.core.management import call_command

    from portal.delivery import pipeline

    call_command("migrate", verbosity=0)
    try:
        bodies = queue(args.posts, url)

        started = time.perf_counter()
        with requests.Session() as session:
            session.trust_env = False  # as outbound's session: no CA bundle from the env
            session.verify = ca_bundle
            for body in bodies:
                session.post(url, data=body, headers={"Content-Type": "application/json"},
                             timeout=10).raise_for_status()
        baseline = time.perf_counter() - started

        started = time.perf_counter()
        sent = pipeline.flush("webhook")
        elapsed = time.perf_counter() - started
    finally:
        received, _ = receiver.communicate("stop\n", timeout=30)
    assert sent == args.posts, f"{sent} of {args.posts} sent"
    assert int(received) == 2 * args.posts, f"{received} posts arrived"
    print(json.dumps({
        "posts": args.posts,
        "baseline_requests_per_second": round(args.posts / baseline, 1),
        "webhooks_per_second": round(args.posts / elapsed, 1),
        "ratio_to_baseline": round(baseline / elapsed, 3),
    }))


if __name__ == "__main__":
    main()
