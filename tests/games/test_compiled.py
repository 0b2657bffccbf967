"""Querysets compiled once a process (games/compiled.py) read what the queryset reads."""

from __future__ import annotations

import pytest

from games import compiled, selectors
from games.models import Match, Seat
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db


def newest_first(start: int, stop: int):
    return Match.objects.order_by("-pk").only("id", "title", "created_at")[start:stop]


def seats_of(*match_ids: int):
    return Seat.objects.filter(match_id__in=match_ids).order_by("pk").values_list("pk", "number")


def taken_seat(match_id: int, number: int):
    return (Seat.objects.filter(match_id=match_id, number=number, status=Seat.Status.TAKEN)
            .values_list("pk", "joined_at"))


def match_by_id(match_id: int):
    return Match.objects.filter(pk=match_id)


def seats_numbered(match_id: int, number: int):
    return Seat.objects.filter(match_id=match_id, number=number * 2).values_list("pk")


def matches_limited(count: int):
    return Match.objects.order_by("pk").values_list("pk")[:count]


def test_a_kept_query_reads_what_the_queryset_reads_each_time():
    alice = make_user("alice")
    first = [duel(alice, title=f"Table {n}") for n in range(3)]
    made = compiled.models(Match, newest_first, 0, 2)
    assert [(m.pk, m.title, m.created_at) for m in made] == [
        (m.pk, m.title, m.created_at) for m in newest_first(0, 2)]
    later = duel(alice, title="Later")  # the same SQL, sent again: the new row is read
    assert [m.title for m in compiled.models(Match, newest_first, 0, 2)] == ["Later", "Table 2"]
    assert [m.title for m in compiled.models(Match, newest_first, 1, 3)] == ["Table 2", "Table 1"]
    ids = [first[0].pk, later.pk]
    for chosen in (ids, ids[::-1], [later.pk]):  # other ids, the same number: the same SQL
        assert [tuple(row) for row in compiled.rows(seats_of, *chosen)] == list(
            seats_of(*chosen))
    # Each integer in its place among the query's other parameters; dates converted.
    for match in (first[0], later):
        assert [tuple(row) for row in compiled.rows(taken_seat, match.pk, 1)] == list(
            taken_seat(match.pk, 1))
        assert compiled.rows(taken_seat, match.pk, 2) == []
        made = compiled.instances(Match, match_by_id, match.pk)
        assert [(m.pk, m.title, m.state, m.created_at, m.options) for m in made] == [
            (match.pk, match.title, match.state, match.created_at, match.options)]
        assert not made[0]._state.adding and made[0]._state.db == "default"
    assert compiled.instances(Match, match_by_id, 10**9) == []
    with pytest.raises(ValueError, match="64-bit"):
        compiled.rows(taken_seat, 2**63, 1)


@pytest.mark.parametrize("build", [seats_numbered, matches_limited])
def test_a_query_that_does_not_take_its_integers_as_parameters_is_refused(build):
    arguments = (1, 2) if build is seats_numbered else (3,)
    with pytest.raises(ValueError, match="not only the query's parameters"):
        compiled.rows(build, *arguments)


def test_the_lobby_lists_match_their_querysets():
    alice, bob = make_user("alice"), make_user("bob")
    duel(alice, title="Waiting")
    duel(alice, bob, title="Playing")
    waiting, playing = selectors.lobby_page(0, 26)
    assert [m.title for m in waiting] == [m.title for m in selectors.lobby_open()[:26]]
    assert [m.title for m in playing] == [m.title for m in selectors.lobby_running()[:26]]
    players, open_seats = selectors.lobby_seats([m.pk for m in waiting + playing])
    assert open_seats == {waiting[0].pk: 1}
    assert [p.name for p in players[playing[0].pk]] == ["alice", "bob"]
    assert players[waiting[0].pk][0].badge == "new"


def test_a_matchs_seats_come_with_their_players_as_select_related_leaves_them(
        django_assert_num_queries):
    alice = make_user("alice")
    match = duel(alice, title="Half full")
    expected = list(match.seats.select_related("user"))
    with django_assert_num_queries(1):
        seats = selectors.match_seats(match)
        assert [(s.pk, s.number, s.status, s.user_id) for s in seats] == [
            (s.pk, s.number, s.status, s.user_id) for s in expected]
        assert seats[0].user == alice and seats[0].user.get_username() == "alice"
        assert seats[1].user is None and seats[0].match is match
