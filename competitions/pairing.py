"""Pairing, seeding and standings: the competitions' pure core (see shared/competitions.md).

Pure functions: no Django, no I/O, no clock, no global random. Players are identified by their
start number (1 = top seed). The tournament services call these under the tournament lock.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import networkx as nx

from competitions.teams import team_match, team_standings

Pair = tuple[int, int | None]

__all__ = [
    "PairingError",
    "elimination_order",
    "elimination_round1",
    "pod_points",
    "pod_sizes",
    "pods_round",
    "pods_standings",
    "round_robin",
    "standings",
    "swiss_round",
    "team_match",
    "team_standings",
]

# The leagues' rules live in ``competitions.seasons`` (which uses this module's helpers); they
# are read from here as well, lazily, so that either module may be imported first.
_SEASONS = frozenset({"adjudicate", "division_pods", "divisions_first", "season_moves",
                      "season_next"})


def __getattr__(name: str) -> Any:
    if name in _SEASONS:
        from competitions import seasons

        return getattr(seasons, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class PairingError(ValueError):
    """The input cannot be paired (a bad argument, not a hard draw)."""


# --------------------------------------------------------------------------------------------
# Round robin: FIDE Berger tables (Handbook C.05, Annex 1)
# --------------------------------------------------------------------------------------------


def _berger_even(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for an even ``n``: ``n - 1`` rounds of ``n / 2`` boards."""
    half, ring = n // 2, n - 1
    rounds = []
    for r in range(1, n):
        pivot = (r - 1) * half % ring + 1  # the player meeting n on board 1
        board1 = (pivot, n) if r % 2 else (n, pivot)
        pairs = [board1]
        for k in range(1, half):
            first = (pivot - 1 + k) % ring + 1
            second = (pivot - 1 - k) % ring + 1
            pairs.append((first, second))
        rounds.append(pairs)
    return rounds


