"""The competitions' pages: they render, they act through the services, and bad input is a
clear 4xx (never a 500)."""

import pytest
from django.urls import reverse

from competitions import services
from competitions.models import Club, Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(players, client):
    owner, bob, carol = players(3, "v")
    club = services.club_create(by=owner, name="View club", description="We play.")
    for user in (bob, carol):
        services.club_join_by_token(token=club.invite_token, user=user)
    ladder = services.ladder_create(by=owner, club_id=club.pk, game="toy-duel",
                                    options={"target": 1}, hours_per_phase=24)
    tournament = services.tournament_create(by=owner, club_id=club.pk, name="Open",
                                            game="toy-duel", format="swiss",
                                            options={"target": 1})
    return {"owner": owner, "bob": bob, "carol": carol, "club": club, "ladder": ladder,
            "tournament": tournament}


def test_pages_render(setup, client):
    client.force_login(setup["bob"])
    club, ladder, t = setup["club"], setup["ladder"], setup["tournament"]
    for url in (reverse("competitions:clubs"), reverse("competitions:club", args=[club.slug]),
                reverse("competitions:ladder", args=[ladder.pk]),
                reverse("competitions:ladder_player", args=[ladder.pk, setup["bob"].pk]),
                reverse("competitions:tournament", args=[t.pk]),
                reverse("competitions:crosstable", args=[t.pk]),
                reverse("competitions:club_create")):
        response = client.get(url)
        assert response.status_code == 200, url
    listing = client.get(reverse("competitions:clubs")).content
    assert b"View club" in listing
    site = services.site_ladder(game="toy-duel")
    assert site.name.encode() in client.get(reverse("competitions:clubs")).content


def test_register_and_withdraw_through_the_page(setup, client):
    client.force_login(setup["bob"])
    t = setup["tournament"]
    response = client.post(reverse("competitions:tournament_action", args=[t.pk, "register"]))
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=t, user=setup["bob"]).exists()
    again = client.post(reverse("competitions:tournament_action", args=[t.pk, "register"]))
    assert again.status_code == 400 and b"already registered" in again.content
    client.post(reverse("competitions:tournament_action", args=[t.pk, "withdraw"]))
    assert not Entry.objects.filter(tournament=t, user=setup["bob"]).exists()


def test_organiser_actions_are_refused_to_members(setup, client):
    client.force_login(setup["bob"])
    t = setup["tournament"]
    response = client.post(reverse("competitions:tournament_action", args=[t.pk, "start"]))
    assert response.status_code == 403
    response = client.post(reverse("competitions:tournament_action", args=[t.pk, "explode"]))
    assert response.status_code == 404
    response = client.post(reverse("competitions:club_invite", args=[setup["club"].slug]),
                           {"email": "x@y.test"})
    assert response.status_code == 403
    response = client.get(reverse("competitions:tournament_create",
                                  args=[setup["club"].slug]))
    assert response.status_code == 403  # a form they could not send
    response = client.post(reverse("competitions:tournament_create",
                                   args=[setup["club"].slug]),
                           {"name": "Mine", "game": "toy-duel", "format": "swiss",
                            "cycles": 1, "round_hours": 10, "hours_per_phase": 5,
                            "adjudication": "draw", "bye_score": 1})
    assert response.status_code == 403
    assert not Tournament.objects.filter(name="Mine").exists()


@pytest.mark.parametrize("data", [
    {},
    {"name": "X", "game": "no-such-game", "format": "swiss", "cycles": 1, "round_hours": 1,
     "hours_per_phase": 1, "adjudication": "draw", "bye_score": 1},
    {"name": "X", "game": "toy-duel", "format": "swiss", "cycles": 7, "round_hours": -1,
     "hours_per_phase": 1, "adjudication": "draw", "bye_score": 3},
    {"name": "X", "game": "toy-duel", "format": "pods", "cycles": 1, "round_hours": 1,
     "hours_per_phase": 1, "adjudication": "draw", "bye_score": 1, "seats_per_match": 3},
])
def test_a_bad_tournament_form_is_a_400_and_writes_nothing(setup, client, data):
    client.force_login(setup["owner"])
    before = Tournament.objects.count()
    response = client.post(reverse("competitions:tournament_create",
                                   args=[setup["club"].slug]), data)
    assert response.status_code == 400
    assert Tournament.objects.count() == before


