"""Entering bots through the tournament page: the form is the organisers', a refusal is a 4xx
with its sentence, and the pages name the bots."""

import pytest
from django.urls import reverse

from competitions import services
from competitions.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(players):
    owner, member = players(2, "w")
    club = services.club_create(by=owner, name="Bot view club")
    services.club_join_by_token(token=club.invite_token, user=member)
    tournament = services.tournament_create(by=owner, club_id=club.pk, name="Try-out",
                                            game="toy-duel", format="round_robin",
                                            options={"target": 1})
    return owner, member, tournament


def act(client, tournament, action, **data):
    return client.post(reverse("competitions:tournament_action", args=[tournament.pk, action]),
                       data)


def page_of(client, tournament):
    return client.get(reverse("competitions:tournament", args=[tournament.pk])).content.decode()


def test_the_bot_form_is_shown_to_organisers_only(setup, client):
    owner, member, tournament = setup
    client.force_login(member)
    assert 'id="tournament-bots"' not in page_of(client, tournament)
    client.force_login(owner)
    page = page_of(client, tournament)
    assert 'id="tournament-bots"' in page and '<option value="random">' in page


def test_an_organiser_enters_and_removes_a_bot_through_the_page(setup, client):
    owner, member, tournament = setup
    client.force_login(owner)
    assert act(client, tournament, "add-bot", bot="random").status_code == 302
    assert act(client, tournament, "add-bot", bot="random").status_code == 302
    page = page_of(client, tournament)
    assert "random bot 1" in page and "random bot 2" in page
    assert 'id="bots-not-rated"' in page
    first = Entry.objects.get(tournament=tournament, bot_number=1)
    assert act(client, tournament, "remove-bot", entry=first.pk).status_code == 302
    assert list(Entry.objects.filter(tournament=tournament).values_list("bot_number", flat=True)) \
        == [2]


def test_a_member_is_refused_and_nothing_is_entered(setup, client):
    owner, member, tournament = setup
    client.force_login(member)
    response = act(client, tournament, "add-bot", bot="random")
    assert response.status_code == 403 and b"organisers" in response.content
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize("bot, status, sentence", [
    ("grandmaster", 400, "Toy Duel has no bot called"),
    ("", 400, "Toy Duel has no bot called"),
])
def test_an_unknown_bot_is_a_400_with_its_sentence(setup, client, bot, status, sentence):
    owner, member, tournament = setup
    client.force_login(owner)
    response = act(client, tournament, "add-bot", bot=bot)
    assert response.status_code == status and sentence in response.content.decode()
    assert not Entry.objects.filter(tournament=tournament).exists()


def test_no_bot_once_registration_is_closed(setup, client):
    owner, member, tournament = setup
    client.force_login(owner)
    act(client, tournament, "close")
    assert 'id="tournament-bots"' not in page_of(client, tournament)
    response = act(client, tournament, "add-bot", bot="random")
    assert response.status_code == 409 and "Registration is closed" in response.content.decode()
    response = act(client, tournament, "remove-bot", entry="nope")
    assert response.status_code == 404


def test_the_pages_of_a_running_tournament_name_its_bots(setup, client):
    owner, member, tournament = setup
    for _ in range(2):
        services.tournament_bot_enter(tournament_id=tournament.pk, by=owner, bot="random")
    services.tournament_register(tournament_id=tournament.pk, user=member)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    client.force_login(member)
    page = page_of(client, tournament)
    assert "random bot 1" in page and "random bot 2" in page and "w2" in page
    assert 'id="bots-not-rated"' in page
    cross = client.get(reverse("competitions:crosstable", args=[tournament.pk]))
    assert cross.status_code == 200 and "random bot 2" in cross.content.decode()
    client.force_login(owner)  # while it runs, the organiser may withdraw a bot
    bot = Entry.objects.get(tournament=tournament, bot_number=2)
    assert act(client, tournament, "remove-bot", entry=bot.pk).status_code == 302
    bot.refresh_from_db()
    assert bot.status == Entry.Status.WITHDRAWN
