"""Leagues' seasons and divisions: the pure rules (see docs/competitions.md, "Leagues").

Pure functions like the rest of ``competitions.pairing`` (which re-exports them): no Django, no
I/O, no clock, no global random. Players are identified by ids; the league services call these
under the league's row lock.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from competitions.pairing import PairingError, pod_sizes

__all__ = ["adjudicate", "division_pods", "divisions_first", "season_moves", "season_next"]


def _rating(value: Any, who: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise PairingError(f"Player {who} has no rating that is a number: {value!r}.")
    return float(value)


def _read_players(players: Sequence[Mapping[str, Any]]) -> list[tuple[int, float]]:
    seen: set[int] = set()
    read = []
    for player in players:
        if not isinstance(player, Mapping) or isinstance(player.get("id"), bool) \
                or not isinstance(player.get("id"), int):
            raise PairingError(f"Each player is a mapping with an integer id: {player!r}.")
        pid = player["id"]
        if pid in seen:
            raise PairingError(f"Player {pid} is listed twice.")
        seen.add(pid)
        read.append((pid, _rating(player.get("rating", 0), pid)))
    return read


def _size(size: Any) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise PairingError("A division holds at least one player.")
    return size


def divisions_first(players: Sequence[Mapping[str, Any]], size: int) -> list[list[int]]:
    """The first season's divisions: ``ceil(n / size)`` of them, as equal as possible with a
    higher division never smaller than a lower one, filled by rating (best first; equal
    ratings: lower id first) from division 1 down."""
    size = _size(size)
    ordered = [pid for pid, _ in sorted(_read_players(players), key=lambda p: (-p[1], p[0]))]
    if not ordered:
        return []
    count = -(-len(ordered) // size)
    base, extra = divmod(len(ordered), count)
    divisions, start = [], 0
    for number in range(count):
        length = base + (1 if number < extra else 0)  # the larger ones on top
        divisions.append(ordered[start:start + length])
        start += length
    return divisions


def _moves(move: Any, members: int) -> int:
    """How many go up and down in a division of ``members`` (leavers included)."""
    if move == "quarter":
        wanted = -(-members // 4)
    elif isinstance(move, int) and not isinstance(move, bool) and move >= 0:
        wanted = move
    else:
        raise PairingError(f"“move” is “quarter” or a whole number of at least 0, not {move!r}.")
    return min(wanted, members // 2)


def _decide(divisions: Sequence[Sequence[int]], results: Sequence[Mapping[str, Any]],
            rules: Mapping[str, Any]
            ) -> tuple[list[list[int]], list[list[int]], list[list[int]], list[int]]:
    """Each division's players going up, going down and staying (by merit), and the
    newcomers in order, after checking the input."""
    _size(rules.get("size"))
    limit = rules.get("relegate_forfeits")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise PairingError(f"“relegate_forfeits” is None or a whole number of at least 1, "
                           f"not {limit!r}.")
    rows: dict[int, Mapping[str, Any]] = {}
    for row in results:
        if not isinstance(row, Mapping) or row.get("id") in rows:
            raise PairingError(f"Each result is a mapping for one player: {row!r}.")
        rows[row["id"]] = row
    placed: set[int] = set()
    for division in divisions:
        for pid in division:
            if pid in placed:
                raise PairingError(f"Player {pid} is in two divisions.")
            if pid not in rows:
                raise PairingError(f"Player {pid} has no result.")
            placed.add(pid)
    newcomers = _read_players(rules.get("newcomers") or [])
    for pid, _ in newcomers:
        if pid in placed:
            raise PairingError(f"Newcomer {pid} already plays in a division.")

    def merit(pid: int) -> tuple[Any, ...]:
        row = rows[pid]
        return (row.get("rank", 0), -_rating(row.get("rating", 0), pid), pid)

    def at_limit(pid: int) -> bool:
        return limit is not None and int(rows[pid].get("forfeits") or 0) >= limit

    count = len(divisions)
    ups: list[list[int]] = []
    downs: list[list[int]] = []
    stays: list[list[int]] = []
    for index, division in enumerate(divisions):
        q = _moves(rules.get("move", "quarter"), len(division))
        playing = sorted((pid for pid in division if not rows[pid].get("left")), key=merit)
        up = set()
        if index > 0:
            up = set([pid for pid in playing if not at_limit(pid)][:q])
        down = set()
        if index < count - 1:
            rest = [pid for pid in playing if pid not in up]
            down = set(rest[len(rest) - q:] if q else []) | {pid for pid in rest if at_limit(pid)}
        ups.append([pid for pid in playing if pid in up])
        downs.append([pid for pid in playing if pid in down])
        stays.append([pid for pid in playing if pid not in up and pid not in down])
    new = [pid for pid, _ in sorted(newcomers, key=lambda p: (-p[1], p[0]))]
    return ups, downs, stays, new


def season_moves(divisions: Sequence[Sequence[int]], results: Sequence[Mapping[str, Any]],
                 rules: Mapping[str, Any]) -> dict[int, str]:
    """Where each player of ``divisions`` goes by ``season_next``'s rules: "up", "down",
    "stay" or "left" (the places a division page marks, and the archive keeps)."""
    ups, downs, stays, _ = _decide(divisions, results, rules)
    moves = {pid: "left" for division in divisions for pid in division}
    for index in range(len(divisions)):
        moves.update(dict.fromkeys(ups[index], "up"))
        moves.update(dict.fromkeys(downs[index], "down"))
        moves.update(dict.fromkeys(stays[index], "stay"))
    return moves


def season_next(divisions: Sequence[Sequence[int]], results: Sequence[Mapping[str, Any]],
                rules: Mapping[str, Any]) -> list[list[int]]:
    """The next season's divisions after promotion and relegation.

    A quarter (or ``rules["move"]``) of each division up and down, players at the forfeit
    limit down, leavers out, newcomers in the last division; empty divisions dropped and an
    overfull last division split (again while the new last one is overfull). A player who
    would both go up and down (only when leavers leave fewer than twice the moves) goes up:
    the up places are filled first.
    """
    ups, downs, stays, new = _decide(divisions, results, rules)
    size = rules["size"]
    count = len(divisions)
    built: list[list[int]] = []
    for index in range(count):
        came_down = downs[index - 1] if index > 0 else []
        came_up = ups[index + 1] if index + 1 < count else []
        built.append(came_down + stays[index] + came_up)
    if new:
        if built:
            built[-1] = built[-1] + new
        else:
            built.append(new)
    built = [division for division in built if division]
    while built and len(built[-1]) > 2 * size:
        last = built.pop()
        built.extend([last[:size], last[size:]])
    return built


def adjudicate(clock_used: Mapping[int, float]) -> list[list[int]]:
    """The ranking (groups of seats, best first) of a match unfinished at the season's end:
    the seat that used the most of its own time last; equal times share a place."""
    times: dict[int, float] = {}
    for seat, used in clock_used.items():
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise PairingError(f"A seat is a whole number, not {seat!r}.")
        times[seat] = _rating(used, f"in seat {seat}")
        if times[seat] < 0:
            raise PairingError(f"Seat {seat} cannot have used negative time.")
    ranking: list[list[int]] = []
    for seat in sorted(times, key=lambda s: (times[s], s)):
        if ranking and times[ranking[-1][0]] == times[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking


def division_pods(ids: Sequence[int], size: int) -> list[list[list[int]]]:
    """A division's pods for a game of ``size`` seats, every round at once: enough rounds for
    each player to meet about every other (``ceil((m - 1) / (size - 1))``), pods of ``size``
    and ``size - 1`` (``pod_sizes``), the players regrouped each round by a different stride
    through the list and each pod's seats turned by one a round, so seats even out. Where the
    count cannot be split so, byes ``[id]``: to whoever has had fewest, the lowest in the
    division's list first."""
    ids = list(ids)
    m = len(ids)
    if m < 2:
        return []
    if size < 3:
        raise PairingError("Pods are for games of three seats or more.")
    sizes, byes = pod_sizes(m, size)
    rounds = -(-(m - 1) // (size - 1))
    strides = [s for s in range(1, m + 1) if math.gcd(s, m) == 1]
    had_bye = dict.fromkeys(ids, 0)
    schedule = []
    for number in range(rounds):
        resting = sorted(range(m), key=lambda i: (had_bye[ids[i]], -i))[:byes]
        for i in resting:
            had_bye[ids[i]] += 1
        stride = strides[number % len(strides)]
        order = [ids[(i * stride + number) % m] for i in range(m)]
        order = [pid for pid in order if pid not in {ids[i] for i in resting}]
        pods, start = [], 0
        for pod_size in sizes:
            pod = order[start:start + pod_size]
            turn = number % len(pod)
            pods.append(pod[turn:] + pod[:turn])
            start += pod_size
        pods.extend([ids[i]] for i in resting)
        schedule.append(pods)
    return schedule
