"""Querysets compiled once a process (games/compiled.py) read what the queryset reads."""

from __future__ import annotations

import pytest

from games import compiled, selectors
from games.models import Match, Seat
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db


def newest_first(start: int, stop: int):
    return Match.objects.order_by("-pk").only("id", "title", "created_at")[start:stop]


def seats_of(match_ids: tuple[int, ...]):
    return Seat.objects.filter(match_id__in=match_ids).order_by("pk").values_list("pk", "number")


def seats_of_taken(match_ids: tuple[int, ...]):
    return (Seat.objects.filter(match_id__in=match_ids, status=Seat.Status.TAKEN)
            .values_list("pk"))


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
        assert compiled.rows_for_ids(seats_of, chosen) == list(seats_of(tuple(chosen)))
    assert compiled.rows_for_ids(seats_of, []) == []


def test_a_query_with_other_parameters_than_the_ids_is_refused():
    with pytest.raises(ValueError, match="not just the ids"):
        compiled.rows_for_ids(seats_of_taken, [1, 2])


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
