"""Clubs explain ladders and tournaments in plain words, for an organiser who never ran one."""

import html

import pytest
from django.urls import reverse

from competitions import services
from competitions.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(players):
    owner, member = players(2, "x")
    club = services.club_create(by=owner, name="Plain club")
    services.club_join_by_token(token=club.invite_token, user=member)
    return club, owner, member


def text_of(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_club_page_says_what_a_ladder_and_a_tournament_are(club, client):
    club_, owner, member = club
    client.force_login(member)
    page = text_of(client.get(reverse("competitions:club", args=[club_.slug])))
    assert 'id="club-explained"' in page
    assert "A ladder is a standing ranking" in page
    assert "A tournament is a fixed event" in page
    assert "enter the game's bots" not in page  # the organisers' hint is theirs
    client.force_login(owner)
    page = text_of(client.get(reverse("competitions:club", args=[club_.slug])))
    assert "enter the game's bots" in page
    # The ladder form (organisers) says what a ladder is and what its numbers mean.
    assert "any member may challenge any other at any time" in page
    assert "Hours per turn" in page and "A challenge nobody accepted by then lapses." in page


def test_the_tournament_form_explains_each_format_in_a_sentence(club, client):
    club_, owner, member = club
    client.force_login(owner)
    page = text_of(client.get(reverse("competitions:tournament_create", args=[club_.slug])))
    assert 'id="tournament-explained"' in page and "A tournament is a fixed event" in page
    for _value, label in Tournament.Format.choices:
        assert f"{label}: " in page, label
    assert "Swiss: each round pairs players with equal scores" in page
    assert "one sits a round out" in page  # the bye, in words


def test_the_ladder_says_what_its_numbers_mean_and_offers_the_members_to_challenge(club,
                                                                                  client):
    club_, owner, member = club
    ladder = services.ladder_create(by=owner, club_id=club_.pk, game="toy-duel", name="Duels")
    client.force_login(member)
    page = text_of(client.get(reverse("competitions:ladder", args=[ladder.pk])))
    assert 'id="rating-help"' in page and "σ how unsure it still is" in page
    assert '<abbr title="estimated skill">μ</abbr>' in page
    # A challenge picks its opponent among the club's members (or types one).
    picks = page[page.index('<datalist id="ladder-opponents">'):page.index("</datalist>")]
    assert f'<option value="{owner.username}">' in picks
    assert f'value="{member.username}"' not in picks  # not oneself
    assert 'list="ladder-opponents"' in page


def test_the_standings_say_what_buchholz_and_s_b_are(club, client):
    club_, owner, member = club
    tournament = services.tournament_create(by=owner, name="Swiss cup", game="toy-duel",
                                            format="swiss", club_id=club_.pk)
    client.force_login(member)
    page = text_of(client.get(reverse("competitions:tournament", args=[tournament.pk])))
    assert 'id="tie-breaks-help"' in page
    assert "Buchholz (the sum of their opponents' points" in page
    assert '<abbr title="Sonneborn-Berger: the points of the opponents you beat' in page