def round_robin(n: int, cycles: int = 1) -> list[list[Pair]]:
    """The FIDE Berger table for ``n`` players; odd ``n`` gives byes ``(player, None)``.

    ``cycles=2``: a double round robin, colours reversed in the second cycle and the last two
    rounds of the first cycle swapped (the FIDE recommendation).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise PairingError("A round robin needs at least two players.")
    if cycles not in (1, 2):
        raise PairingError("A round robin has one or two cycles.")
    size = n if n % 2 == 0 else n + 1
    table: list[list[Pair]] = [
        [(a, None) if b > n else (b, None) if a > n else (a, b) for a, b in pairs]
        for pairs in _berger_even(size)
    ]
    if cycles == 1:
        return table
    first = list(table)
    if len(first) >= 2:
        first[-1], first[-2] = first[-2], first[-1]
    second = [[(b, a) if b is not None else (a, None) for a, b in pairs] for pairs in table]
    return first + second


# --------------------------------------------------------------------------------------------
# Elimination
# --------------------------------------------------------------------------------------------


def elimination_order(size: int) -> list[int]:
    """Seeds in standard bracket order for a power of two (8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def elimination_round1(n: int) -> list[Pair]:
    """First-round pairs of an ``n``-player bracket; top seeds get byes ``(seed, None)``."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise PairingError("An elimination bracket needs at least two players.")
    size = 1
    while size < n:
        size *= 2
    order = elimination_order(size)
    pairs: list[Pair] = []
    for a, b in zip(order[::2], order[1::2], strict=True):
        pairs.append((a, b if b <= n else None))
    return pairs


# --------------------------------------------------------------------------------------------
# Shared reading of the record
# --------------------------------------------------------------------------------------------


def _player_ids(players: Iterable[Mapping[str, Any]]) -> list[int]:
    ids = []
    for player in players:
        if not isinstance(player, Mapping) or "id" not in player:
            raise PairingError('Each player is a mapping with an "id".')
        pid = player["id"]
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise PairingError(f"A player's id must be a whole number, not {pid!r}.")
        ids.append(pid)
    if len(set(ids)) != len(ids):
        raise PairingError("Two players have the same id.")
    return ids


def _num(value: Any, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise PairingError(f"{what} must be a number, not {value!r}.")
    return Fraction(value).limit_denominator(1000)


@dataclass
class _Record:
    """What the earlier rounds say about one player."""

    points: Fraction = Fraction(0)
    opponents: set[int] = field(default_factory=set)  # every earlier pairing, forfeits too
    colours: list[tuple[int, str]] = field(default_factory=list)  # (round, "W" / "B")
    byes: int = 0
    wins: int = 0

    @property
    def whites(self) -> int:
        return sum(1 for _, c in self.colours if c == "W")

    @property
    def blacks(self) -> int:
        return sum(1 for _, c in self.colours if c == "B")


def _read_games(ids: Iterable[int], games: Iterable[Mapping[str, Any]]) -> dict[int, _Record]:
    records = {pid: _Record() for pid in ids}
    for game in games:
        if not isinstance(game, Mapping):
            raise PairingError("Each game is a mapping.")
        first, second = game.get("first"), game.get("second")
        if first not in records or (second is not None and second not in records):
            raise PairingError(f"A game names a player who is not in the list: {dict(game)}.")
        score = _num(game.get("score", 1 if second is None else None), "A game's score")
        rnd = game.get("round", 0)
        if second is None:
            records[first].points += score
            records[first].byes += 1
            records[first].wins += 1
            continue
        other = _num(game["second_score"], "A second score") if "second_score" in game \
            else 1 - score
        records[first].points += score
        records[second].points += other
        records[first].opponents.add(second)
        records[second].opponents.add(first)
        records[first].colours.append((rnd, "W"))
        records[second].colours.append((rnd, "B"))
        if score > other:
            records[first].wins += 1
        elif other > score:
            records[second].wins += 1
    for record in records.values():
        record.colours.sort(key=lambda rc: rc[0])
    return records


# --------------------------------------------------------------------------------------------
# Swiss
# --------------------------------------------------------------------------------------------

# Lexicographic weights of the matching, most important first (integers: blossom is exact).
_W_REMATCH = 10**21
_W_BYE = 10**18
_W_FLOAT = 10**14
_W_DIFF = 10**9
_W_COLOUR = 10**5
SPARSE_NEIGHBOURS = 6  # edges each side of a player's ideal opponent inside a score group
DENSE_GROUP = 24  # a score group up to this size gets every edge


def _must_colour(colours: Sequence[tuple[int, str]]) -> str | None:
    """The colour a player must get so as not to have the same one three times in a row."""
    if len(colours) >= 2 and colours[-1][1] == colours[-2][1]:
        return "B" if colours[-1][1] == "W" else "W"
    return None


def _colour_clash(a: _Record, b: _Record) -> int:
    """How much the pair strains colours: a forced third same colour in a row weighs most,
    then each player pushed more than one away from an even balance."""
    ma, mb = _must_colour(a.colours), _must_colour(b.colours)
    strain = 8 if ma is not None and ma == mb else 0
    da, db = a.whites - a.blacks, b.whites - b.blacks
    if ma is None and mb is None and da != db:
        a_first = a.whites < b.whites if a.whites != b.whites else da < db
    else:
        a_first = ma == "W" or mb == "B"
    after_a = da + (1 if a_first else -1)
    after_b = db + (-1 if a_first else 1)
    return strain + max(0, abs(after_a) - 1) ** 2 + max(0, abs(after_b) - 1) ** 2


def _colours(a: int, b: int, records: Mapping[int, _Record]) -> tuple[int, int]:
    """(first, second) of a pair by the colour rules, in their order of priority."""
    ra, rb = records[a], records[b]
    ma, mb = _must_colour(ra.colours), _must_colour(rb.colours)
    if ma != mb:  # at most one of them is constrained, or they want opposite colours
        if ma == "W" or mb == "B":
            return a, b
        if ma == "B" or mb == "W":
            return b, a
    if ra.whites != rb.whites:
        return (a, b) if ra.whites < rb.whites else (b, a)
    ca, cb = dict(ra.colours), dict(rb.colours)
    for rnd in sorted(set(ca) | set(cb), reverse=True):
        x, y = ca.get(rnd), cb.get(rnd)
        if x != y:
            if x == "B" or y == "W":
                return a, b
            return b, a
    return (a, b) if a < b else (b, a)


def _score_key(points: Fraction) -> int:
    """Points in the smallest unit the record uses (half points, usually), as an int."""
    return int(points * 1000)


def _pair_weight(a: int, b: int, records: Mapping[int, _Record], scale: int) -> int:
    ra, rb = records[a], records[b]
    w = 0
    if b in ra.opponents:
        w += _W_REMATCH
    if ra.points != rb.points:
        w += 2 * _W_FLOAT + _W_DIFF * int(abs(ra.points - rb.points) * scale)
    w += _W_COLOUR * _colour_clash(ra, rb)
    return w


class _NotProven(Exception):
    """The fast path could not show its pairing optimal: use the exact global matching."""


def _match(graph: nx.Graph, nodes: Sequence[int]) -> set[tuple[int, int]]:
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(nodes):
        raise _NotProven
    return {(a, b) if a < b else (b, a) for a, b in matching}


def _group_graph(group: Sequence[int], records: Mapping[int, _Record], dense: bool,
                 big: int) -> nx.Graph:
    """A score group's graph: top half against bottom half is ideal; rematches left out."""
    graph = nx.Graph()
    graph.add_nodes_from(group)
    g = len(group)
    half = g // 2
    for i, a in enumerate(group):
        if dense or g <= DENSE_GROUP:
            partners: Iterable[int] = range(i + 1, g)
        else:
            centre = i + half
            partners = {j % g for j in range(centre - SPARSE_NEIGHBOURS,
                                             centre + SPARSE_NEIGHBOURS + 1)} - {i}
        for j in partners:
            b = group[j]
            if b in records[a].opponents or graph.has_edge(a, b):
                continue
            offset = abs(abs(i - j) - half)
            graph.add_edge(a, b, weight=big - _W_COLOUR * _colour_clash(records[a], records[b])
                           - offset)
    return graph


def _pair_group(group: Sequence[int], records: Mapping[int, _Record]) -> set[tuple[int, int]]:
    """A perfect matching of an even score group without rematches (sparse, then dense)."""
    if not group:
        return set()
    big = _W_FLOAT
    try:
        return _match(_group_graph(group, records, False, big), group)
    except _NotProven:
        return _match(_group_graph(group, records, True, big), group)


def _pair_two_groups(upper: Sequence[int], lower: Sequence[int],
                     records: Mapping[int, _Record]) -> set[tuple[int, int]]:
    """Two odd score groups: each matched inside, one player of each meeting across."""
    big = _W_FLOAT
    for dense in (False, True):
        graph = _group_graph(upper, records, dense, big)
        graph.update(_group_graph(lower, records, dense, big))
        width = len(upper) if dense else min(len(upper), 2 * SPARSE_NEIGHBOURS)
        width_low = len(lower) if dense else min(len(lower), 2 * SPARSE_NEIGHBOURS)
        for i, a in enumerate(reversed(upper[-width:])):
            for j, b in enumerate(lower[:width_low]):
                if b not in records[a].opponents:
                    # a cross edge costs more than any inside edge can give: one is used
                    graph.add_edge(a, b, weight=big // 4 - _W_COLOUR * _colour_clash(
                        records[a], records[b]) - i - j)
        nodes = list(upper) + list(lower)
        try:
            matching = _match(graph, nodes)
        except _NotProven:
            continue
        upper_set = set(upper)
        crossing = sum(1 for a, b in matching if (a in upper_set) != (b in upper_set))
        if crossing == 1:
            return matching
    raise _NotProven


