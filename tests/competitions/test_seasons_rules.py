"""The leagues' pure rules, one test per rule of "Seasons and divisions": the first season's
divisions by rating, promotion and relegation with ``season_next``, ``adjudicate``."""

import random

import pytest

from competitions.pairing import PairingError, adjudicate, divisions_first, season_next
from competitions.seasons import division_pods


def rated(ratings):
    """Players with ids 1.. and these ratings."""
    return [{"id": i, "rating": r} for i, r in enumerate(ratings, start=1)]


def results(divisions, *, ranks=None, ratings=None, forfeits=(), left=()):
    """One row per player: rank by place in its division's list unless ``ranks`` says."""
    ranks, ratings = ranks or {}, ratings or {}
    rows = []
    for number, division in enumerate(divisions, start=1):
        for place, pid in enumerate(division, start=1):
            rows.append({"id": pid, "division": number, "rank": ranks.get(pid, place),
                         "rating": ratings.get(pid, 0), "forfeits": dict(forfeits).get(pid, 0),
                         "left": pid in left})
    return rows


def rules(size=4, move="quarter", relegate_forfeits=None, newcomers=()):
    return {"size": size, "move": move, "relegate_forfeits": relegate_forfeits,
            "newcomers": list(newcomers)}


# --- divisions_first --------------------------------------------------------------------------


def test_first_divisions_are_as_equal_as_possible_the_higher_never_smaller():
    divisions = divisions_first(rated([100 - i for i in range(10)]), 4)
    assert [len(d) for d in divisions] == [4, 3, 3]
    assert divisions == [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]]


def test_first_divisions_of_thirty_in_eights():
    divisions = divisions_first(rated([float(i) for i in range(30)]), 8)
    assert [len(d) for d in divisions] == [8, 8, 7, 7]
    assert divisions[0] == [30, 29, 28, 27, 26, 25, 24, 23]  # the best rating first


def test_first_divisions_fill_by_rating_and_equal_ratings_go_by_lower_id():
    players = [{"id": 7, "rating": 5}, {"id": 3, "rating": 5}, {"id": 9, "rating": 8},
               {"id": 1, "rating": 1}]
    assert divisions_first(players, 2) == [[9, 3], [7, 1]]


def test_first_divisions_when_the_count_divides():
    assert [len(d) for d in divisions_first(rated(range(12)), 4)] == [4, 4, 4]


def test_first_divisions_of_one_player_and_of_nobody():
    assert divisions_first(rated([1500]), 8) == [[1]]
    assert divisions_first([], 8) == []


def test_first_divisions_refuse_a_bad_size_or_player():
    with pytest.raises(PairingError):
        divisions_first(rated([1, 2]), 0)
    with pytest.raises(PairingError):
        divisions_first([{"id": 1, "rating": 1}, {"id": 1, "rating": 2}], 4)
    with pytest.raises(PairingError):
        divisions_first([{"id": 1, "rating": "high"}], 4)


# --- season_next ------------------------------------------------------------------------------


def test_a_quarter_of_each_division_goes_up_and_down():
    divisions = [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16]]
    new = season_next(divisions, results(divisions), rules(size=8))
    # q = ceil(8 / 4) = 2: 7 and 8 down, 9 and 10 up.
    assert new == [[1, 2, 3, 4, 5, 6, 9, 10], [7, 8, 11, 12, 13, 14, 15, 16]]


def test_the_quarter_is_rounded_up():
    divisions = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    new = season_next(divisions, results(divisions), rules(size=5))
    assert new == [[1, 2, 3, 6, 7], [4, 5, 8, 9, 10]]  # ceil(5 / 4) = 2


def test_none_goes_up_from_the_first_nor_down_from_the_last():
    divisions = [[1, 2, 3, 4]]
    assert season_next(divisions, results(divisions), rules()) == [[1, 2, 3, 4]]


def test_move_as_a_number():
    divisions = [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    new = season_next(divisions, results(divisions), rules(size=6, move=1))
    assert new == [[1, 2, 3, 4, 5, 7], [6, 8, 9, 10, 11, 12]]
    assert season_next(divisions, results(divisions), rules(size=6, move=0)) == divisions


def test_move_is_capped_at_half_the_division():
    divisions = [[1, 2, 3], [4, 5, 6]]
    new = season_next(divisions, results(divisions), rules(size=3, move=5))
    assert new == [[1, 2, 4], [3, 5, 6]]  # 3 // 2 = 1 each way


def test_move_counts_the_leavers_in_the_division_size():
    divisions = [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16]]
    new = season_next(divisions, results(divisions, left={16, 15, 14, 13}), rules(size=8))
    assert new == [[1, 2, 3, 4, 5, 6, 9, 10], [7, 8, 11, 12]]  # q stays 2


def test_move_refuses_other_values():
    divisions = [[1, 2], [3, 4]]
    for move in ("half", -1, 1.5, True):
        with pytest.raises(PairingError):
            season_next(divisions, results(divisions), rules(move=move))


