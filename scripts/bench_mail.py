"""Benchmark play by e-mail: outgoing notifications delivered per second, and replies processed
per second, on PostgreSQL with a real SMTP server (aiosmtpd) and 2 worker processes.

    DATABASE_URL=postgres://... .venv/bin/python scripts/bench_mail.py [--emails 5000]
        [--replies 1000] [--matches 50] [--workers 2] [--rounds 3]

It migrates and writes to that database. Set-up (untimed): Final Act matches are created
through the service and their lifecycle outbox carried out here, as a worker would (their "your
move" mails rendered into the mail channel's rows by the real receivers), and those rows are
repeated up to ``--emails`` queued notifications. Then, in the same run:

* baseline: ``smtplib`` sends the same messages (already built) over one connection;
* outgoing (turn about with the baseline, ``--rounds`` times, the same rows queued again each
  time; the median round's ratio is the figure): ``--workers`` processes run
  ``portal.delivery.pipeline.flush("mail")`` (what the Celery task ``deliver_due`` runs): claim
  a batch, build each message (headers, List-Unsubscribe), send the batch over one SMTP
  connection, record each; until none is due;
* inbound: ``--replies`` replies (Gmail-style, orders on top, our mail quoted) are stored, then
  the worker processes run ``inbound_process`` on them (parse, cut the reply, check token and
  sender, submit the sheet, queue the answer).

Prints one JSON line. Celery's broker is a folder in a temporary directory: the tasks that
commits queue are written there and not run.
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


def setup_django(var_dir: str) -> None:
    os.environ["PORTAL_VAR_DIR"] = var_dir
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DEBUG", "true")  # development, as before: the default is production
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def worker(kind: str, var_dir: str, ids: str) -> None:
    """A worker process: wait for "go" on stdin, then do the work."""
    setup_django(var_dir)
    from portal.delivery import pipeline
    from portal.mail import services
    from portal.mail.unsubscribe import unsubscribe_url

    unsubscribe_url(user_id=0, target="digest")  # the URL map, loaded once in a worker's life
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    sys.stdin.readline()
    if kind == "out":
        pipeline.flush("mail")
    else:
        for inbound_id in json.loads(ids):
            services.inbound_process(inbound_id=inbound_id)


def run_workers(kind: str, var_dir: str, shares: list[list[int]], script: str = __file__) -> float:
    """Start a worker process per share (``script --worker kind``), wait until each is ready,
    let them go together and return how long they took, all of them. With BENCH_PROFILE set to a
    folder, each worker runs under cProfile and writes its figures there (``<kind>.<n>.prof``)."""
    profile = os.environ.get("BENCH_PROFILE")
    procs = [subprocess.Popen(
        [sys.executable,
         *(["-m", "cProfile", "-o", f"{profile}/{kind}.{n}.prof"] if profile else []),
         script, "--worker", kind, "--var-dir", var_dir, "--ids", json.dumps(share)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=os.environ.copy())
        for n, share in enumerate(shares)]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        proc.wait()
        if proc.returncode:
            sys.exit(f"a {kind} worker failed ({proc.returncode})")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--emails", type=int, default=5000)
    parser.add_argument("--replies", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3,
                        help="baseline and outgoing measured turn about, the median ratio kept")
    parser.add_argument("--worker", choices=["out", "in"])
    parser.add_argument("--var-dir")
    parser.add_argument("--ids", default="[]")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.var_dir, args.ids)
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database (workers lock rows with "
                 "SKIP LOCKED); it is migrated and written to")

    from tests.portal.mail.smtp import start_server

    controller, boxes = start_server()
    os.environ["EMAIL_URL"] = f"smtp://{controller.hostname}:{controller.port}"
    var_dir = tempfile.mkdtemp(prefix="bench-mail-")
    setup_django(var_dir)
    import smtplib

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from durable import outbox
    from durable.models import OutboxEvent
    from games import services as games_services
    from portal.mail.models import InboundMessage, OutgoingEmail
    from portal.mail.services import inbound_store
    from portal.mail.services.outbox import _message
    from tests.portal.mail.conftest import ALPHA_NEAR_BREAKTHROUGH
    from tests.portal.mail.corpus import clients

    call_command("migrate", verbosity=0)
    settings.MAIL_SEAT_HOURLY_CAP = 10 ** 6  # the bench's players write often
    settings.MAIL_ANSWERS_PER_ADDRESS_HOURLY = 10 ** 6
    OutgoingEmail.objects.filter(status__in=["queued", "retry", "sending"]).update(
        status="failed")  # leftovers of an earlier run must not be counted
    users = get_user_model().objects
    run = int(time.time())
    matches = []
    for n in range(args.matches):
        alice = users.create_user(f"bench{run}a{n}", f"bench{run}a{n}@example.test")
        bob = users.create_user(f"bench{run}b{n}", f"bench{run}b{n}@example.test")
        matches.append(games_services.match_create(
            creator=alice, game="final-act", options={"scenario": ALPHA_NEAR_BREAKTHROUGH},
            hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}]))
    # The lifecycle's outbox (phase opened: the mails), carried out as a worker would.
    outbox.outbox_dispatch(ids=list(OutboxEvent.objects.filter(
        series__in=[m.pk for m in matches], done_at=None).values_list("pk", flat=True)))
    real = list(OutgoingEmail.objects.filter(match__in=matches, status="queued"))
    if len(real) != 2 * args.matches:
        sys.exit(f"expected {2 * args.matches} queued phase mails, found {len(real)}")
    OutgoingEmail.objects.bulk_create([
        OutgoingEmail(kind=r.kind, dedupe_key=f"bench{run}:{i}:{r.dedupe_key}"[:200], to=r.to,
                      user_id=r.user_id, match_id=r.match_id, phase_number=r.phase_number,
                      reply_to=r.reply_to, subject=r.subject, body_text=r.body_text,
                      body_html=r.body_html, headers=r.headers, status="queued",
                      next_attempt_at=r.next_attempt_at)
        for i in range(1, -(-args.emails // len(real)))
        for r in real][: args.emails - len(real)], batch_size=1000)
    queued = list(OutgoingEmail.objects.filter(status="queued").order_by("pk"))

    # Baseline and outgoing, turn about, ``--rounds`` times: on a shared machine the load moves
    # under a run, so each round's ratio compares two measures taken side by side, and the
    # median of the rounds is the figure. Between rounds the same rows are queued again.
    built = [(row.to, _message(row, None).message().as_bytes(linesep="\r\n"))
             for row in queued]
    pks = [row.pk for row in queued]
    rounds = []
    for _ in range(args.rounds):
        boxes.clear()
        start = time.perf_counter()
        with smtplib.SMTP(controller.hostname, controller.port) as smtp:
            for to, data in built:
                smtp.sendmail("portal@example.test", [to], data)
        baseline = len(built) / (time.perf_counter() - start)
        assert len(boxes.delivered) == len(built)

        boxes.clear()
        OutgoingEmail.objects.filter(pk__in=pks).update(
            status="queued", attempts=0, sending_since=None, sent_at=None,
            next_attempt_at=timezone.now())
        elapsed = run_workers("out", var_dir, [[] for _ in range(args.workers)])
        sent = OutgoingEmail.objects.filter(pk__in=pks, status="sent").count()
        if sent != len(queued) or len(boxes.delivered) != len(queued):
            sys.exit(f"{len(boxes.delivered)} of {len(queued)} arrived ({sent} marked sent)")
        rounds.append((len(queued) / elapsed, baseline))
    outgoing, baseline = sorted(rounds, key=lambda r: r[0] / r[1])[len(rounds) // 2]

    # Inbound: replies from seat 1 of each match, orders on top, our mail quoted below.
    first = {m.pk: OutgoingEmail.objects.filter(match=m, kind="phase_opened").order_by(
        "pk").first() for m in matches}
    ids = []
    for n in range(args.replies):
        mail = first[matches[n % len(matches)].pk]
        original = clients.Original(text=mail.body_text, html=mail.body_html,
                                    subject=mail.subject, message_id=f"<outbox-{mail.pk}@x>",
                                    orders="1A FR turn\nC F" if n % 2 else "1A F\nC F")
        raw = clients.gmail(original, "en").replace(
            clients.PLAYER.encode(), mail.to.encode()).replace(
            clients.REPLY_TO.encode(), mail.reply_to.encode()).replace(
            b"Message-ID: <CAGmail", f"Message-ID: <bench{run}-{n}-".encode())
        ids.append(inbound_store(raw=raw, source=InboundMessage.Source.PIPE,
                                 processed_here=True).pk)
    elapsed_in = run_workers("in", var_dir, [ids[k::args.workers] for k in range(args.workers)])
    accepted = InboundMessage.objects.filter(pk__in=ids, status="accepted").count()
    controller.stop()
    if accepted != len(ids):
        sys.exit(f"only {accepted} of {len(ids)} replies were accepted")
    print(json.dumps({
        "emails": len(queued), "workers": args.workers,
        "outgoing_per_s": round(outgoing, 1), "baseline_smtplib_per_s": round(baseline, 1),
        "outgoing_vs_baseline": round(outgoing / baseline, 2),
        "rounds_vs_baseline": [round(out / base, 2) for out, base in rounds],
        "replies": len(ids), "inbound_per_s": round(len(ids) / elapsed_in, 1),
        "cpus": os.cpu_count(), "load_average": round(os.getloadavg()[0], 2),
    }))


if __name__ == "__main__":
    main()
