"""Benchmark: Tank Game V4 with 100 seats on the 26 x 26 map, through the service, on PostgreSQL.

    DATABASE_URL=postgres://... .venv/bin/python scripts/bench_tank_game.py [--actions 1000]
    DATABASE_URL=postgres://... .venv/bin/python scripts/bench_tank_game.py \\
        --actions 10000 --bot peaceful --at 1000,10000 --strike --json

Creates 100 players and one match (big map, accelerated one-hour gamedays that are always
open, no cooldown so every seat can act often, an armistice limit out of reach) in the database
of DATABASE_URL (migrated first), then plays: each step a random seat takes its bot's legal
action through ``games.services.actions_apply`` (one transaction: match row lock, engine apply,
logbook row, state write); every ~100 actions (``--per-gameday``) the gameday tick runs through
``games.services.gameday_tick``. ``now`` is driven explicitly so gamedays pass in seconds.

Bots: ``random`` (the game's own: it shoots a lot, so a long match ends) or ``peaceful`` (moves,
gives gold, buys, votes in the Council more than it shoots, and rarely at a living tank: a
100-seat match keeps going for 10,000 actions).

At each count of actions in ``--at`` it reports, over the ``--window`` actions before it: the
action median and p99, the tick p99, the state's size and the match page's time (a player's
whole request through Django's test client; median of 15). ``--strike`` then strikes out an
early entry (the moderator's strike-out: the match replayed after it, every later entry
rewritten) and times it. ``--json`` prints all of it as one JSON line.
Targets: action p99 <= 20 ms and tick p99 <= 100 ms at every size, 10k / 1k <= 1.2, state
<= 40 KB.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


WEIGHTS = {"move": 40, "give": 15, "buy_ap": 8, "upgrade_range": 4, "vote": 25,
           "open_ballot": 8, "shoot": 10}


def peaceful(game: Any, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal action, by kind with WEIGHTS; a shot goes at a wall or an empty square, and at
    a living tank only one time in five."""
    legal = game.legal_actions(state, seat)
    kinds = sorted({a["type"] for a in legal})
    if not kinds:
        return {}
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1) for k in kinds])[0]
    options = [a for a in legal if a["type"] == kind]
    if kind == "shoot":
        living = {t["at"] for t in state["tanks"].values() if t["status"] == "alive"}
        calm = [a for a in options if a["at"] not in living]
        if calm and rng.random() < 0.8:
            options = calm
    return rng.choice(options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=100)
    parser.add_argument("--game", default="tank-game")
    parser.add_argument("--bot", choices=("random", "peaceful"), default="random")
    parser.add_argument("--at", default="1000,10000",
                        help="report the figures at these counts of actions (comma-separated)")
    parser.add_argument("--window", type=int, default=1000,
                        help="the figures at a count are over the actions before it")
    parser.add_argument("--strike", action="store_true",
                        help="at the end, strike out an early entry and time it")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--per-gameday", type=int, default=100,
                        help="actions per (one-hour) gameday: more ticks in each window")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--no-gc-freeze", action="store_true",
                        help="leave the start-up objects to the garbage collector")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        sys.exit("Set DATABASE_URL to a PostgreSQL database (the benchmark writes to it).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DEBUG", "true")  # development, as before: the default is production
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("ENGINE_EXTRA_GAMES", "tests.toygame")

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    import engine
    from games import services
    from games.models import Action, Match
    from games.services import ServiceError

    settings.DEBUG = False  # as in production: no query log kept per connection
    call_command("migrate", verbosity=0)
    # As a long-running web or worker process should (e.g. in gunicorn's post_fork or Celery's
    # worker_process_init): move everything loaded at start-up out of the collector's sight,
    # so full collections stay short.
    if not args.no_gc_freeze:
        gc.collect()
        gc.freeze()
    stamp = int(time.time())
    users = [get_user_model().objects.create_user(f"bench{stamp}-{n}") for n in
             range(1, args.seats + 1)]
    options: dict[str, Any] = {"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60},
                               "cooldown_minutes": 0}
    if args.game == "tank-game":
        options.update(map="big", armistice_limit=100000)
    match = services.match_create(creator=users[0], game=args.game, options=options,
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in users])
    game = engine.get(args.game)
    rng = random.Random(args.seed)
    marks = sorted(n for n in (int(x) for x in args.at.split(",") if x) if n <= args.actions)
    client = Client()
    client.force_login(users[0])
    page_url = reverse("games:match", args=[match.pk])

    def page_ms() -> float:
        times = []
        for _ in range(15):
            started = time.perf_counter()
            response = client.get(page_url)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
        return statistics.median(times)

    now = timezone.now()
    step = timedelta(seconds=3600 / args.per_gameday)  # actions per one-hour gameday
    action_ms: list[float] = []
    ticks: list[tuple[int, float]] = []  # (actions applied before it, ms)
    figures: dict[str, Any] = {}
    refused = idle = 0
    while len(action_ms) < args.actions:
        match.refresh_from_db(fields=["state", "deadline", "status"])
        if match.status != Match.Status.ACTIVE:
            print(f"the match ended after {len(action_ms)} actions; stopping", file=sys.stderr)
            break
        now += step
        if match.deadline is not None and match.deadline <= now:
            started = time.perf_counter()
            services.gameday_tick(match_id=match.pk, now=now)
            ticks.append((len(action_ms), (time.perf_counter() - started) * 1000))
            continue
        seats = list(game.prompts(match.state))
        seat = rng.choice(seats)
        if args.bot == "peaceful" and args.game == "tank-game":
            action = peaceful(game, match.state, seat, rng)
        else:
            action = game.bot_submission(match.state, seat, "random", rng)
        if not action:
            idle += 1
            if idle > 50 * args.seats:
                print("no seat has anything left to do; stopping", file=sys.stderr)
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
        if marks and len(action_ms) == marks[0]:
            mark = marks.pop(0)
            window = action_ms[-args.window:]
            tick_window = [ms for before, ms in ticks if before > mark - args.window]
            match.refresh_from_db(fields=["state", "logbook_seq"])
            figures[str(mark)] = {
                "logbook_rows": match.logbook_seq,
                "entries": match.state.get("entries"),
                "action_median_ms": round(statistics.median(window), 2),
                "action_p99_ms": round(percentile(window, 0.99), 2),
                "tick_p99_ms": round(percentile(tick_window, 0.99), 2) if tick_window else None,
                "ticks": len(tick_window),
                "state_kb": round(len(json.dumps(match.state)) / 1024, 1),
                "match_page_ms": round(page_ms(), 1),
            }
            if not args.json:
                print(f"at {mark} actions: {figures[str(mark)]}", flush=True)

    result: dict[str, Any] = {
        "seats": args.seats, "game": args.game, "bot": args.bot, "actions": len(action_ms),
        "refused": refused, "window": args.window, "gc_freeze": not args.no_gc_freeze,
        "at": figures,
    }
    if len(figures) >= 2:
        first, last = figures[min(figures, key=int)], figures[max(figures, key=int)]
        result["ratio"] = {key: round(last[key] / first[key], 2)
                           for key in ("action_median_ms", "action_p99_ms", "tick_p99_ms",
                                       "match_page_ms") if first[key] and last[key]}
    if args.strike:
        match.refresh_from_db()
        early = Action.objects.filter(match=match, kind="action").order_by("seq")[9]
        started = time.perf_counter()
        moderator = get_user_model().objects.create_user(f"bench{stamp}-moderator",
                                                         is_staff=True, is_superuser=True)
        services.logbook_strike(action_id=early.pk, by=moderator, reason="benchmark")
        result["strike"] = {"entry": early.seq, "of": match.logbook_seq,
                            "seconds": round(time.perf_counter() - started, 2)}
    if args.json:
        print(json.dumps(result))
        return
    print(f"Tank Game benchmark: {args.seats} seats, game {args.game}"
          f"{', 26 x 26 map' if args.game == 'tank-game' else ''}, PostgreSQL, bot {args.bot}"
          f"{'' if args.no_gc_freeze else ', gc.freeze() after start-up'}")
    print(f"  logbook rows: {Action.objects.filter(match=match).count()}, refused {refused}")
    if action_ms:
        print(f"  action (actions_apply): n={len(action_ms)} "
              f"median {statistics.median(action_ms):.1f} ms, "
              f"p99 {percentile(action_ms, 0.99):.1f} ms, max {max(action_ms):.1f} ms "
              f"(target p99 <= 20 ms)")
    if ticks:
        tick_ms = [ms for _before, ms in ticks]
        print(f"  tick (gameday_tick):    n={len(tick_ms)} "
              f"median {statistics.median(tick_ms):.1f} ms, "
              f"p99 {percentile(tick_ms, 0.99):.1f} ms, max {max(tick_ms):.1f} ms "
              f"(target p99 <= 100 ms)")
    if "ratio" in result:
        print(f"  ratios (last / first report): {result['ratio']} (target <= 1.2)")
    if "strike" in result:
        print(f"  strike-out of entry {result['strike']['entry']} of {result['strike']['of']}: "
              f"{result['strike']['seconds']} s (the match replayed after it)")


if __name__ == "__main__":
    main()
