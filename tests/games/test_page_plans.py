"""The lobby and "my matches" read no more rows than they show, however many finished matches
the site holds: their queries' plans on PostgreSQL, with 20,000 finished matches (half of them
one player's) and their statistics gathered, as autovacuum would."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import selectors
from games.models import Match, Seat
from games.views.lobby import LOBBY_SIZE
from tests.portal.builders import duel, make_user

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

FINISHED = 20_000
CROWD = 200  # current matches alice and bob have no seat in


def plan(queryset) -> str:
    text = queryset.explain(analyze=True)
    print(text)  # shown by pytest when a test fails
    return text


def rows_read(text: str) -> int:
    """The most rows any node of an EXPLAIN ANALYZE plan produced or filtered out."""
    produced = [int(n) for n in re.findall(r"actual time=\S+ rows=(\d+)", text)]
    removed = [int(n) for n in re.findall(r"Rows Removed by (?:Filter|Join Filter): (\d+)",
                                          text)]
    return max(produced + removed)


@pytest.fixture
def crowded():
    """20,000 finished matches, the later made the more recently finished (alice in every
    other one, bob in three), 30 waiting for players and 30 in play, and 200 more waiting
    (carol's)."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    now = timezone.now()
    made = Match.objects.bulk_create(
        Match(game="toy-duel", title=f"Old {n}", status=Match.Status.FINISHED,
              invite_token=f"old-{n}", finished_at=now - timedelta(minutes=FINISHED - n))
        for n in range(FINISHED))
    seats = []
    for n, match in enumerate(made):
        first = alice if n % 2 == 0 else (bob if n in (1, 3, 5) else carol)
        seats += [Seat(match=match, number=1, user=first, status=Seat.Status.TAKEN),
                  Seat(match=match, number=2, user=None, bot="random",
                       status=Seat.Status.TAKEN)]
    Seat.objects.bulk_create(seats)
    for n in range(30):
        duel(carol, None, title=f"Waiting {n}")
        duel(carol, alice if n % 2 else bob, title=f"Playing {n}")
    # Many more current matches on the site than alice has (the planner must still look up
    # the current matches' seats, not read all of hers).
    crowd = Match.objects.bulk_create(
        Match(game="toy-duel", title=f"Crowd {n}", status=Match.Status.OPEN, is_public=True,
              invite_token=f"crowd-{n}") for n in range(CROWD))
    Seat.objects.bulk_create(
        seat for match in crowd for seat in (
            Seat(match=match, number=1, user=carol, status=Seat.Status.TAKEN),
            Seat(match=match, number=2, user=None, status=Seat.Status.OPEN)))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_match; ANALYZE games_seat")
    return alice, bob


@pytest.mark.long
@pytest.mark.skipif(connection.vendor != "postgresql", reason="plans are PostgreSQL's")
def test_the_lobby_and_my_matches_read_a_page_not_the_history(crowded):
    alice, bob = crowded
    shown = selectors.lobby_page(0, LOBBY_SIZE + 1)
    waiting, playing = selectors.lobby_lists(0, LOBBY_SIZE + 1)
    # (the statements as they are sent: compiled once, the seats' ids as one array)
    for name, text in (("waiting", waiting.explain()), ("playing", playing.explain()),
                       ("their seats", selectors.LOBBY_SEATS.explain(
                           ids=[match.pk for match in shown[0] + shown[1]]))):
        print(text)  # shown by pytest when a test fails
        assert "Seq Scan on games_match" not in text, name
        assert "Seq Scan on games_seat" not in text, name
        assert rows_read(text) <= 200, (name, text)
    current = Match.objects.filter(status__in=[Match.Status.OPEN, Match.Status.ACTIVE]).count()
    for user in (alice, bob):
        # The current seats are looked up from the site's current matches (by index), never
        # from all of the player's seats: at most a row per current match.
        text = plan(selectors.current_seats(user))
        assert "Seq Scan" not in text and rows_read(text) <= current, text
        assert "match_current" in text
        text = plan(selectors.finished_seats(user)[:selectors.FINISHED_PAGE + 1])
        assert "Seq Scan" not in text and rows_read(text) <= 200, text
        later = selectors.finished_seats(user).values_list("pk", flat=True)[:1000]
        text = plan(selectors.finished_seats(user, before=list(later)[-1])[
            :selectors.FINISHED_PAGE + 1])
        assert "Seq Scan" not in text and rows_read(text) <= 200, text
    # And the pages themselves show a page: the newest finished first, then the next ones.
    first = selectors.matches_finished_for_user(alice)
    assert len(first) == selectors.FINISHED_PAGE
    newest = FINISHED - 2  # alice's last finished match (she plays the even ones)
    assert first[0].title == f"Old {newest}" and first[1].title == f"Old {newest - 2}"
    following = selectors.matches_finished_for_user(alice, before=first[-1].my_seat.pk)
    assert following[0].title == f"Old {newest - 2 * selectors.FINISHED_PAGE}"