def test_ties_at_the_edge_are_broken_by_rating_then_id():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    # Division 1: 3 and 4 share the last rank; 3 has the higher rating, so 4 goes down.
    # Division 2: 5 and 6 share rank 1 with equal ratings; the lower id (5) goes up.
    rows = results(divisions, ranks={3: 3, 4: 3, 5: 1, 6: 1, 7: 3, 8: 4},
                   ratings={3: 20, 4: 10, 5: 7, 6: 7})
    assert season_next(divisions, rows, rules()) == [[1, 2, 3, 5], [4, 6, 7, 8]]


def test_rank_decides_before_rating():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    rows = results(divisions, ranks={8: 1, 5: 4}, ratings={5: 99})
    assert season_next(divisions, rows, rules())[0][-1] == 8


def test_leavers_are_removed_and_take_no_place():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    # 4 (last of division 1) leaves: the worst who stayed (3) goes down in their place.
    # 5 (best of division 2) leaves: the best who stayed (6) goes up.
    new = season_next(divisions, results(divisions, left={4, 5}), rules())
    assert new == [[1, 2, 6], [3, 7, 8]]


def test_forfeiters_at_the_limit_go_down_besides_the_quarter():
    divisions = [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16],
                 [17, 18, 19, 20]]
    rows = results(divisions, forfeits={1: 3, 10: 2})
    new = season_next(divisions, rows, rules(size=8, relegate_forfeits=3))
    # Division 1: 7, 8 (the worst two) and 1 (forfeits) down; division 2: 9, 10 up (10 is
    # under the limit), 15, 16 down; division 3: 17 up.
    assert new[0] == [2, 3, 4, 5, 6, 9, 10]
    assert new[1] == [1, 7, 8, 11, 12, 13, 14, 17]
    assert new[2] == [15, 16, 18, 19, 20]


def test_a_forfeiter_never_goes_up_and_the_next_best_does():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    rows = results(divisions, forfeits={5: 4})
    new = season_next(divisions, rows, rules(relegate_forfeits=4))
    assert new == [[1, 2, 3, 6], [4, 5, 7, 8]]


def test_a_forfeiter_in_the_first_division_goes_down():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    new = season_next(divisions, results(divisions, forfeits={1: 2}),
                      rules(relegate_forfeits=2))
    assert new == [[2, 3, 5], [1, 4, 6, 7, 8]]


def test_a_forfeiter_in_the_last_division_stays_there():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    new = season_next(divisions, results(divisions, forfeits={8: 5, 5: 5}),
                      rules(relegate_forfeits=2))
    assert new == [[1, 2, 3, 6], [4, 5, 7, 8]]


def test_forfeits_count_only_with_a_limit():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    new = season_next(divisions, results(divisions, forfeits={1: 40, 5: 40}), rules())
    assert new == [[1, 2, 3, 5], [4, 6, 7, 8]]


def test_newcomers_join_the_last_division_by_rating_then_id():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    newcomers = [{"id": 30, "rating": 5}, {"id": 20, "rating": 9}, {"id": 10, "rating": 5}]
    new = season_next(divisions, results(divisions), rules(newcomers=newcomers))
    assert new == [[1, 2, 3, 5], [4, 6, 7, 8, 20, 10, 30]]


def test_newcomers_alone_make_the_first_division():
    new = season_next([], [], rules(newcomers=[{"id": 1, "rating": 1}, {"id": 2, "rating": 2}]))
    assert new == [[2, 1]]


def test_a_newcomer_already_placed_is_refused():
    divisions = [[1, 2]]
    with pytest.raises(PairingError):
        season_next(divisions, results(divisions), rules(newcomers=[{"id": 2, "rating": 0}]))


def test_each_new_division_lists_down_then_stayed_then_up_then_newcomers():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    rows = results(divisions, ranks={3: 4, 4: 3, 7: 1, 5: 3, 10: 1, 9: 2})
    new = season_next(divisions, rows, rules(newcomers=[{"id": 50, "rating": 0}]))
    assert new == [[1, 2, 4, 7],  # stayed by merit, then 7 up from division 2
                   [3, 6, 5, 10],  # 3 down, 6 and 5 stayed (rank 2, 3), 10 up
                   [8, 9, 11, 12, 50]]


def test_an_empty_division_is_dropped():
    divisions = [[1, 2], [3, 4], [5, 6]]
    new = season_next(divisions, results(divisions, left={3, 4}), rules(size=2))
    # Division 2's players left: nobody comes up from it; 2 comes down into it, 5 up.
    assert new == [[1], [2, 5], [6]]
    gone = [[1, 2], [3], [4, 5]]
    rows = results(gone, left={3})
    assert season_next(gone, rows, rules(size=2, move=0)) == [[1, 2], [4, 5]]


def test_one_player_divisions():
    divisions = [[1], [2], [3]]
    assert season_next(divisions, results(divisions), rules(size=1)) == divisions  # 1 // 2 = 0


