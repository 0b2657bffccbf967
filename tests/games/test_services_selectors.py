"""Selectors: lobby ordering and what each reader may see of the open phase."""

import pytest

from games import selectors, services
from games.models import Match
from tests.helpers import submit

pytestmark = pytest.mark.django_db


def test_matches_waiting_for_me_come_first(make_user):
    me, other = make_user("me"), make_user("other")

    def duel(**kwargs):
        return services.match_create(
            creator=me, game="toy-duel", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": me}, {"kind": "human", "user": other}], **kwargs)

    done = duel()
    services.match_abort(match_id=done.pk, by=me, note="x")
    lobby = services.match_create(creator=me, game="toy-duel", options={}, hours_per_phase=24,
                                  seats=[{"kind": "human", "user": me},
                                         {"kind": "human", "user": None}])
    submitted = duel()
    submit(submitted, me, 1, 3)
    waiting = duel()
    mine = selectors.matches_for_user(me)
    assert [m.pk for m in mine] == [waiting.pk, submitted.pk, lobby.pk, done.pk]
    assert [m.waiting_for_me for m in mine] == [True, False, False, False]
    assert all(m.my_seat.user_id == me.pk for m in mine)
    # The opponent has not submitted anywhere: both active matches wait for them.
    theirs = selectors.matches_for_user(other)
    assert {m.pk for m in theirs if m.waiting_for_me} == {waiting.pk, submitted.pk}


def test_submission_status_tells_who_not_what(toy_duel):
    match = toy_duel()
    assert selectors.phase_submission_status(match) == {1: False, 2: False}
    submit(match, match.alice, 1, 5)
    match.refresh_from_db()
    status = selectors.phase_submission_status(match)
    assert status == {1: True, 2: False}
    assert "5" not in repr(status)


def test_a_sealed_sheet_is_only_for_its_author(toy_duel, make_user):
    match = toy_duel()
    submit(match, match.alice, 1, 5)
    alice_seat = selectors.match_seat_for_user(match, match.alice)
    assert selectors.submission_for_author(match, alice_seat, match.alice).data == {"number": 5}
    assert selectors.submission_for_author(match, alice_seat, match.bob) is None
    assert selectors.submission_for_author(match, alice_seat, make_user("eve")) is None
    assert selectors.match_seat_for_user(match, make_user("spectator")) is None


def test_history_holds_resolved_phases_only(toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 5)
    assert list(selectors.match_history(match)) == []
    submit(match, match.bob, 2, 2)
    services.phase_resolve(match_id=match.pk, phase_number=1)
    history = list(selectors.match_history(match))
    assert [p.number for p in history] == [1]
    assert history[0].revealed["2"]["data"] == {"number": 2}
    match.refresh_from_db()
    assert selectors.match_open_phase(match).number == 2


def test_private_matches_are_visible_to_players_and_staff_only(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, is_public=False,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    assert selectors.match_visible_to(match, alice) and selectors.match_visible_to(match, bob)
    assert selectors.match_visible_to(match, make_user("mod", is_staff=True))
    assert not selectors.match_visible_to(match, make_user("eve"))
    assert not selectors.match_visible_to(match, None)
    assert match not in selectors.matches_open_to_join()
    assert Match.objects.get(pk=match.pk).status == "active"


def test_the_page_reads_who_is_in_and_the_authors_own_sheet_in_one_query(
        toy_duel, make_user, django_assert_num_queries):
    match = toy_duel()
    submit(match, match.alice, 1, 5)
    submit(match, match.bob, 2, 3)
    match.refresh_from_db()
    seats = list(match.seats.all())
    alice_seat, bob_seat = sorted(seats, key=lambda seat: seat.number)
    _, phase = selectors.match_page_phases(match, latest=5)
    with django_assert_num_queries(1):
        status, mine = selectors.phase_sheets(match, phase, prompted={1, 2}, seats=seats,
                                              author=alice_seat, user=match.alice)
    assert status == {1: True, 2: True}
    assert mine.seat_id == alice_seat.pk and mine.data == {"number": 5} and mine.revision == 1
    # Bob's sheet is not read at all, for anyone: not by alice, nor by him through her seat.
    _, theirs = selectors.phase_sheets(match, phase, prompted={1, 2}, seats=seats,
                                       author=alice_seat, user=match.bob)
    assert theirs is None
    _, none = selectors.phase_sheets(match, phase, prompted={1, 2}, seats=seats, author=None,
                                     user=make_user("eve"))
    assert none is None
    _, own = selectors.phase_sheets(match, phase, prompted={1, 2}, seats=seats,
                                    author=bob_seat, user=match.bob)
    assert own.data == {"number": 3}
