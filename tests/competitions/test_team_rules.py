"""The pure rules of team matches and team leagues, one test per rule of their specification:
``team_match`` (board points, the winner, unfielded boards) and ``team_standings`` (2/1/0 match
points, board points, the head-to-head only between exactly two, shared ranks)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competitions.pairing import team_match, team_standings
from competitions.teams import TeamError

# --- team_match --------------------------------------------------------------------------


def test_board_points_are_summed_for_the_first_team_and_the_rest_go_to_the_second():
    assert team_match([1, 0, 1]) == {"points": [2, 1], "winner": 0}
    assert team_match([0, 0, 1]) == {"points": [1, 2], "winner": 1}


def test_a_drawn_board_gives_half_a_point_to_each_team():
    assert team_match([0.5, 1, 0.5]) == {"points": [2, 1], "winner": 0}
    assert team_match([0.5]) == {"points": [0.5, 0.5], "winner": None}


def test_equal_board_points_are_a_draw():
    assert team_match([1, 0]) == {"points": [1, 1], "winner": None}
    assert team_match([1, 0.5, 0]) == {"points": [1.5, 1.5], "winner": None}


def test_a_board_neither_team_fielded_counts_nothing_for_either():
    assert team_match([None, 1, 0.5]) == {"points": [1.5, 0.5], "winner": 0}
    assert team_match([1, None, 0]) == {"points": [1, 1], "winner": None}


def test_a_match_with_every_board_unfielded_is_a_nil_draw():
    assert team_match([None, None, None]) == {"points": [0, 0], "winner": None}


def test_a_board_one_team_did_not_field_is_a_forfeit_won_by_the_other():
    # The first team had no player on board 3: the caller scores it 0 (a 1 for the second).
    assert team_match([1, 0.5, 0]) == {"points": [1.5, 1.5], "winner": None}
    # The second team had no player on boards 2 and 3: two forfeits won by the first.
    assert team_match([0, 1, 1]) == {"points": [2, 1], "winner": 0}


def test_the_second_team_wins_with_more_board_points_whatever_the_board_order():
    assert team_match([1, 0, 0, 0.5]) == {"points": [1.5, 2.5], "winner": 1}


def test_points_are_whole_numbers_when_whole_and_halves_otherwise():
    result = team_match([0.5, 0.5, 1, 0])
    assert result == {"points": [2, 2], "winner": None}
    assert all(isinstance(p, int) for p in result["points"])
    assert team_match([0.5, 1])["points"] == [1.5, 0.5]


def test_exact_fractions_are_read_like_their_floats():
    assert team_match([Fraction(1, 2), 1]) == team_match([0.5, 1])


@pytest.mark.parametrize("bad", [[2], [-1], [0.25], [True], ["1"], [float("nan")],
                                 [float("inf")]])
def test_a_board_score_other_than_one_half_zero_or_none_is_refused(bad):
    with pytest.raises(TeamError, match="Board 1"):
        team_match(bad)


@pytest.mark.parametrize("bad", ["101", {"1": 1}, 3, None])
def test_boards_that_are_not_a_list_are_refused(bad):
    with pytest.raises(TeamError, match="list"):
        team_match(bad)


@given(st.lists(st.sampled_from([1, 0.5, 0, None]), max_size=12))
def test_the_two_teams_share_one_point_per_fielded_board(boards):
    result = team_match(boards)
    assert sum(result["points"]) == sum(1 for b in boards if b is not None)
    a, b = result["points"]
    assert result["winner"] == (0 if a > b else 1 if b > a else None)
    # Seen from the other side, the same match: points swapped, the winner the other team.
    mirror = team_match([None if b is None else 1 - b for b in boards])
    assert mirror["points"] == [b, a]
    assert mirror["winner"] == (None if result["winner"] is None else 1 - result["winner"])


# --- team_standings ----------------------------------------------------------------------


def row(team, match_points, board_points, rank):
    return {"id": team, "match_points": match_points, "board_points": board_points,
            "rank": rank}


def test_a_win_gives_two_match_points_a_draw_one_a_loss_none():
    rows = team_standings([1, 2, 3], [
        {"first": 1, "second": 2, "boards": [1, 1, 0]},      # 1 beats 2
        {"first": 2, "second": 3, "boards": [1, 0, 0.5]},    # 2 and 3 draw
    ])
    assert {r["id"]: r["match_points"] for r in rows} == {1: 2, 2: 1, 3: 1}


def test_board_points_add_up_every_board_won_by_either_side():
    rows = team_standings([1, 2], [
        {"first": 1, "second": 2, "boards": [1, 0.5, 0]},
        {"first": 2, "second": 1, "boards": [1, 1, None]},
    ])
    assert {r["id"]: r["board_points"] for r in rows} == {1: 1.5, 2: 3.5}


def test_teams_are_ordered_by_match_points_before_board_points():
    rows = team_standings([1, 2, 3], [
        {"first": 1, "second": 2, "boards": [1, 0, 1, 0, 1]},   # 1 wins 3-2
        {"first": 3, "second": 2, "boards": [0, 0, 0, 0, 0]},   # 2 wins 5-0
        {"first": 1, "second": 3, "boards": [1, 0.5, 0, 0.5, 0.5]},  # a draw, 2.5-2.5
    ])
    # 1: win + draw = 3 match points, 5.5 board points; 2: loss + win = 2, 7 board points.
    assert rows == [row(1, 3, 5.5, 1), row(2, 2, 7, 2), row(3, 1, 2.5, 3)]


def test_equal_match_points_are_separated_by_board_points():
    rows = team_standings([1, 2, 3, 4], [
        {"first": 1, "second": 3, "boards": [1, 1, 1, 1]},
        {"first": 2, "second": 4, "boards": [1, 1, 1, 0]},
    ])
    assert [(r["id"], r["rank"]) for r in rows] == [(1, 1), (2, 2), (4, 3), (3, 4)]


def test_the_head_to_head_puts_the_winner_of_the_two_first_even_with_the_higher_id():
    # 3 and 1 both: one win, one loss, 2 board points... 3 beat 1.
    rows = team_standings([1, 2, 3, 4], [
        {"first": 1, "second": 3, "boards": [0, 0.5]},   # 3 wins 1.5-0.5
        {"first": 1, "second": 4, "boards": [1, 0.5]},   # 1 wins 1.5-0.5
        {"first": 3, "second": 2, "boards": [0.5, 0]},   # 2 wins 1.5-0.5
        {"first": 2, "second": 4, "boards": [1, 1]},     # 2 wins 2-0
    ])
    # 2: 4 mp, 3.5 bp; 1 and 3: 2 mp, 2 bp each; 4: 0 mp, 0.5 bp.
    assert rows == [row(2, 4, 3.5, 1), row(3, 2, 2, 2), row(1, 2, 2, 3), row(4, 0, 0.5, 4)]


def test_two_teams_tied_who_drew_each_other_share_the_rank():
    rows = team_standings([5, 7], [{"first": 7, "second": 5, "boards": [1, 0]}])
    assert rows == [row(5, 1, 1, 1), row(7, 1, 1, 1)]


def test_two_teams_tied_who_never_met_share_the_rank():
    rows = team_standings([1, 2, 3, 4], [
        {"first": 1, "second": 3, "boards": [1, 0.5]},
        {"first": 2, "second": 4, "boards": [1, 0.5]},
    ])
    assert rows == [row(1, 2, 1.5, 1), row(2, 2, 1.5, 1), row(3, 0, 0.5, 3),
                    row(4, 0, 0.5, 3)]


def test_two_tied_teams_that_met_twice_count_both_meetings():
    # Two draws between them: level between them too, so they share the rank.
    rows = team_standings([1, 2], [
        {"first": 1, "second": 2, "boards": [1, 0]},
        {"first": 2, "second": 1, "boards": [1, 0]},
    ])
    assert [r["rank"] for r in rows] == [1, 1]
    # 1 won their first meeting and drew the second: 3 match points to 1 between them.
    rows = team_standings([1, 2, 3], [
        {"first": 1, "second": 2, "boards": [1, 0.5]},      # 1 wins 1.5-0.5
        {"first": 2, "second": 1, "boards": [1, 0]},        # draw 1-1
        {"first": 2, "second": 3, "boards": [1, 1]},        # 2 wins 2-0
        {"first": 1, "second": 3, "boards": [1, 0, 0]},     # 3 wins 2-1
    ])
    # 1: 2+1+0 = 3 match points, 1.5+1+1 = 3.5 board points; 2: 0+1+2 = 3, 0.5+1+2 = 3.5.
    assert rows == [row(1, 3, 3.5, 1), row(2, 3, 3.5, 2), row(3, 2, 2, 3)]


def test_with_three_tied_the_head_to_head_is_skipped_and_they_share_the_rank():
    # A cycle: 1 beats 2, 2 beats 3, 3 beats 1, each 2-1 on three boards.
    rows = team_standings([3, 1, 2], [
        {"first": 1, "second": 2, "boards": [1, 1, 0]},
        {"first": 2, "second": 3, "boards": [1, 1, 0]},
        {"first": 3, "second": 1, "boards": [1, 1, 0]},
    ])
    assert rows == [row(1, 2, 3, 1), row(2, 2, 3, 1), row(3, 2, 3, 1)]


def test_three_tied_are_not_split_even_when_one_beat_both_others():
    # 1 beat 2 and 3 but lost to 4; 2 and 3 beat 4 and 5: three teams on 4 match points and
    # 3.5 board points. The head-to-head is for two only: the three share the rank.
    rows = team_standings([1, 2, 3, 4, 5], [
        {"first": 1, "second": 2, "boards": [1, 0.5]},
        {"first": 1, "second": 3, "boards": [1, 0.5]},
        {"first": 4, "second": 1, "boards": [1, 0.5]},
        {"first": 2, "second": 4, "boards": [1, 0.5]},
        {"first": 2, "second": 5, "boards": [1, 0.5]},
        {"first": 3, "second": 4, "boards": [1, 0.5]},
        {"first": 3, "second": 5, "boards": [1, 0.5]},
    ])
    assert rows == [row(1, 4, 3.5, 1), row(2, 4, 3.5, 1), row(3, 4, 3.5, 1),
                    row(4, 2, 2.5, 4), row(5, 0, 1, 5)]


def test_ranks_are_shared_positions_like_the_standings_ones():
    rows = team_standings([1, 2, 3, 4, 5], [
        {"first": 1, "second": 5, "boards": [1, 1]},
        {"first": 2, "second": 4, "boards": [1, 1]},
        {"first": 3, "second": 5, "boards": [1, 0.5]},
    ])
    # 1 and 2: 2 mp, 2 bp (never met: shared 1); 3: 2 mp, 1.5 bp; 4: 0 mp, 0 bp;
    # 5: 0 mp, 0.5 bp.
    assert [(r["id"], r["rank"]) for r in rows] == [(1, 1), (2, 1), (3, 3), (5, 4), (4, 5)]


def test_teams_without_a_match_are_listed_with_nothing():
    assert team_standings([4, 2], []) == [row(2, 0, 0, 1), row(4, 0, 0, 1)]
    assert team_standings([], []) == []


def test_unfielded_boards_count_in_the_standings_as_in_the_match():
    rows = team_standings([1, 2], [{"first": 1, "second": 2, "boards": [None, 0, 1]}])
    assert rows == [row(1, 1, 1, 1), row(2, 1, 1, 1)]


@pytest.mark.parametrize(("teams", "matches", "message"), [
    ([1, 1], [], "same id"),
    (["a"], [], "whole number"),
    ([True], [], "whole number"),
    ("12", [], "list of ids"),
    ([1, 2], [{"first": 1, "second": 3, "boards": [1]}], "not in the list"),
    ([1, 2], [{"first": 1, "second": 1, "boards": [1]}], "cannot play itself"),
    ([1, 2], [{"first": 1, "second": 2, "boards": [3]}], "Board 1"),
    ([1, 2], ["1-2"], "mapping"),
])
def test_bad_input_is_refused_with_what_is_wrong(teams, matches, message):
    with pytest.raises(TeamError, match=message):
        team_standings(teams, matches)


@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5),
                          st.lists(st.sampled_from([1, 0.5, 0, None]), min_size=1,
                                   max_size=4)), max_size=10))
def test_standings_properties(games):
    matches = [{"first": a, "second": b, "boards": boards} for a, b, boards in games if a != b]
    rows = team_standings([1, 2, 3, 4, 5], matches)
    assert sorted(r["id"] for r in rows) == [1, 2, 3, 4, 5]
    # Every team match hands out 2 match points in all.
    assert sum(r["match_points"] for r in rows) == 2 * len(matches)
    # Ordered by match points then board points; ranks are positions, shared only by equals.
    keys = [(-r["match_points"], -r["board_points"]) for r in rows]
    assert keys == sorted(keys)
    for position, (before, after) in enumerate(itertools.pairwise(rows), start=2):
        if after["rank"] == before["rank"]:
            assert (after["match_points"], after["board_points"]) == (
                before["match_points"], before["board_points"])
            assert after["id"] > before["id"]
        else:
            assert after["rank"] == position
    assert rows[0]["rank"] == 1
