"""Benchmark: Tank Game V4 with 100 seats on the 26 x 26 map, through the service, on PostgreSQL.

    DATABASE_URL=postgres://... .venv/bin/python scripts/bench_tank_game.py [--actions 1000]

Creates 100 players and one match (big map, accelerated one-hour gamedays that are always
open, no cooldown so every seat can act often) in the database of DATABASE_URL (migrated
first), then plays: each step a random living seat takes its random bot's legal action through
``games.services.actions_apply`` (one transaction: match row lock, engine apply, logbook row,
state write); every ~100 actions the gameday tick runs through ``games.services.gameday_tick``.
``now`` is driven explicitly so gamedays pass in seconds. Prints median, p99 and max time per
applied action and per tick (target: p99 < 50 ms per action, < 250 ms per tick).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=100)
    parser.add_argument("--game", default="tank-game")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--no-gc-freeze", action="store_true",
                        help="leave the start-up objects to the garbage collector")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("Set DATABASE_URL to a PostgreSQL database (the benchmark writes to it).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("ENGINE_EXTRA_GAMES", "tests.toygame")

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    import engine
    from games import services
    from games.models import Action, Match
    from games.services import ServiceError

    call_command("migrate", verbosity=0)
    # As a long-running web or worker process should (e.g. in gunicorn's post_fork or Celery's
    # worker_process_init): move everything loaded at start-up out of the collector's sight,
    # so full collections, which a 200 KB state's thousands of objects trigger, stay short.
    # Without it, gen-2 pauses of up to ~90 ms land in the p99.
    if not args.no_gc_freeze:
        gc.collect()
        gc.freeze()
    stamp = int(time.time())
    users = [get_user_model().objects.create_user(f"bench{stamp}-{n}") for n in
             range(1, args.seats + 1)]
    options = {"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60},
               "cooldown_minutes": 0}
    if args.game == "tank-game":
        options["map"] = "big"
    match = services.match_create(creator=users[0], game=args.game, options=options,
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in users])
    game = engine.get(args.game)
    rng = random.Random(args.seed)
    now = timezone.now()
    step = timedelta(seconds=36)  # ~100 actions per one-hour gameday
    action_ms: list[float] = []
    tick_ms: list[float] = []
    refused = idle = 0
    while len(action_ms) < args.actions:
        match.refresh_from_db(fields=["state", "deadline", "status"])
        if match.status != Match.Status.ACTIVE:
            print(f"the match ended after {len(action_ms)} actions; stopping")
            break
        now += step
        if match.deadline is not None and match.deadline <= now:
            started = time.perf_counter()
            services.gameday_tick(match_id=match.pk, now=now)
            tick_ms.append((time.perf_counter() - started) * 1000)
            continue
        seats = list(game.prompts(match.state))
        seat = rng.choice(seats)
        action = game.bot_submission(match.state, seat, "random", rng)
        if not action:
            idle += 1
            if idle > 50 * args.seats:
                print("no seat has anything left to do; stopping")
                break
            continue
        started = time.perf_counter()
        try:
            services.actions_apply(match_id=match.pk, seat_number=seat,
                                   user=users[seat - 1], action=action, source="api", now=now)
        except ServiceError:
            refused += 1
            continue
        action_ms.append((time.perf_counter() - started) * 1000)

    match.refresh_from_db()
    state_kb = len(str(match.state)) / 1024
    print(f"Tank Game benchmark: {args.seats} seats, game {args.game}"
          f"{', 26 x 26 map' if args.game == 'tank-game' else ''}, PostgreSQL"
          f"{'' if args.no_gc_freeze else ', gc.freeze() after start-up'}")
    print(f"  logbook rows: {Action.objects.filter(match=match).count()}, "
          f"state ~{state_kb:.0f} KB, refused {refused}")
    if action_ms:
        print(f"  action (actions_apply): n={len(action_ms)} "
              f"median {statistics.median(action_ms):.1f} ms, "
              f"p99 {percentile(action_ms, 0.99):.1f} ms, max {max(action_ms):.1f} ms "
              f"(target p99 < 50 ms)")
    if tick_ms:
        print(f"  tick (gameday_tick):    n={len(tick_ms)} "
              f"median {statistics.median(tick_ms):.1f} ms, "
              f"p99 {percentile(tick_ms, 0.99):.1f} ms, max {max(tick_ms):.1f} ms "
              f"(target < 250 ms)")


if __name__ == "__main__":
    main()
