"""Benchmark: one resolution and one match creation of this tree against another commit's, in
lockstep, in the same run.

    .venv/bin/python scripts/bench_lifecycle_ab.py --against b3e8cda [--pairs 100]

This machine's speed moves by half within minutes, so two runs of ``bench_lifecycle`` a few
minutes apart cannot tell a change of a tenth. Here the two trees run side by side, each in a
process of its own with a database of its own (``bench_ab_this`` and ``bench_ab_that`` on the
server of DATABASE_URL, default the machine's PostgreSQL; dropped and made anew, then
migrated; Redis db 10 of REDIS_URL for the tasks they publish, which no worker takes; flushed
at the end), and take turns: one creation or one resolution in one tree, then the same in the
other (which goes first alternates), so both meet the machine in the same state. The other
tree is a ``git worktree`` of ``--against`` made in a temporary directory and removed at the
end; both run on this virtualenv.

Each step is what ``bench_lifecycle`` times in process: ``match_create`` of a two-seat Final
Act match; ``phase_resolve`` of a match whose two setups were just submitted, its commit and
what it queues on commit included (for code before the outbox, that is every notification's
receiver). Ten of each are run first and not counted. Prints one JSON line: the medians of
both trees, and the ratios (that tree / this tree) of the medians and the median of the
pairs' ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from bench_lifecycle import own_database  # noqa: E402  (the same fresh database)


def child(tree: str, database_url: str, redis_url: str) -> None:
    """Set up ``tree`` on its database, then answer each line of stdin ("create" or
    "resolve") with the milliseconds one step took."""
    sys.path.insert(0, tree)
    os.chdir(tree)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "portal.settings", "LOG_LEVEL": "WARNING",
        "EMAIL_URL": "dummy://", "DEBUG": "false", "SECRET_KEY": "bench-" + "x" * 50,
        "ALLOWED_HOSTS": "localhost", "DATABASE_URL": database_url, "REDIS_URL": redis_url,
        "PYTHONPATH": tree})
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    import engine
    from games import services

    call_command("migrate", verbosity=0)
    game = engine.get("final-act")
    users = get_user_model()
    alice = users.objects.create_user("bench_alice", "alice@bench.test", "pw")
    bob = users.objects.create_user("bench_bob", "bob@bench.test", "pw")

    def create():
        return services.match_create(
            creator=alice, game="final-act", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])

    def submitted():
        match = create()
        for seat, user in ((1, alice), (2, bob)):
            match.refresh_from_db()
            services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                   phase_number=match.phase_number, source="web",
                                   data=game.default_submission(match.state, seat))
        return match

    for _ in range(10):  # warm up, not counted
        create()
        assert services.phase_resolve(match_id=submitted().pk, phase_number=1)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "create":
            start = time.perf_counter()
            create()
        else:
            match = submitted()
            start = time.perf_counter()
            assert services.phase_resolve(match_id=match.pk, phase_number=1)
        print((time.perf_counter() - start) * 1000, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", required=True, help="the commit to compare with")
    parser.add_argument("--pairs", type=int, default=100, help="steps of each kind, per tree")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return

    base_db = os.environ.get("DATABASE_URL", "postgres://root@127.0.0.1:5432/test")
    redis_url = urlunsplit(urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
                           ._replace(path="/10"))
    commit = subprocess.run(["git", "rev-parse", "--short", args.against], cwd=REPO, check=True,
                            capture_output=True, text=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="bench-ab-"))
    that = work / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(that), commit], cwd=REPO,
                   check=True, capture_output=True)
    trees = {"this": REPO, "that": that}
    kids: dict[str, subprocess.Popen] = {}
    try:
        for name, tree in trees.items():
            kids[name] = subprocess.Popen(
                [sys.executable, __file__, "--against", commit, "--child", str(tree),
                 own_database(base_db, f"bench_ab_{name}"), redis_url],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for name, kid in kids.items():
            if kid.stdout.readline().strip() != "ready":
                raise SystemExit(f"the {name} tree did not start")
        ms: dict[str, list[float]] = {f"{step}_{name}": [] for step in ("create", "resolve")
                                      for name in kids}
        for index in range(args.pairs):
            for step in ("create", "resolve"):
                for name in (("this", "that") if index % 2 else ("that", "this")):
                    kids[name].stdin.write(step + "\n")
                    kids[name].stdin.flush()
                    ms[f"{step}_{name}"].append(float(kids[name].stdout.readline()))
    finally:
        for kid in kids.values():
            kid.stdin.close()
            kid.wait(60)
        subprocess.run(["git", "worktree", "remove", "--force", str(that)], cwd=REPO,
                       check=False, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
        import redis

        redis.Redis.from_url(redis_url).flushdb()

    figures: dict[str, object] = {"against": commit, "pairs": args.pairs}
    for step in ("create", "resolve"):
        this, that_ = ms[f"{step}_this"], ms[f"{step}_that"]
        figures[f"{step}_this_ms"] = round(statistics.median(this), 2)
        figures[f"{step}_that_ms"] = round(statistics.median(that_), 2)
        figures[f"{step}_ratio"] = round(statistics.median(that_) / statistics.median(this), 2)
        figures[f"{step}_pair_ratio"] = round(
            statistics.median(b / a for a, b in zip(this, that_, strict=True)), 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
