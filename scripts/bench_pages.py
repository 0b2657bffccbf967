"""Benchmark: the Final Act match page and its HTMX answers, early and late in a long match.

    .venv/bin/python scripts/bench_pages.py [--rounds 40] [--repeat 30]

Runs on a throwaway SQLite database in a temporary folder (or on DATABASE_URL if set — it
creates users and a match there, mail switched off). Plays a Final Act match between two
players with every option on, each round's sheets from the random bot sealed through
``orders_submit`` and resolved with ``phase_resolve``, and times, through Django's test client
(the whole request: middleware, session, queries, templates), at round 2 and at round
``--rounds``:

- the match page of a player who must order (live board, order sheet, round report);
- the live check of a draft sheet (HTMX POST: problems, warnings, the board redrawn);
- one replay frame (HTMX GET);
- the submission-status poll (HTMX GET, every 5 s from every open page);

and ``render_board`` alone. Prints the median and p90 in milliseconds and the query counts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

PASSWORD = "bench-pages-pass"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="bench-pages-")
    os.environ.setdefault("PORTAL_VAR_DIR", tmp)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DEBUG", "true")  # development, as before: the default is production
    os.environ["EMAIL_URL"] = "dummy://"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost"

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import engine
    from games import services
    from games.final_act.board import render_board
    from games.models import Match

    call_command("migrate", verbosity=0)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    print(f"database: {settings.DATABASES['default']['NAME']}")
    game = engine.get("final-act")
    users = get_user_model().objects
    run = int(time.time())
    alice = users.create_user(f"pages{run}a", f"pages{run}a@example.test", PASSWORD)
    bob = users.create_user(f"pages{run}b", f"pages{run}b@example.test", PASSWORD)
    options = {"advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
               "tokens": {"mode": "all", "k": 3}, "extra_forces": True,
               "round_limit": args.rounds + 5}
    match = services.match_create(
        creator=alice, game="final-act", options=options, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    players = {1: alice, 2: bob}
    rng = random.Random(7)
    # The random bot against itself: long matches (the greedy one ends them in ~15 rounds).

    def play_round() -> bool:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return False
        for seat in (1, 2):
            sheet = game.bot_submission(match.state, seat, "random", rng)
            services.orders_submit(match_id=match.pk, seat_number=seat, user=players[seat],
                                   phase_number=match.phase_number, data=sheet, source="web")
        services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
        match.refresh_from_db()
        return match.status == Match.Status.ACTIVE

    client = Client()
    client.login(username=alice.username, password=PASSWORD)
    htmx = {"HTTP_HX_REQUEST": "true"}

    def timed(label: str, call) -> None:
        samples = []
        with CaptureQueriesContext(connection) as queries:
            response = call()
        count = len(queries.captured_queries)  # before the next request resets the log
        assert response.status_code == 200, (label, response.status_code)
        for _ in range(args.repeat):
            start = time.perf_counter()
            call()
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        p90 = samples[int(len(samples) * 0.9) - 1]
        print(f"  {label:<34} median {statistics.median(samples):6.1f} ms   p90 {p90:6.1f} ms"
              f"   {count:2d} queries   {len(response.content) // 1024} KB")

    def measure() -> None:
        match.refresh_from_db()
        state = match.state
        url = f"/matches/{match.pk}"
        active = match.status == Match.Status.ACTIVE
        resolved = match.phase_number - 1 if active else match.phase_number
        print(f"round {state['round']} (phase {match.phase_number}, {resolved} resolved"
              f"{'' if active else ', match over'}):")
        timed("match page" + (" (player ordering)" if active else " (end screen)"),
              lambda: client.get(f"{url}/"))
        if active:
            legal = game.legal_actions(state, 1)
            unit = next(iter(legal["units"]))
            target = (legal["units"][unit]["fire"] or [""])[0]
            timed("live check of a draft (HTMX)", lambda: client.post(
                f"{url}/{match.game}/seats/1/sheet/validate/",
                {"u-" + unit + "-move": "F", "u-" + unit + "-fire": target}, **htmx))
        timed("replay frame (HTMX)", lambda: client.get(f"{url}/replay/{resolved}/", **htmx))
        if active:
            timed("status poll (HTMX)", lambda: client.get(
                f"{url}/status/?phase={match.phase_number}", **htmx))
        view = game.view(state, 1)
        samples = []
        for _ in range(args.repeat * 3):
            start = time.perf_counter()
            render_board(view, seat=1, last_round=True)
            samples.append((time.perf_counter() - start) * 1000)
        print(f"  {'render_board alone':<34} median {statistics.median(samples):6.1f} ms")

    play_round()  # the setup
    play_round()  # round 1
    measure()
    played = 2
    while played < args.rounds and play_round():
        played += 1
    measure()


if __name__ == "__main__":
    main()
