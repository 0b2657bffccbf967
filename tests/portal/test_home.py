"""The home page after log-in answers "what now?", and one click goes to the next match that
needs me."""

import pytest
from django.urls import reverse

from competitions.models import Challenge, Club, Ladder, Membership, Tournament
from games.services import match_abort, orders_submit
from tests.portal.builders import PASSWORD, duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def test_logging_in_lands_on_the_home_page(client):
    make_user("alice")
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("home")
    assert client.get(reverse("home")).status_code == 200


def test_home_lists_the_matches_waiting_for_my_move_first_then_the_rest(client):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    duel(alice, bob, title="Waiting on me")
    sealed = duel(alice, carol, title="Sheet already in")
    orders_submit(match_id=sealed.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 1}, source="web")
    finished = duel(alice, bob, title="Over and done")
    match_abort(match_id=finished.pk, by=alice, note="test")
    client.force_login(alice)
    page = client.get(reverse("home")).content.decode()
    waiting_part = page[page.index("Waiting for your move"):page.index("Invitations")]
    assert "Waiting on me" in waiting_part and "Sheet already in" not in waiting_part
    assert "1 other match of yours is waiting for someone else" in waiting_part
    assert "deadline" in waiting_part and "<time datetime=" in waiting_part
    results = page[page.index("Recent results"):]
    assert "Over and done" in results and "Aborted" in results


def test_home_shows_challenges_and_tournaments_taking_entries_in_my_clubs(client):
    from datetime import timedelta

    from django.utils import timezone

    alice, bob = make_user("alice"), make_user("bob")
    club = Club.objects.create(name="Panzer Club", slug="panzer-club", created_by=bob)
    Membership.objects.create(club=club, user=alice)
    ladder = Ladder.objects.create(club=club, game="toy-duel", name="Toy ladder")
    Challenge.objects.create(ladder=ladder, challenger=bob, challenged=alice,
                             expires_at=timezone.now() + timedelta(days=3))
    Tournament.objects.create(club=club, name="Winter cup", game="toy-duel", format="swiss")
    client.force_login(alice)
    page = client.get(reverse("home")).content.decode()
    assert "bob challenges you on the ladder Toy ladder" in page
    assert "Winter cup (Panzer Club) is taking entries" in page


def test_next_walks_through_the_matches_needing_me_and_says_when_none_does(client):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    first, second = duel(alice, bob, hours=2), duel(alice, carol, hours=5)
    client.force_login(alice)
    match_url = lambda m: reverse("games:match", args=[m.pk])  # noqa: E731
    assert client.get(reverse("next_match")).url == match_url(first)
    assert client.get(reverse("next_match"), {"after": first.pk}).url == match_url(second)
    assert client.get(reverse("next_match"), {"after": second.pk}).url == match_url(first)
    assert client.get(reverse("next_match"), {"after": "²"}).url == match_url(first)
    for match in (first, second):
        orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                      data={"number": 1}, source="web")
    response = client.get(reverse("next_match"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "No match is waiting for your move." in response.content.decode()


def test_home_needs_a_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302 and reverse("account_login") in response.url


def test_a_new_players_home_points_to_a_first_match_against_a_bot(client):
    """A new player has nothing waiting: the home offers a first match, a bot opponent chosen
    (the create form's quick preset), not "Nothing is waiting for you"."""
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    page = client.get(reverse("home")).content.decode()
    waiting_part = page[page.index("Waiting for your move"):page.index("Invitations")]
    assert "Play your first match against a bot" in waiting_part
    assert "Nothing is waiting for you" not in waiting_part
    link = reverse("games:match_create") + "?preset=quick"
    assert f'href="{link}"' in waiting_part
    form = client.get(link)
    assert form.status_code == 200 and 'value="quick"' in form.content.decode()
    # Once they play, the home says what it said before.
    sealed = duel(alice, bob, title="Sheet already in")
    orders_submit(match_id=sealed.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 1}, source="web")
    page = client.get(reverse("home")).content.decode()
    assert "Nothing is waiting for you" in page and "your first match" not in page
