"""Benchmark the Panzer Squadron engine on one core.

Prints the median and p90 time to resolve one activation's path (a heavy tank moves four hexes
while five enemy tanks with standing reactions see it, each firing once: lines of fire, cover,
impact arcs and d100 rolls), with and without the validation that precedes it, and random bot
games per second.

Usage: python scripts/bench_panzer_squadron.py [--runs N] [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402

DEFENDERS = [{"seat": 2, "name": f"D{i}", "card": "light", "at": at, "facing": 6}
             for i, at in enumerate(["b10", "d10", "f10", "h10", "j10"], start=1)]
SCENARIO = {
    "size": [15, 11], "turn": 1, "initiative": 1,
    "terrain": {"woods": ["e6", "l7", "b6"], "building": ["m3"], "water": ["a4"]},
    "tanks": [{"seat": 1, "name": "H1", "card": "heavy", "at": "e2", "facing": 12,
               "state": "moving"}, *DEFENDERS],
}
PATH = {"path": [{"move": "e3", "face": 12}, {"move": "e4", "face": 12},
                 {"move": "e5", "face": 12}, {"turn": 2}, {"move": "f5", "face": 2}],
        "target": None, "end": "moving"}


def _percentiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[int(len(samples) * 0.9)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    game = engine.get("panzer-squadron")
    # movement 4 + 4 (−1: 7 points), then the five opportunity shots all miss
    options = game.validate_options({"scenario": SCENARIO, "dice": [4, 4, 1, 1, 1, 1, 1]})
    state = game.start(2, options, 1)
    state = game.apply(state, 1, {"activate": "H1", "action": "move"}, None,
                       random.Random(0)).state
    out = game.apply(state, 1, PATH, None, random.Random(0))
    shots = [e for e in out.events if e["type"] == "fire"]
    assert len(shots) == 5, f"expected five opportunity shots, got {len(shots)}"
    rng = random.Random(0)
    full, resolve = [], []
    checked = game.validate(state, 1, PATH)
    from engine.panzer_squadron import rules
    for _ in range(args.runs):
        t0 = time.perf_counter()
        game.apply(state, 1, PATH, None, rng)  # apply validates first
        t1 = time.perf_counter()
        rules.apply(state, 1, checked, rng)
        t2 = time.perf_counter()
        full.append(t1 - t0)
        resolve.append(t2 - t1)
    med, p90 = _percentiles(full)
    print(f"activation path with 5 opportunity shots, validated + resolved: "
          f"median {med * 1e3:.3f} ms, p90 {p90 * 1e3:.3f} ms ({args.runs} runs)")
    med, p90 = _percentiles(resolve)
    print(f"activation path with 5 opportunity shots, resolution only: "
          f"median {med * 1e3:.3f} ms, p90 {p90 * 1e3:.3f} ms")
    t0 = time.perf_counter()
    steps = 0
    for seed in range(args.games):
        s = game.start(2, game.default_options(), seed)
        r = random.Random(seed)
        while game.result(s) is None:
            seat = s["to_move"]
            s = game.apply(s, seat, game.bot_submission(s, seat, "random", r), None, r).state
            steps += 1
    elapsed = time.perf_counter() - t0
    print(f"random bot games: {args.games / elapsed:.1f} games/s ({steps / elapsed:.0f} "
          f"phases/s, legal-action enumeration included)")


if __name__ == "__main__":
    main()
