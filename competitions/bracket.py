"""Single and double elimination brackets as data: pure, like ``competitions.pairing``.

A bracket is a list of matches whose two sides come from a seed, or from the winner or loser
of an earlier match. ``bracket_state`` replays the results so far: which players stand where,
who advanced without playing (a bye: the other side is empty) and which matches are ready.
A tournament round plays every match that is ready when the round starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from competitions.pairing import PairingError, elimination_order

EMPTY = 0  # a side nobody fills (a bye)


@dataclass(frozen=True)
class Source:
    kind: str  # "seed", "winner" or "loser"
    ref: int | str  # a seed number, or an earlier match's key


@dataclass(frozen=True)
class BracketMatch:
    key: str  # "W1-1", "L2-1", "F"
    bracket: str  # "W", "L" or "F"
    round: int  # the round inside its bracket
    first: Source
    second: Source


def _size(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise PairingError("An elimination bracket needs at least two players.")
    size = 1
    while size < n:
        size *= 2
    return size


def _winners_bracket(size: int) -> list[BracketMatch]:
    order = elimination_order(size)
    matches = [BracketMatch(f"W1-{j + 1}", "W", 1, Source("seed", order[2 * j]),
                            Source("seed", order[2 * j + 1])) for j in range(size // 2)]
    count, rnd = size // 4, 2
    while count >= 1:
        matches += [BracketMatch(f"W{rnd}-{j}", "W", rnd,
                                 Source("winner", f"W{rnd - 1}-{2 * j - 1}"),
                                 Source("winner", f"W{rnd - 1}-{2 * j}"))
                    for j in range(1, count + 1)]
        count, rnd = count // 2, rnd + 1
    return matches


def single_elimination(n: int) -> list[BracketMatch]:
    """The matches of an ``n``-player knock-out; the last one is the final."""
    return _winners_bracket(_size(n))


def double_elimination(n: int) -> list[BracketMatch]:
    """Winners' and losers' brackets and a grand final (no reset match)."""
    size = _size(n)
    k_max = size.bit_length() - 1
    matches = _winners_bracket(size)
    if k_max == 1:
        return [*matches, BracketMatch("F", "F", 1, Source("winner", "W1-1"),
                                       Source("loser", "W1-1"))]
    losers = [BracketMatch(f"L1-{j}", "L", 1, Source("loser", f"W1-{2 * j - 1}"),
                           Source("loser", f"W1-{2 * j}")) for j in range(1, size // 4 + 1)]
    for k in range(2, k_max + 1):
        major, count = 2 * k - 2, size // 2**k
        losers += [BracketMatch(f"L{major}-{j}", "L", major,
                                Source("winner", f"L{major - 1}-{j}"),
                                Source("loser", f"W{k}-{count + 1 - j}"))
                   for j in range(1, count + 1)]
        if k < k_max:
            losers += [BracketMatch(f"L{major + 1}-{j}", "L", major + 1,
                                    Source("winner", f"L{major}-{2 * j - 1}"),
                                    Source("winner", f"L{major}-{2 * j}"))
                       for j in range(1, count // 2 + 1)]
    final = BracketMatch("F", "F", 1, Source("winner", f"W{k_max}-1"),
                         Source("winner", f"L{2 * k_max - 2}-1"))
    return [*matches, *losers, final]


def bracket_state(matches: Sequence[BracketMatch], n: int,
                  winners: Mapping[str, int]) -> dict[str, dict[str, Any]]:
    """Each match's sides (a seed, EMPTY, or None while unknown), winner and loser.

    ``winners`` maps a played match's key to the winning seed. A match with one empty side
    is a walkover (``bye``); ``ready`` marks a match with two players and no result yet.
    """
    state: dict[str, dict[str, Any]] = {}

    def side(source: Source) -> int | None:
        if source.kind == "seed":
            return int(source.ref) if int(source.ref) <= n else EMPTY
        earlier = state[str(source.ref)]
        return earlier["winner"] if source.kind == "winner" else earlier["loser"]

    for match in matches:
        first, second = side(match.first), side(match.second)
        row: dict[str, Any] = {"match": match, "first": first, "second": second,
                               "winner": None, "loser": None, "bye": False, "ready": False}
        if first is not None and second is not None:
            if first == EMPTY or second == EMPTY:
                row.update(winner=first or second, loser=EMPTY, bye=True)
            elif match.key in winners:
                won = winners[match.key]
                if won not in (first, second):
                    raise PairingError(f"{won} did not play in {match.key}.")
                row.update(winner=won, loser=second if won == first else first)
            else:
                row["ready"] = True
        state[match.key] = row
    return state


def bracket_placings(matches: Sequence[BracketMatch], state: Mapping[str, Mapping[str, Any]],
                     n: int) -> dict[int, int]:
    """Final places so far: the champion 1, then by how late each player was knocked out
    (players out in the same bracket round share the place). Players still in are left out."""
    double = any(m.bracket in ("L", "F") for m in matches)
    out_at: dict[int, int] = {}
    for match in matches:
        loser = state[match.key]["loser"]
        if not loser or (double and match.bracket == "W"):
            continue  # a winners'-bracket loss only drops a player to the losers' bracket
        out_at[loser] = 10**6 if match.bracket == "F" else match.round
    places: dict[int, int] = {}
    final = state[matches[-1].key]
    if final["winner"]:
        places[final["winner"]] = 1
    ranked = sorted(out_at.items(), key=lambda item: (-item[1], item[0]))
    for i, (player, when) in enumerate(ranked):
        same = i > 0 and when == ranked[i - 1][1]
        places[player] = places[ranked[i - 1][0]] if same else len(places) + 1
    return places
