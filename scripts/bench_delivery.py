"""Benchmark the delivery pipeline: messages per second through each channel, each against a
baseline measured in the same run that sends the same messages with no pipeline at all.

    DATABASE_URL=postgres://... .venv/bin/python scripts/bench_delivery.py [--mail 2000]
        [--push 500] [--webhook 2000] [--workers 2] [--only mail,push,webhook]

It migrates and writes to that database. For each channel, set-up (untimed) queues the rows
through ``portal.delivery.pipeline.deliver`` (in one transaction, as an event does); then:

* mail: the baseline is ``smtplib`` sending the same messages (built beforehand) over one
  connection to a real SMTP server (aiosmtpd, in this process); the pipeline is ``--workers``
  processes running ``pipeline.flush("mail")`` (what the task ``deliver_due`` runs: claim a
  batch, build each message, send it over one SMTP connection, record each) until none is due;
* push: the baseline is pywebpush posting the same payloads (encrypted and signed per message,
  as always) over one HTTP session (``portal.outbound``'s, the only way the site may contact
  an endpoint) to the local push service of the tests (TLS, VAPID checked,
  every body decrypted: ``tests/portal/push/pushserver.py``); the pipeline is the workers
  running ``pipeline.flush("push")`` (through ``portal.outbound``, checked per endpoint);
* webhook: the baseline is one ``requests`` session posting the same bodies to the tests'
  local https chat receiver (``tests/portal/webhooks/receiver.py``, keep-alive); the pipeline
  is the workers running ``pipeline.flush("webhook")`` (each post through
  ``portal.outbound``'s session, checked and pinned, each result recorded as it comes).

A channel's benchmark is a function in ``BENCHES`` (name -> function(args) -> figures).

Prints one JSON line: per channel its messages per second, its baseline's, and their ratio.
Celery's broker is a folder in a temporary directory: the flushes the commits queue are written
there and not run (the workers flush instead).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BENCHES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {}


def bench(name: str) -> Callable:
    def register(function: Callable) -> Callable:
        BENCHES[name] = function
        return function
    return register


def setup_django() -> None:
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DEBUG", "true")  # development (loopback push endpoints need it)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def worker(channel: str) -> None:
    """A worker process: warm up, wait for "go" on stdin, flush ``channel``."""
    setup_django()
    from portal.delivery import pipeline
    from portal.mail.unsubscribe import unsubscribe_url

    unsubscribe_url(user_id=0, target="digest")  # the URL map, loaded once in a worker's life
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    sys.stdin.readline()
    pipeline.flush(channel)


def run_workers(channel: str, count: int) -> float:
    from scripts.bench_mail import run_workers as run

    return run(channel, os.environ["PORTAL_VAR_DIR"], [[] for _ in range(count)], __file__)


def figures(count: int, elapsed: float, baseline: float) -> dict[str, Any]:
    rate = count / elapsed
    return {"messages": count, "per_s": round(rate, 1), "baseline_per_s": round(baseline, 1),
            "vs_baseline": round(rate / baseline, 2)}


def users(prefix: str, count: int) -> list[Any]:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return model.objects.bulk_create([
        model(username=f"{prefix}{n}", email=f"{prefix}{n}@example.test") for n in range(count)])


@bench("mail")
def bench_mail(args: argparse.Namespace) -> dict[str, Any]:
    import smtplib

    from django.db import transaction

    from portal.mail.models import OutgoingEmail
    from portal.mail.services import email_queue
    from portal.mail.services.outbox import _message
    from tests.portal.mail.smtp import start_server

    controller, boxes = start_server()
    try:
        os.environ["EMAIL_URL"] = f"smtp://{controller.hostname}:{controller.port}"
        run = f"bm{int(time.time())}"
        people = users(run, 50)
        body = "Your move in Mail duel, round 3: orders by Friday 18:00.\n" * 20
        with transaction.atomic():
            rows = [email_queue(
                kind="phase_opened", dedupe_key=f"{run}:{n}", to=people[n % 50].email,
                user=people[n % 50], subject=f"Your move: Mail duel {n}, orders 3",
                body_text=body, body_html=f"<p>{body}</p>") for n in range(args.mail)]
        built = [(row.to, _message(row, None).message().as_bytes(linesep="\r\n"))
                 for row in rows]
        start = time.perf_counter()
        with smtplib.SMTP(controller.hostname, controller.port) as smtp:
            for to, data in built:
                smtp.sendmail("portal@example.test", [to], data)
        baseline = len(built) / (time.perf_counter() - start)
        boxes.clear()
        elapsed = run_workers("mail", args.workers)
        sent = OutgoingEmail.objects.filter(dedupe_key__startswith=f"{run}:",
                                            status="sent").count()
        if sent != len(rows) or len(boxes.delivered) != len(rows):
            sys.exit(f"mail: {len(boxes.delivered)} of {len(rows)} arrived ({sent} sent)")
        return figures(len(rows), elapsed, baseline)
    finally:
        controller.stop()


@bench("push")
def bench_push(args: argparse.Namespace) -> dict[str, Any]:
    import json as json_

    from django.db import transaction
    from py_vapid import Vapid02
    from pywebpush import webpush

    from portal import outbound
    from portal.push import vapid
    from portal.push.models import PushMessage
    from portal.push.services import push_queue, subscription_save
    from portal.push.services.subscriptions import endpoint_policy
    from tests.portal.push.pushserver import PushService
    from tests.portal.tls import ca_bundle

    service = PushService()
    try:
        os.environ.update(OUTBOUND_ALLOW_LOOPBACK="true", OUTBOUND_CA_BUNDLE=ca_bundle(),
                          PUSH_ENDPOINT_HOSTS="localhost", VAPID_PRIVATE_KEY=vapid.private_key())
        from django.conf import settings

        settings.OUTBOUND_ALLOW_LOOPBACK = True
        settings.OUTBOUND_CA_BUNDLE = os.environ["OUTBOUND_CA_BUNDLE"]
        settings.PUSH_ENDPOINT_HOSTS = ["localhost"]
        run = f"bp{int(time.time())}"
        devices = [subscription_save(user=user, label=f"{run}-{n}", data=service.browser(
            f"{run}-{n}").subscription(service.endpoint(f"{run}-{n}")))
            for n, user in enumerate(users(run, 50))]
        payloads = [{"title": f"Your move: Push duel {n}", "body": "Orders for round 3."}
                    for n in range(args.push)]
        with transaction.atomic():
            rows = [push_queue(subscription=devices[n % 50], kind="your_move",
                               dedupe_key=f"{run}:{n}", payload=payload, ttl_seconds=3600)
                    for n, payload in enumerate(payloads)]
        signer = Vapid02.from_string(vapid.private_key())
        start = time.perf_counter()
        with outbound.session(policy=endpoint_policy()) as session:
            for row, payload in zip(rows, payloads, strict=True):
                device = row.subscription
                webpush(subscription_info={"endpoint": device.endpoint, "keys": {
                            "p256dh": device.p256dh, "auth": device.auth}},
                        data=json_.dumps(payload, separators=(",", ":")),
                        vapid_private_key=signer, vapid_claims=vapid.claims(),
                        content_encoding="aes128gcm", ttl=3600, requests_session=session)
        baseline = len(rows) / (time.perf_counter() - start)
        service.reset()
        elapsed = run_workers("push", args.workers)
        sent = PushMessage.objects.filter(dedupe_key__startswith=f"{run}:",
                                          status="sent").count()
        if sent != len(rows) or len(service.received) != len(rows):
            sys.exit(f"push: {len(service.received)} of {len(rows)} arrived ({sent} sent); "
                     f"refused: {service.refused[:3]}")
        return figures(len(rows), elapsed, baseline)
    finally:
        service.stop()


@bench("webhook")
def bench_webhook(args: argparse.Namespace) -> dict[str, Any]:
    import requests
    from django.conf import settings
    from django.db import transaction

    from competitions.services.clubs import club_create
    from portal.webhooks import formats
    from portal.webhooks.models import WebhookDelivery
    from portal.webhooks.services import target_create, webhook_queue
    from tests.portal.tls import ca_bundle
    from tests.portal.webhooks.receiver import Receiver

    receiver = Receiver()
    try:
        os.environ.update(OUTBOUND_ALLOW_LOOPBACK="true", OUTBOUND_CA_BUNDLE=ca_bundle())
        settings.OUTBOUND_ALLOW_LOOPBACK = True
        settings.OUTBOUND_CA_BUNDLE = ca_bundle()
        run = f"bw{int(time.time())}"
        [owner] = users(run, 1)
        target, _ = target_create(
            by=owner, club=club_create(by=owner, name=f"Bench {run}"), name=run, format="slack",
            url=receiver.url(f"/{run}"), language="en-gb")
        with transaction.atomic():
            rows = [webhook_queue(target=target, key=f"{run}:{n}", message=formats.Message(
                event="your_move", url=f"https://tanks.example.test/matches/{n}/",
                text="Your move in %(match)s: %(players)s. Phase %(phase)s.",
                values={"match": f"Webhook duel {n}", "phase": "3"},
                players=(formats.Player("alice", "U024BE7LH"), formats.Player("bob"))))
                for n in range(args.webhook)]
        bodies = [formats.encode(row.payload) for row in rows]
        start = time.perf_counter()
        with requests.Session() as session:
            session.trust_env = False  # as outbound's session: no CA bundle from the env
            session.verify = ca_bundle()
            for body in bodies:
                session.post(target.url, data=body, timeout=10,
                             headers={"Content-Type": "application/json"}).raise_for_status()
        baseline = len(bodies) / (time.perf_counter() - start)
        receiver.reset()
        elapsed = run_workers("webhook", args.workers)
        sent = WebhookDelivery.objects.filter(target=target, status="sent").count()
        if sent != len(rows) or len(receiver.posts) != len(rows):
            sys.exit(f"webhook: {len(receiver.posts)} of {len(rows)} arrived ({sent} sent)")
        return figures(len(rows), elapsed, baseline)
    finally:
        receiver.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mail", type=int, default=2000)
    parser.add_argument("--push", type=int, default=500)
    parser.add_argument("--webhook", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default=",".join(BENCHES))
    parser.add_argument("--worker")
    parser.add_argument("--var-dir")
    parser.add_argument("--ids")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (workers lock rows with "
                 "SKIP LOCKED); it is migrated and written to")
    os.environ["PORTAL_VAR_DIR"] = tempfile.mkdtemp(prefix="bench-delivery-")
    setup_django()
    from django.core.management import call_command

    from portal.delivery.models import Delivery
    from portal.delivery.pipeline import channels

    call_command("migrate", verbosity=0)
    for channel in channels().values():  # leftovers of an earlier run must not be counted
        channel.model.objects.filter(status__in=["queued", "retry", "sending"]).update(
            status=Delivery.Status.FAILED)
    result: dict[str, Any] = {"workers": args.workers}
    for name in args.only.split(","):
        result[name] = BENCHES[name](args)
    result.update(cpus=os.cpu_count(), load_average=round(os.getloadavg()[0], 2))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