def test_organiser_creates_a_tournament_and_starts_it(setup, client):
    client.force_login(setup["owner"])
    response = client.post(reverse("competitions:tournament_create",
                                   args=[setup["club"].slug]),
                           {"name": "Knockout", "game": "toy-duel", "format": "single_elim",
                            "cycles": 1, "round_hours": 10, "hours_per_phase": 5,
                            "adjudication": "draw", "bye_score": 1, "fixed_deadlines": "on"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Knockout")
    assert t.fixed_deadlines
    page = client.get(reverse("competitions:tournament", args=[t.pk])).content.decode()
    assert 'id="fixed-deadlines"' in page
    for user in (setup["bob"], setup["carol"]):
        services.tournament_register(tournament_id=t.pk, user=user)
    response = client.post(reverse("competitions:tournament_action", args=[t.pk, "start"]))
    assert response.status_code == 302
    page = client.get(reverse("competitions:bracket", args=[t.pk]))
    assert page.status_code == 200 and b"v2" in page.content
    assert client.get(reverse("competitions:bracket",
                              args=[setup["tournament"].pk])).status_code == 404


def test_clubs_flow_through_the_pages(setup, client, make_user):
    dave = make_user("dave")
    client.force_login(dave)
    club = setup["club"]
    assert client.post(reverse("competitions:club_request", args=[club.slug])).status_code == 302
    request = club.join_requests.get(user=dave)
    client.force_login(setup["owner"])
    bad = client.post(reverse("competitions:club_request_decide", args=[club.slug, request.pk]),
                      {"decision": "maybe"})
    assert bad.status_code == 400
    ok = client.post(reverse("competitions:club_request_decide", args=[club.slug, request.pk]),
                     {"decision": "approve"})
    assert ok.status_code == 302 and club.memberships.filter(user=dave).exists()
    assert client.post(reverse("competitions:club_request_decide",
                               args=[club.slug, 99999]), {"decision": "approve"}
                       ).status_code == 404
    bad_mail = client.post(reverse("competitions:club_invite", args=[club.slug]),
                           {"email": "nope"})
    assert bad_mail.status_code == 400
    removed = client.post(reverse("competitions:club_member", args=[club.slug, dave.pk]),
                          {"action": "remove"})
    assert removed.status_code == 302 and not club.memberships.filter(user=dave).exists()
    assert client.post(reverse("competitions:club_member", args=[club.slug, dave.pk]),
                       {"action": "remove"}).status_code == 404


def test_invite_only_clubs_are_invisible_to_outsiders_and_join_by_link(setup, client,
                                                                       make_user):
    owner = setup["owner"]
    secret = services.club_create(by=owner, name="Secret", is_public=False)
    eve = make_user("eve")
    client.force_login(eve)
    assert client.get(reverse("competitions:club", args=[secret.slug])).status_code == 404
    assert client.post(reverse("competitions:club_join", args=["bogus"])).status_code == 403
    link = reverse("competitions:club_join", args=[secret.invite_token])
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 302
    assert client.get(reverse("competitions:club", args=[secret.slug])).status_code == 200
    client.logout()
    assert client.get(link).status_code == 302  # log in first


def test_challenges_through_the_pages(setup, client):
    ladder = setup["ladder"]
    client.force_login(setup["bob"])
    url = reverse("competitions:challenge_create", args=[ladder.pk])
    assert client.post(url, {"opponent": "nobody"}).status_code == 400
    assert client.post(url, {"opponent": "v2"}).status_code == 400  # yourself
    assert client.post(url, {"opponent": "v3"}).status_code == 302
    challenge = ladder.challenges.get()
    answer = reverse("competitions:challenge_answer", args=[challenge.pk])
    assert client.post(answer, {"answer": "accept"}).status_code == 403  # not the challenged
    client.force_login(setup["carol"])
    assert client.post(answer, {"answer": "hmm"}).status_code == 400
    response = client.post(answer, {"answer": "accept"})
    assert response.status_code == 302
    challenge.refresh_from_db()
    assert response["Location"] == reverse("games:match", args=[challenge.match_id])
    assert client.post(answer, {"answer": "accept"}).status_code == 409
    assert client.get(reverse("competitions:ladder", args=[999999])).status_code == 404


def test_founding_a_club_through_the_page(client, make_user):
    client.force_login(make_user("founder"))
    assert client.post(reverse("competitions:club_create"), {"name": ""}).status_code == 400
    response = client.post(reverse("competitions:club_create"),
                           {"name": "New Club", "is_public": "on"})
    assert response.status_code == 302
    assert Club.objects.get(slug="new-club").is_public
    assert client.post(reverse("competitions:club_create"),
                       {"name": "New Club"}).status_code == 400


def test_members_see_open_club_matches_with_their_invitation_link(setup, client, make_user):
    from competitions.models import ClubMatch

    match = services.club_match_create(club_id=setup["club"].pk, by=setup["owner"],
                                       game="toy-duel", options={},
                                       players=[setup["owner"], None], hours_per_phase=24)
    assert ClubMatch.objects.filter(match=match).exists() and match.status == "open"
    url = reverse("competitions:club", args=[setup["club"].slug])
    client.force_login(setup["bob"])
    assert reverse("games:invite", args=[match.invite_token]).encode() in client.get(url).content
    client.force_login(make_user("stranger"))
    assert match.invite_token.encode() not in client.get(url).content
    client.force_login(setup["owner"])
    response = client.post(reverse("competitions:club_match_create", args=[setup["club"].slug]),
                           {"game": "toy-duel", "players": "v1, nobody", "seats": "2"})
    assert response.status_code == 400
    response = client.post(reverse("competitions:club_match_create", args=[setup["club"].slug]),
                           {"game": "toy-duel", "players": "v1,v2"})
    assert response.status_code == 302


def test_a_removed_member_is_refused_by_the_old_link_until_let_back_in(setup, client):
    club, owner, bob = setup["club"], setup["owner"], setup["bob"]
    link = reverse("competitions:club_join", args=[club.invite_token])
    client.force_login(owner)
    removed = client.post(reverse("competitions:club_member", args=[club.slug, bob.pk]),
                          {"action": "remove"}, follow=True)
    assert b"cannot join again until you let them back in" in removed.content
    assert b"Removed members" in removed.content and b"Let them back in" in removed.content
    client.force_login(bob)
    refused = client.post(link)
    assert refused.status_code == 403 and b"removed you from the club" in refused.content
    assert not club.memberships.filter(user=bob).exists()
    lift = reverse("competitions:club_removal_lift", args=[club.slug, bob.pk])
    assert client.post(lift).status_code == 403  # not an organiser (nor a member now)
    client.force_login(owner)
    assert client.post(lift).status_code == 302
    assert client.post(lift).status_code == 404  # nothing to lift any more
    client.force_login(bob)
    assert client.post(link).status_code == 302
    assert club.memberships.filter(user=bob).exists()


def test_an_organiser_resets_the_invitation_link_and_the_old_one_stops_at_once(
        setup, client, make_user):
    club, owner = setup["club"], setup["owner"]
    old = club.invite_token
    reset = reverse("competitions:club_invite_link_reset", args=[club.slug])
    client.force_login(setup["bob"])
    assert client.post(reset).status_code == 403
    club.refresh_from_db()
    assert club.invite_token == old
    client.force_login(owner)
    page = client.get(reverse("competitions:club", args=[club.slug]))
    assert b"Reset the invitation link" in page.content
    answer = client.post(reset, follow=True)
    assert b"the old one no longer works" in answer.content
    club.refresh_from_db()
    assert club.invite_token != old and club.invite_token.encode() in answer.content
    client.force_login(make_user("newcomer"))
    refused = client.post(reverse("competitions:club_join", args=[old]))
    assert refused.status_code == 403 and b"does not work (any more)" in refused.content
    assert client.post(reverse("competitions:club_join",
                               args=[club.invite_token])).status_code == 302


HUGE = "1000000000000"


def test_a_club_match_is_refused_to_non_organisers_before_its_seats_are_read(setup, client,
                                                                             make_user):
    from games.models import Match

    club = setup["club"]
    url = reverse("competitions:club_match_create", args=[club.slug])
    for user in (setup["bob"], make_user("outsider")):  # a member, and a stranger (public club)
        client.force_login(user)
        response = client.post(url, {"game": "toy-duel", "players": "", "seats": HUGE})
        assert response.status_code == 403
        assert b"Only the club&#x27;s owner and organisers" in response.content
    assert not Match.objects.exists()


@pytest.mark.parametrize(("data", "says"), [
    ({"game": "toy-duel", "seats": HUGE}, b"Toy Duel is played by 2 seats, not 1000000000000."),
    ({"game": "toy-duel", "seats": "3"}, b"Toy Duel is played by 2 seats, not 3."),
    ({"game": "toy-duel", "seats": "-1"}, b"Seats: Ensure this value is greater than"),
    ({"game": "toy-duel", "seats": "two"}, b"Seats: Enter a whole number."),
    ({"game": "toy-duel", "players": ",".join(["v1"] * 600)},
     b"Toy Duel is played by 2 seats, not 600."),
    ({"game": "toy-duel", "players": ",".join(["v1"] * 5000)},
     b"Players: Ensure this value has at most 2000 characters"),
    ({"game": "toy-duel", "players": "v1,v2,v3", "seats": "2"},
     b"You named 3 players for 2 seats."),
    ({"game": "toy-duel", "players": "v1,ghost", "seats": "2"}, b"There is no player ghost."),
    ({"game": "no-such-game", "seats": "2"}, b"Game: Select a valid choice."),
])
def test_an_organisers_club_match_counts_are_capped_by_the_game_with_a_clear_400(
        setup, client, data, says):
    from games.models import Match

    client.force_login(setup["owner"])
    response = client.post(reverse("competitions:club_match_create",
                                   args=[setup["club"].slug]), data)
    assert response.status_code == 400
    assert says in response.content
    assert not Match.objects.exists()


def test_an_organiser_leaves_club_match_seats_open_for_members(setup, client):
    from games.models import Match

    client.force_login(setup["owner"])
    response = client.post(reverse("competitions:club_match_create", args=[setup["club"].slug]),
                           {"game": "toy-duel", "players": "v1", "seats": "2"})
    assert response.status_code == 302
    match = Match.objects.get()
    assert [seat.user for seat in match.seats.order_by("number")] == [setup["owner"], None]


def test_tournament_and_ladder_forms_are_refused_to_non_organisers_before_they_are_read(
        setup, client):
    client.force_login(setup["bob"])
    club = setup["club"]
    assert client.get(reverse("competitions:tournament_create",
                              args=[club.slug])).status_code == 403
    response = client.post(reverse("competitions:tournament_create", args=[club.slug]),
                           {"name": "X", "max_players": HUGE})
    assert response.status_code == 403
    response = client.post(reverse("competitions:ladder_create", args=[club.slug]),
                           {"game": "toy-duel", "challenge_days": HUGE})
    assert response.status_code == 403
