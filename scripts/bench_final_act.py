"""Benchmark the Final Act engine on one core.

Prints rounds resolved per second with the median and p90 time of one round's resolution
(every option on: all advanced rules, all action tokens, Extra Forces; positions and sheets
taken from real games between random bots), and random full games per second (setup, bots,
validation and resolution of every round until the match ends).

Usage: python scripts/bench_final_act.py [--games N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

ALL_OPTIONS: dict[str, Any] = {
    "advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
    "tokens": {"mode": "all"},
    "extra_forces": True,
}

Round = tuple[dict[str, Any], dict[int, dict[str, Any]], int]


def play_random_game(game: engine.Game, seed: int, rounds: list[Round] | None = None) -> int:
    """Play one match between random bots; record every orders round. Returns rounds played."""
    rng = random.Random(seed)
    state = game.start(2, game.validate_options(ALL_OPTIONS), seed)
    played = 0
    while game.result(state) is None:
        prompts = game.prompts(state)
        submissions = {
            seat: game.bot_submission(state, seat, "random", rng) for seat in sorted(prompts)
        }
        phase_seed = rng.randrange(2**32)
        if rounds is not None and game.view(state, None)["phase"] == "orders":
            rounds.append((json.loads(json.dumps(state)), submissions, phase_seed))
        state = game.resolve(state, submissions, random.Random(phase_seed)).state
        played += 1
    return played


def time_rounds(game: engine.Game, rounds: list[Round], repeat: int) -> list[float]:
    """Seconds per resolution of each recorded round (best of ``repeat``)."""
    times = []
    for state, submissions, phase_seed in rounds:
        best = float("inf")
        for _ in range(repeat):
            rng = random.Random(phase_seed)
            started = time.perf_counter()
            game.resolve(state, submissions, rng)
            best = min(best, time.perf_counter() - started)
        times.append(best)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="random games to record and time")
    parser.add_argument("--profile", action="store_true", help="profile resolve with cProfile")
    args = parser.parse_args()
    game = engine.get("final-act")

    rounds: list[Round] = []
    started = time.perf_counter()
    total_rounds = sum(play_random_game(game, seed, rounds) for seed in range(args.games))
    elapsed = time.perf_counter() - started
    print(f"options: {json.dumps(ALL_OPTIONS)}")
    print(
        f"random full games: {args.games} games, {total_rounds} phases in {elapsed:.2f} s "
        f"= {args.games / elapsed:.1f} games/s (bots + validate + resolve)"
    )

    times = time_rounds(game, rounds, repeat=3)
    times_ms = sorted(t * 1000 for t in times)
    p90 = times_ms[int(0.9 * (len(times_ms) - 1))]
    print(
        f"round resolution: {len(times)} rounds from real random games, "
        f"{len(times) / sum(times):.0f} rounds/s, median {statistics.median(times_ms):.3f} ms, "
        f"p90 {p90:.3f} ms, max {times_ms[-1]:.3f} ms"
    )

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        time_rounds(game, rounds, repeat=1)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