def _swiss_fast(active: Sequence[int], records: Mapping[int, _Record]) -> set[tuple[int, int]]:
    """Pair by score groups; odd groups exchange one player with the next odd group.

    This reaches the lower bounds (one floater per odd group, floaters paired with the nearest
    odd group), so a perfect pairing found here is optimal for floaters and score differences.
    """
    by_score: dict[Fraction, list[int]] = defaultdict(list)
    for pid in sorted(active):
        by_score[records[pid].points].append(pid)
    groups = [by_score[s] for s in sorted(by_score, reverse=True)]
    pairs: set[tuple[int, int]] = set()
    waiting: list[int] | None = None  # an odd group waiting for the next odd one
    for group in groups:
        if len(group) % 2 == 0:
            pairs |= _pair_group(group, records)
        elif waiting is None:
            waiting = group
        else:
            pairs |= _pair_two_groups(waiting, group, records)
            waiting = None
    if waiting is not None:
        raise _NotProven
    return pairs


def _swiss_exact(active: Sequence[int], records: Mapping[int, _Record],
                 bye_needed: bool) -> tuple[set[tuple[int, int]], int | None]:
    """One maximum-weight matching over the whole field (slow on big fields; exact)."""
    scale = 2
    for pid in active:
        while records[pid].points * scale != int(records[pid].points * scale) and scale < 1000:
            scale *= 2
    graph = nx.Graph()
    graph.add_nodes_from(active)
    top = _W_REMATCH * 10**4
    ordered = sorted(active)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            graph.add_edge(a, b, weight=top - _pair_weight(a, b, records, scale))
    bye_node = -1
    if bye_needed:
        eligible = [p for p in active if records[p].byes == 0] or list(active)
        levels = sorted({records[p].points for p in eligible})
        for p in active:
            if p in eligible:
                penalty = _W_BYE * levels.index(records[p].points) - p  # worst start number
            else:
                penalty = _W_BYE * (len(levels) + 1)
            graph.add_edge(bye_node, p, weight=top - penalty)
    nodes = list(graph.nodes)
    matching = _match(graph, nodes)
    bye = None
    pairs = set()
    for a, b in matching:
        if a == bye_node or b == bye_node:
            bye = b if a == bye_node else a
        else:
            pairs.add((a, b))
    return pairs, bye


