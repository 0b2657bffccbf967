"""Benchmark the competitions' pure core: Swiss pairing and standings for 1,024 players.

    python scripts/bench_competitions.py [--json] [--players 1024] [--rounds 6] [--seed 1]

Plays ``--rounds`` Swiss rounds with seeded random results (wins, draws and losses by rating
difference), then times pairing the next round and computing the standings with every
tie-break. Prints a table, or one JSON line with --json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from competitions.pairing import standings, swiss_round  # noqa: E402


def play(players: list[dict], rounds: int, rng: random.Random) -> tuple[list[dict], float]:
    games: list[dict] = []
    pairing_total = 0.0
    rating = {p["id"]: p["rating"] for p in players}
    for rnd in range(1, rounds + 1):
        started = time.perf_counter()
        pairs = swiss_round(players, games, rnd)
        pairing_total += time.perf_counter() - started
        for first, second in pairs:
            if second is None:
                games.append({"round": rnd, "first": first, "second": None, "score": 1})
                continue
            expected = 1 / (1 + 10 ** ((rating[second] - rating[first]) / 400))
            roll = rng.random()
            score = 1 if roll < expected - 0.1 else 0.5 if roll < expected + 0.1 else 0
            games.append({"round": rnd, "first": first, "second": second, "score": score})
    return games, pairing_total / rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many timings")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = [{"id": i, "rating": 2400 - i, "active": True} for i in range(1, args.players + 1)]
    games, mean_round = play(players, args.rounds, rng)

    swiss = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        pairs = swiss_round(players, games, args.rounds + 1)
        swiss.append(time.perf_counter() - started)
    seen = sorted(p for pair in pairs for p in pair if p is not None)
    assert seen == [p["id"] for p in players], "every player is paired exactly once"

    table = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        rows = standings(players, games)
        table.append(time.perf_counter() - started)
    assert len(rows) == args.players

    figures = {
        "players": args.players,
        "rounds_played": args.rounds,
        "swiss_1024_round_s": round(min(swiss), 4),
        "swiss_mean_earlier_round_s": round(mean_round, 4),
        "standings_1024_s": round(min(table), 4),
    }
    if args.players != 1024:
        figures[f"swiss_{args.players}_round_s"] = figures.pop("swiss_1024_round_s")
        figures[f"standings_{args.players}_s"] = figures.pop("standings_1024_s")
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value}")


if __name__ == "__main__":
    main()