def test_an_overfull_last_division_is_split():
    divisions = [[1, 2, 3, 4]]
    newcomers = [{"id": i, "rating": 100 - i} for i in range(5, 15)]
    new = season_next(divisions, results(divisions), rules(size=4, newcomers=newcomers))
    # 14 players > 2 x 4: the first 4 stay, the rest (10 > 8) split again: 4 and 6.
    assert new == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12, 13, 14]]
    exactly_twice = season_next(divisions, results(divisions),
                                rules(size=4, newcomers=newcomers[:4]))
    assert exactly_twice == [[1, 2, 3, 4, 5, 6, 7, 8]]  # 8 is not more than 2 x 4


def test_up_places_are_filled_first_when_leavers_leave_too_few():
    divisions = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    new = season_next(divisions, results(divisions, left={6, 7, 8}), rules())
    # Only 5 is left in division 2: best and worst at once, 5 goes up.
    assert new == [[1, 2, 3, 5], [4, 9], [10, 11, 12]]


def test_a_player_without_a_result_or_in_two_divisions_is_refused():
    with pytest.raises(PairingError):
        season_next([[1, 2]], results([[1]]), rules())
    with pytest.raises(PairingError):
        season_next([[1, 2], [2, 3]], results([[1, 2], [3]]), rules())
    with pytest.raises(PairingError):
        season_next([[1, 2]], results([[1, 2]]), rules(relegate_forfeits=0))


def test_season_next_is_deterministic_and_keeps_everyone_who_stays():
    chance = random.Random(44)
    for _ in range(50):
        ids = list(range(1, chance.randint(1, 40) + 1))
        size = chance.randint(2, 9)
        divisions = divisions_first([{"id": i, "rating": chance.randint(0, 9)} for i in ids],
                                    size)
        ranks = {pid: chance.randint(1, len(d)) for d in divisions for pid in d}
        left = {pid for pid in ids if chance.random() < 0.1}
        forfeits = {pid: chance.randint(0, 3) for pid in ids}
        rows = results(divisions, ranks=ranks, forfeits=forfeits, left=left)
        newcomers = [{"id": 100 + i, "rating": chance.randint(0, 9)}
                     for i in range(chance.randint(0, 5))]
        spec = rules(size=size, move=chance.choice(["quarter", 1, 2]),
                     relegate_forfeits=chance.choice([None, 2, 3]), newcomers=newcomers)
        first = season_next(divisions, rows, spec)
        assert first == season_next(divisions, list(reversed(rows)), spec)
        everyone = sorted(pid for d in first for pid in d)
        assert everyone == sorted([pid for pid in ids if pid not in left]
                                  + [n["id"] for n in newcomers])
        assert all(first) and len(first[-1]) <= 2 * size or len(first) == 0
        old = {pid: n for n, d in enumerate(divisions) for pid in d}
        new = {pid: n for n, d in enumerate(first) for pid in d}
        assert all(abs(new[pid] - old[pid]) <= 1 for pid in old if pid in new
                   and len(first) >= len(divisions))


# --- adjudicate -------------------------------------------------------------------------------


def test_adjudicate_puts_the_seat_that_used_most_time_last():
    assert adjudicate({1: 3600.0, 2: 7200.0}) == [[1], [2]]
    assert adjudicate({1: 9000, 2: 10}) == [[2], [1]]


def test_adjudicate_shares_a_place_for_equal_time():
    assert adjudicate({1: 50, 2: 50}) == [[1, 2]]
    assert adjudicate({3: 10, 1: 99, 2: 10, 4: 99}) == [[2, 3], [1, 4]]


def test_adjudicate_of_one_seat_and_of_none():
    assert adjudicate({1: 0}) == [[1]]
    assert adjudicate({}) == []


def test_adjudicate_refuses_bad_times():
    with pytest.raises(PairingError):
        adjudicate({1: -1, 2: 0})
    with pytest.raises(PairingError):
        adjudicate({"1": 5})


# --- a division's pods ------------------------------------------------------------------------


def test_division_pods_seat_everyone_once_a_round_and_mix_the_pods():
    schedule = division_pods(list(range(1, 8)), 3)
    assert len(schedule) == 3  # ceil(6 / 2)
    for pods in schedule:
        assert sorted(pid for pod in pods for pid in pod) == list(range(1, 8))
        assert sorted(len(pod) for pod in pods) == [2, 2, 3]
    met = {frozenset(pod) for pods in schedule for pod in pods}
    assert len(met) == 9  # no pod is played twice
    assert division_pods([1], 3) == []


def test_season_moves_say_where_each_player_goes():
    from competitions.pairing import season_moves

    divisions = [[1, 2, 3, 4], [5, 6, 7, 8]]
    moves = season_moves(divisions, results(divisions, left={2}, forfeits={1: 3}),
                         rules(relegate_forfeits=3))
    assert moves == {1: "down", 2: "left", 3: "stay", 4: "down", 5: "up", 6: "stay",
                     7: "stay", 8: "stay"}


def test_division_pods_give_the_byes_in_turn_from_the_bottom():
    schedule = division_pods([1, 2, 3, 4, 5], 4)  # 5 cannot be split into pods of 4 and 3
    assert [[pod for pod in pods if len(pod) == 1] for pods in schedule] == [[[5]], [[4]]]
    assert all(sorted(len(pod) for pod in pods) == [1, 4] for pods in schedule)
