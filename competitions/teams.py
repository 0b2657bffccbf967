"""Team matches between clubs and team leagues: the pure rules (see docs/competitions.md).

A team match is played on N boards; each board is one two-seat game between a player of
each team. ``team_match`` scores one team match from its boards, ``team_standings`` orders a
league's teams from its team matches. Pure functions: no Django, no I/O, no clock, no global
random; the competitions services call them under the team match's and the league's locks.
``competitions.pairing`` re-exports both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["TeamError", "team_match", "team_standings"]

# The first team's score on one board: a win, a draw, a loss (a forfeit is a win or a loss).
BOARD_SCORES = (Fraction(1), Fraction(1, 2), Fraction(0))
MATCH_POINTS = {"win": 2, "draw": 1, "loss": 0}


class TeamError(ValueError):
    """The boards or the matches given cannot be scored (a bad argument)."""


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _board_score(value: Any, board: int) -> Fraction | None:
    """A board's score for the first team, or None: neither team fielded a player there."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise TeamError(f"Board {board}'s score must be 1, 0.5, 0 or None, not {value!r}.")
    if value not in BOARD_SCORES:  # (NaN and infinities too)
        raise TeamError(f"Board {board}'s score must be 1, 0.5, 0 or None, not {value!r}.")
    return Fraction(value)


def _board_points(boards: Sequence[Any]) -> tuple[Fraction, Fraction]:
    if isinstance(boards, str | bytes | Mapping) or not isinstance(boards, Sequence):
        raise TeamError("The boards are a list of the first team's scores, board 1 first.")
    first = second = Fraction(0)
    for board, value in enumerate(boards, start=1):
        score = _board_score(value, board)
        if score is None:  # nobody played: nothing for either team
            continue
        first += score
        second += 1 - score
    return first, second


def team_match(boards: Sequence[Any]) -> dict[str, Any]:
    """Score a team match: ``{"points": [first, second], "winner": 0 | 1 | None}``.

    ``boards`` are the first team's scores, board 1 first: 1, 0.5 or 0 (a board one team could
    not field is already a 1 or a 0 for the other, a forfeit), or None for a board neither
    team fielded, which counts 0 for both. The team with more board points wins; equal board
    points are a draw (``winner`` None).
    """
    first, second = _board_points(boards)
    winner = 0 if first > second else 1 if second > first else None
    return {"points": [_number(first), _number(second)], "winner": winner}


def _team_ids(teams: Sequence[Any]) -> list[int]:
    if isinstance(teams, str | bytes | Mapping) or not isinstance(teams, Sequence):
        raise TeamError("The teams are a list of ids.")
    ids = []
    for team in teams:
        if isinstance(team, bool) or not isinstance(team, int):
            raise TeamError(f"A team's id must be a whole number, not {team!r}.")
        ids.append(team)
    if len(set(ids)) != len(ids):
        raise TeamError("Two teams have the same id.")
    return ids


def team_standings(teams: Sequence[int],
                   matches: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A team league's table: rows ``{"id", "match_points", "board_points", "rank"}``, best
    first.

    ``matches`` are ``{"first", "second", "boards"}`` (``boards`` as ``team_match`` reads them,
    the first team's scores). A team match won gives 2 match points, drawn 1, lost 0. Order:
    match points, then board points, then, when exactly two teams are still tied, the match
    points each took from their matches against each other (with three or more still tied it
    is skipped); teams still tied share the rank (1, 2, 2, 4) and are listed by id.
    """
    ids = _team_ids(teams)
    match_points: dict[int, int] = dict.fromkeys(ids, 0)
    board_points: dict[int, Fraction] = dict.fromkeys(ids, Fraction(0))
    # (team, opponent) -> match points the team took from their team matches
    between: dict[tuple[int, int], int] = {}
    for match in matches:
        if not isinstance(match, Mapping):
            raise TeamError("Each team match is a mapping with first, second and boards.")
        first, second = match.get("first"), match.get("second")
        if first not in match_points or second not in match_points:
            raise TeamError(f"A team match names a team that is not in the list: "
                            f"{first!r} against {second!r}.")
        if first == second:
            raise TeamError(f"Team {first} cannot play itself.")
        a, b = _board_points(match.get("boards", ()))
        took = ((MATCH_POINTS["win"], MATCH_POINTS["loss"]) if a > b
                else (MATCH_POINTS["loss"], MATCH_POINTS["win"]) if b > a
                else (MATCH_POINTS["draw"], MATCH_POINTS["draw"]))
        for team, other, points, boards_won in ((first, second, took[0], a),
                                                (second, first, took[1], b)):
            match_points[team] += points
            board_points[team] += boards_won
            between[(team, other)] = between.get((team, other), 0) + points

    def main_key(team: int) -> tuple[int, Fraction]:
        return (match_points[team], board_points[team])

    order = sorted(ids, key=lambda t: (-match_points[t], -board_points[t], t))
    head_to_head: dict[int, int] = dict.fromkeys(ids, 0)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and main_key(order[end + 1]) == main_key(order[start]):
            end += 1
        if end == start + 1:  # exactly two tied: their matches against each other decide
            a, b = order[start], order[end]
            head_to_head[a], head_to_head[b] = between.get((a, b), 0), between.get((b, a), 0)
        start = end + 1

    def full_key(team: int) -> tuple[int, Fraction, int]:
        return (-match_points[team], -board_points[team], -head_to_head[team])

    order.sort(key=lambda t: (*full_key(t), t))
    rows: list[dict[str, Any]] = []
    for position, team in enumerate(order, start=1):
        same = bool(rows) and full_key(order[position - 2]) == full_key(team)
        rows.append({"id": team, "match_points": match_points[team],
                     "board_points": _number(board_points[team]),
                     "rank": rows[-1]["rank"] if same else position})
    return rows