def _bye_order(active: Sequence[int], records: Mapping[int, _Record]) -> list[int]:
    eligible = [p for p in active if records[p].byes == 0] or list(active)
    return sorted(eligible, key=lambda p: (records[p].points, -p))


def _order_boards(pairs: Iterable[tuple[int, int]], records: Mapping[int, _Record],
                  bye: int | None) -> list[Pair]:
    boards: list[Pair] = [_colours(a, b, records) for a, b in pairs]
    boards.sort(key=lambda ab: (-max(records[ab[0]].points, records[ab[1]].points),
                                min(ab[0], ab[1])))  # type: ignore[type-var]
    if bye is not None:
        boards.append((bye, None))
    return boards


def swiss_round(players: Sequence[Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
                round_number: int) -> list[Pair]:
    """One Swiss round's pairs (first gets white / seat 1) and at most one bye ``(id, None)``."""
    ids = _player_ids(players)
    active = sorted(p["id"] for p in players if p.get("active", True))
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise PairingError("The round number is a whole number from 1.")
    records = _read_games(ids, games)
    if not active:
        return []
    if round_number == 1 or not games:
        return _swiss_first_round(active)
    bye_needed = len(active) % 2 == 1
    if bye_needed:
        bye = _bye_order(active, records)[0]
        rest = [p for p in active if p != bye]
    else:
        bye, rest = None, list(active)
    try:
        pairs = _swiss_fast(rest, records)
    except _NotProven:
        pairs, bye = _swiss_exact(active, records, bye_needed)
    return _order_boards(pairs, records, bye)


def _swiss_first_round(active: Sequence[int]) -> list[Pair]:
    field_ = sorted(active)
    bye = field_.pop() if len(field_) % 2 else None
    half = len(field_) // 2
    boards: list[Pair] = []
    for board, (top, bottom) in enumerate(zip(field_[:half], field_[half:], strict=True), 1):
        boards.append((top, bottom) if board % 2 else (bottom, top))
    if bye is not None:
        boards.append((bye, None))
    return boards


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def _as_number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def standings(players: Sequence[Mapping[str, Any]],
              games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows ``{id, points, buchholz, sonneborn_berger, wins, rank}``, best first.

    Tie-breaks in order: Buchholz, Sonneborn-Berger, head-to-head (exactly two still tied),
    wins. Byes and forfeits count for points (and a bye as a win), never for the tie-breaks.
    """
    ids = _player_ids(players)
    points: dict[int, Fraction] = dict.fromkeys(ids, Fraction(0))
    wins: dict[int, int] = dict.fromkeys(ids, 0)
    met: dict[int, list[tuple[int, Fraction, Fraction]]] = {pid: [] for pid in ids}
    for game in games:
        if not isinstance(game, Mapping):
            raise PairingError("Each game is a mapping.")
        first, second = game.get("first"), game.get("second")
        if first not in points or (second is not None and second not in points):
            raise PairingError(f"A game names a player who is not in the list: {dict(game)}.")
        score = _num(game.get("score", 1 if second is None else None), "A game's score")
        if second is None:
            points[first] += score
            wins[first] += 1
            continue
        other = _num(game["second_score"], "A second score") if "second_score" in game \
            else 1 - score
        points[first] += score
        points[second] += other
        if score > other:
            wins[first] += 1
        elif other > score:
            wins[second] += 1
        if not game.get("forfeit"):
            met[first].append((second, score, other))
            met[second].append((first, other, score))
    buchholz = {p: sum((points[o] for o, _, _ in met[p]), Fraction(0)) for p in ids}
    sb: dict[int, Fraction] = {}
    for p in ids:
        total = Fraction(0)
        for o, mine, theirs in met[p]:
            if mine > theirs:
                total += points[o]
            elif mine == theirs:
                total += points[o] / 2
        sb[p] = total

    def main_key(p: int) -> tuple[Fraction, Fraction, Fraction]:
        return (points[p], buchholz[p], sb[p])

    order = sorted(ids, key=lambda p: tuple(-x for x in main_key(p)) + (p,))
    h2h: dict[int, Fraction] = dict.fromkeys(ids, Fraction(0))
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and main_key(order[j + 1]) == main_key(order[i]):
            j += 1
        if j == i + 1:
            a, b = order[i], order[j]
            h2h[a] = sum((mine - theirs for o, mine, theirs in met[a] if o == b), Fraction(0))
            h2h[b] = -h2h[a]
        i = j + 1

    def full_key(p: int) -> tuple[Fraction, ...]:
        return (-points[p], -buchholz[p], -sb[p], -h2h[p], Fraction(-wins[p]))

    order.sort(key=lambda p: full_key(p) + (Fraction(p),))
    rows = []
    for position, p in enumerate(order, start=1):
        rank = rows[-1]["rank"] if rows and full_key(order[position - 2]) == full_key(p) \
            else position
        rows.append({"id": p, "points": _as_number(points[p]),
                     "buchholz": _as_number(buchholz[p]),
                     "sonneborn_berger": _as_number(sb[p]), "wins": wins[p], "rank": rank})
    return rows


# --------------------------------------------------------------------------------------------
# Multi-seat pods
# --------------------------------------------------------------------------------------------


def pod_sizes(n: int, size: int) -> tuple[list[int], int]:
    """Pod sizes for ``n`` players in pods of ``size`` (and ``size - 1``), and how many byes."""
    if size < 2:
        raise PairingError("A pod has at least two seats.")
    if n <= 0:
        return [], 0
    pods = -(-n // size)
    short = size * pods - n
    if short <= pods:
        return [size] * (pods - short) + [size - 1] * short, 0
    full = n // size
    return [size] * full, n - full * size


def pod_points(pod: Sequence[int], ranking: Sequence[Sequence[int]]) -> dict[int, Fraction]:
    """A pod of k gives k - 1 points to its winner … 0 to the last; ties share the average."""
    k = len(pod)
    points: dict[int, Fraction] = {}
    place = 0
    for group in ranking:
        group = list(group)
        share = sum(k - 1 - (place + i) for i in range(len(group)))
        for pid in group:
            points[pid] = Fraction(share, len(group))
        place += len(group)
    for pid in pod:
        points.setdefault(pid, Fraction(0))
    return points


def _read_pods(ids: Iterable[int], games: Iterable[Mapping[str, Any]]
               ) -> tuple[dict[int, Fraction], dict[int, dict[int, int]], dict[int, int],
                          dict[int, int]]:
    points = dict.fromkeys(ids, Fraction(0))
    seats: dict[int, dict[int, int]] = {pid: defaultdict(int) for pid in points}
    byes = dict.fromkeys(points, 0)
    wins = dict.fromkeys(points, 0)
    for game in games:
        pod = list(game.get("pod") or [])
        if any(pid not in points for pid in pod):
            raise PairingError(f"A pod names a player who is not in the list: {pod}.")
        if len(pod) == 1:
            byes[pod[0]] += 1
            points[pod[0]] += _num(game.get("score", 0), "A bye's score")
            continue
        ranking = game.get("ranking") or []
        for pid, value in pod_points(pod, ranking).items():
            points[pid] += value
        if ranking and len(ranking) > 1:
            for pid in ranking[0]:
                wins[pid] += 1
        for position, pid in enumerate(pod, start=1):
            seats[pid][position] += 1
    return points, seats, byes, wins


def pods_round(players: Sequence[Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
               size: int) -> list[list[int]]:
    """One round of pods (ids in seat order) and byes ``[id]`` for a game of ``size`` seats."""
    ids = _player_ids(players)
    if isinstance(size, bool) or not isinstance(size, int) or size < 2:
        raise PairingError("A pod has at least two seats.")
    active = sorted(p["id"] for p in players if p.get("active", True))
    points, seats, byes, _ = _read_pods(ids, games)
    sizes, bye_count = pod_sizes(len(active), size)
    field_ = sorted(active, key=lambda p: (-points[p], p))
    bye_players: list[int] = []
    if bye_count:
        candidates = sorted(field_, key=lambda p: (byes[p] > 0, points[p], -p))
        bye_players = candidates[:bye_count]
        field_ = [p for p in field_ if p not in bye_players]
    pods: list[list[int]] = []
    start = 0
    for pod_size in sizes:
        pods.append(field_[start:start + pod_size])
        start += pod_size
    _even_out_seats(pods, points, seats)
    result = [_seat_order(members, seats) for members in pods]
    result.extend([p] for p in sorted(bye_players, key=lambda p: (-points[p], p)))
    return result


def _seat_cost(members: Sequence[int], seats: Mapping[int, Mapping[int, int]]) -> list[list[int]]:
    """The cost of each member in each seat: above all the seats they have had (a seat taken
    twice weighs more than two seats taken once), then their place in the score order."""
    return [[_SEAT_WEIGHT ** seats[p][s] + abs(i - s) for s in range(1, len(members) + 1)]
            for i, p in enumerate(members, start=1)]


_SEAT_WEIGHT = 1_000
_POINTS_APART_WEIGHT = 20 * _SEAT_WEIGHT


def _seat_order(members: list[int], seats: Mapping[int, Mapping[int, int]]) -> list[int]:
    """``members`` in seat order: each in the seat they have had least (one assignment)."""
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(_seat_cost(members, seats))
    ordered = [0] * len(members)
    for r, c in zip(rows, cols, strict=True):
        ordered[c] = members[r]
    return ordered


def _pod_cost(members: list[int], seats: Mapping[int, Mapping[int, int]]) -> int:
    cost = _seat_cost(members, seats)
    return sum(cost[members.index(p)][s] for s, p in enumerate(_seat_order(members, seats)))


def _uneven(members: list[int], seats: Mapping[int, Mapping[int, int]]) -> bool:
    """Whether seating ``members`` puts one of them in a seat they have had more often than
    another seat of the pod."""
    size = len(members)
    return any(seats[p][s] > min(seats[p][t] for t in range(1, size + 1))
               for s, p in enumerate(_seat_order(members, seats), start=1))


def _even_out_seats(pods: list[list[int]], points: Mapping[int, Fraction],
                    seats: Mapping[int, Mapping[int, int]]) -> None:
    """Swap players between pods (players of equal points: close scores stay together) where it
    lets the pods seat everyone in seats they have had less: a pod's members may all have sat
    in the same seat before, which seating within the pod alone cannot even out. Players of
    close points swap only to spare a seat's third time."""
    for _ in range(len(pods)):
        improved = False
        for a in [a for a, members in enumerate(pods) if _uneven(members, seats)]:
            for b in range(len(pods)):
                if b != a and _swap_if_better(pods[a], pods[b], points, seats):
                    improved = True
        if not improved:
            return


def _swap_if_better(first: list[int], second: list[int], points: Mapping[int, Fraction],
                    seats: Mapping[int, Mapping[int, int]]) -> bool:
    """Swap the one pair of players between two pods that lowers their seats' cost the most,
    if any does. Players of other points swap only to spare one of them a seat taken twice
    already (the cost of a difference in points is between a seat's second and third time)."""
    before = _pod_cost(first, seats) + _pod_cost(second, seats)
    best, best_cost = None, before
    for i, j in itertools.product(range(len(first)), range(len(second))):
        apart = abs(points[first[i]] - points[second[j]])
        first[i], second[j] = second[j], first[i]
        cost = (_pod_cost(first, seats) + _pod_cost(second, seats)
                + apart * _POINTS_APART_WEIGHT)
        first[i], second[j] = second[j], first[i]
        if cost < best_cost:
            best, best_cost = (i, j), cost
    if best is None:
        return False
    i, j = best
    first[i], second[j] = second[j], first[i]
    return True


def pods_standings(players: Sequence[Mapping[str, Any]],
                   games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Pod standings: points, then wins (first places); equal players share the rank."""
    ids = _player_ids(players)
    points, _, _, wins = _read_pods(ids, games)
    order = sorted(ids, key=lambda p: (-points[p], -wins[p], p))
    rows: list[dict[str, Any]] = []
    for position, p in enumerate(order, start=1):
        prev = order[position - 2] if position > 1 else None
        same = prev is not None and (points[prev], wins[prev]) == (points[p], wins[p])
        rows.append({"id": p, "points": _as_number(points[p]), "wins": wins[p],
                     "rank": rows[-1]["rank"] if same else position})
    return rows
