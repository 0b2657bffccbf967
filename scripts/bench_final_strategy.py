#!/usr/bin/env python3
"""Turns per second of random 4-player Final Strategy games (bot "random" builds each turn,
``validate`` checks it, ``apply`` plays it), on one core.

    python scripts/bench_final_strategy.py [--games N] [--seats 4]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    game = engine.get("final-strategy")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    turns = 0
    started, cpu = time.perf_counter(), time.process_time()
    for seed in range(args.games):
        rng = random.Random(seed)
        state = game.start(args.seats, {}, seed)
        while game.result(state) is None:
            seat = state["to_move"]
            action = game.validate(state, seat, game.bot_submission(state, seat, "random", rng))
            state = game.apply(state, seat, action, now, rng).state
            turns += 1
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    # CPU time is what one core spent; wall time also counts waiting on a loaded machine.
    print(f"{args.games} random {args.seats}-player games, {turns} turns: "
          f"{turns / cpu:,.0f} turns/s of CPU time ({cpu:.2f} s), "
          f"{turns / elapsed:,.0f} turns/s of wall time ({elapsed:.2f} s)")


if __name__ == "__main__":
    main()
