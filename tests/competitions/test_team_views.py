"""The team match and team league pages: what each role sees and may do (an outsider, a member,
the organisers of each club, a moderator), the forms acting through the services, bad input a
clear 4xx, invite-only clubs' team matches hidden from outsiders, and the pages in French."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions import services
from competitions.models import TeamLeague, TeamLeagueClub, TeamMatch, TeamPlayer
from portal.accounts.services import profile_update
from tests.french import english_in, text_of, typography_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(players, moderator):
    owner_a, owner_b, member_a, member_b, extra_a, outsider = players(6, "tv")
    alpha = services.club_create(by=owner_a, name="Alpha")
    bravo = services.club_create(by=owner_b, name="Bravo")
    for user, club in ((member_a, alpha), (extra_a, alpha), (member_b, bravo)):
        services.club_join_by_token(token=club.invite_token, user=user)
    return {"owner_a": owner_a, "owner_b": owner_b, "member_a": member_a,
            "member_b": member_b, "extra_a": extra_a, "outsider": outsider,
            "moderator": moderator, "alpha": alpha, "bravo": bravo}


def challenge(world, boards=2):
    return services.team_match_challenge(by=world["owner_a"], club_id=world["alpha"].pk,
                                         opponent_id=world["bravo"].pk, game="toy-duel",
                                         boards=boards, options={"target": 1})


def page_of(team_match):
    return reverse("competitions:team_match", args=[team_match.pk])


def test_an_organiser_challenges_through_the_form(world, client):
    url = reverse("competitions:team_match_create", args=[world["alpha"].slug])
    client.force_login(world["owner_a"])
    form = client.get(url)
    assert form.status_code == 200 and b"Bravo" in form.content
    response = client.post(url, {"opponent": world["bravo"].pk, "game": "toy-duel",
                                 "boards": 3, "hours_per_phase": 48})
    team_match = TeamMatch.objects.get()
    assert response.status_code == 302 and response["Location"] == page_of(team_match)
    assert (team_match.club_b, team_match.boards, team_match.status) == (world["bravo"], 3,
                                                                         "proposed")
    club_page = client.get(reverse("competitions:club", args=[world["bravo"].slug]))
    assert page_of(team_match).encode() in club_page.content


@pytest.mark.parametrize(("data", "says"), [
    ({"opponent": "", "game": "toy-duel", "boards": 3, "hours_per_phase": 48}, b"required"),
    ({"opponent": "999999", "game": "toy-duel", "boards": 3, "hours_per_phase": 48},
     b"from the list"),
    ({"opponent": "BRAVO", "game": "toy-duel", "boards": 3, "hours_per_phase": 48},
     b"whole number"),
    ({"opponent": "ME", "game": "toy-duel", "boards": 0, "hours_per_phase": 48},
     b"greater than or equal to 1"),
    ({"opponent": "ME", "game": "toy-duel", "boards": 2, "hours_per_phase": 48,
      "starts_at": "2001-01-01 10:00"}, b"in the future"),
])
def test_a_bad_challenge_form_says_what_is_wrong(world, client, data, says):
    client.force_login(world["owner_a"])
    if data["opponent"] == "ME":
        data = {**data, "opponent": world["bravo"].pk}
    response = client.post(reverse("competitions:team_match_create",
                                   args=[world["alpha"].slug]), data)
    assert response.status_code == 400 and says in response.content
    assert not TeamMatch.objects.exists()


@pytest.mark.parametrize("who", ["member_a", "owner_b", "outsider"])
def test_only_the_club_s_organisers_reach_the_challenge_form(world, client, who):
    client.force_login(world[who])
    url = reverse("competitions:team_match_create", args=[world["alpha"].slug])
    assert client.get(url).status_code == 403
    response = client.post(url, {"opponent": world["bravo"].pk, "game": "toy-duel",
                                 "boards": 3, "hours_per_phase": 48})
    assert response.status_code == 403 and not TeamMatch.objects.exists()


def test_each_role_sees_the_actions_it_may_take(world, client):
    team_match = challenge(world)
    services.team_roster_set(team_match_id=team_match.pk, club_id=world["alpha"].pk,
                             by=world["owner_a"], players=[world["member_a"].pk],
                             alternates=[world["extra_a"].pk])
    seen = {}
    for who in ("outsider", "member_a", "owner_a", "owner_b", "moderator", None):
        client.logout()
        if who:
            client.force_login(world[who])
        response = client.get(page_of(team_match))
        assert response.status_code == 200, who
        seen[who] = response.content.decode()
    for who, text in seen.items():
        assert world["member_a"].username in text  # the roster, for everyone
        assert ("Accept the challenge" in text) == (who in ("owner_b", "moderator")), who
        assert ("Withdraw the challenge" in text) == (who == "owner_a"), who
        assert (f'id="board-{world["alpha"].pk}-1"' in text) == (who in ("owner_a",
                                                                          "moderator")), who
        assert (f'id="board-{world["bravo"].pk}-1"' in text) == (who in ("owner_b",
                                                                          "moderator")), who


def test_captains_name_a_roster_swap_an_alternate_accept_and_start_through_the_pages(
        world, client):
    team_match = challenge(world, boards=1)
    client.force_login(world["owner_a"])
    roster = reverse("competitions:team_match_roster", args=[team_match.pk])
    response = client.post(roster, {"club": world["alpha"].pk,
                                    "board-1": world["member_a"].pk,
                                    "alternates": [world["extra_a"].pk], "order": "given"})
    assert response.status_code == 302
    assert TeamPlayer.objects.get(team_match=team_match, board=1).user == world["member_a"]
    response = client.post(reverse("competitions:team_match_swap", args=[team_match.pk]),
                           {"club": world["alpha"].pk, "board": "1",
                            "alternate": world["extra_a"].pk})
    assert response.status_code == 302
    assert TeamPlayer.objects.get(team_match=team_match, board=1).user == world["extra_a"]
    # Bravo's captain may not touch Alpha's roster.
    client.force_login(world["owner_b"])
    refused = client.post(roster, {"club": world["alpha"].pk,
                                   "board-1": world["owner_b"].pk})
    assert refused.status_code == 403
    answer = reverse("competitions:team_match_answer", args=[team_match.pk])
    assert client.post(answer, {"answer": "maybe"}).status_code == 400
    assert client.post(answer, {"answer": "accept"}).status_code == 302
    client.post(roster, {"club": world["bravo"].pk, "board-1": world["member_b"].pk})
    assert client.post(reverse("competitions:team_match_start",
                               args=[team_match.pk])).status_code == 302
    team_match.refresh_from_db()
    assert team_match.status == "playing"
    page = client.get(page_of(team_match)).content.decode()
    assert 'id="team-boards"' in page and world["extra_a"].username in page
    # Too late for a swap: a clear 409.
    client.force_login(world["owner_a"])
    late = client.post(reverse("competitions:team_match_swap", args=[team_match.pk]),
                       {"club": world["alpha"].pk, "board": "1",
                        "alternate": world["member_a"].pk})
    assert late.status_code == 409 and b"has started" in late.content


@pytest.mark.parametrize("data", [
    {"club": "x", "board-1": "1"},
    {"club": "", "board-1": "1"},
    {"club": "ALPHA", "board-1": "not a player"},
    {"club": "ALPHA", "board-1": "", "board-2": "MEMBER", "order": "given"},
    {"club": "ALPHA", "board-1": "MEMBER", "alternates": ["MEMBER"]},
    {"club": "ALPHA", "board-1": "99999999"},
])
def test_a_bad_roster_form_is_a_4xx_with_a_reason(world, client, data):
    team_match = challenge(world)
    client.force_login(world["owner_a"])
    swap = {"ALPHA": str(world["alpha"].pk), "MEMBER": str(world["member_a"].pk)}
    data = {key: ([swap.get(v, v) for v in value] if isinstance(value, list)
                  else swap.get(value, value)) for key, value in data.items()}
    response = client.post(reverse("competitions:team_match_roster", args=[team_match.pk]),
                           data)
    assert 400 <= response.status_code < 500
    assert not TeamPlayer.objects.exists()


def test_an_invite_only_club_s_team_match_is_hidden_from_outsiders(world, client, players):
    hidden_owner = players(1, "hidden")[0]
    hidden = services.club_create(by=hidden_owner, name="Hidden", is_public=False)
    team_match = services.team_match_challenge(
        by=hidden_owner, club_id=hidden.pk, opponent_id=world["alpha"].pk, game="toy-duel",
        boards=1)
    client.force_login(world["outsider"])
    assert client.get(page_of(team_match)).status_code == 404
    client.force_login(world["member_a"])  # a member of the challenged club sees it
    assert client.get(page_of(team_match)).status_code == 200
    client.logout()
    assert client.get(page_of(team_match)).status_code == 404


def test_a_team_league_through_the_pages(world, client):
    client.force_login(world["owner_a"])
    url = reverse("competitions:team_league_create", args=[world["alpha"].slug])
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Spring league", "game": "toy-duel", "boards": 2,
                                 "cycles": 1, "round_days": 7, "hours_per_phase": 48,
                                 "clubs": [world["bravo"].pk]})
    league = TeamLeague.objects.get()
    page = reverse("competitions:team_league", args=[league.pk])
    assert response.status_code == 302 and response["Location"] == page
    # Nobody else has joined: the start is refused with the reason.
    start = reverse("competitions:team_league_action", args=[league.pk, "start"])
    refused = client.post(start)
    assert refused.status_code == 400 and b"two clubs" in refused.content
    client.force_login(world["owner_b"])
    text = client.get(page).content.decode()
    assert "Bravo plays in this league" in text and "Start the team league" not in text
    join = reverse("competitions:team_league_action", args=[league.pk, "join"])
    assert client.post(join, {"club": world["bravo"].pk}).status_code == 302
    assert TeamLeagueClub.objects.get(league=league, club=world["bravo"]).joined_at
    assert client.post(start).status_code == 403
    client.force_login(world["owner_a"])
    assert client.post(start).status_code == 302
    text = client.get(page).content.decode()
    assert 'id="team-standings"' in text and "Round 1" in text
    assert client.post(reverse("competitions:team_league_action",
                               args=[league.pk, "dance"])).status_code == 404
    for club in ("alpha", "bravo"):
        assert page.encode() in client.get(
            reverse("competitions:club", args=[world[club].slug])).content


def test_the_team_pages_are_in_french(world, client):
    team_match = challenge(world)
    services.team_roster_set(team_match_id=team_match.pk, club_id=world["alpha"].pk,
                             by=world["owner_a"], players=[world["member_a"].pk],
                             alternates=[world["extra_a"].pk])
    league = services.team_league_create(by=world["owner_a"], club_id=world["alpha"].pk,
                                         name="Ligue", game="toy-duel", boards=2,
                                         clubs=[world["bravo"].pk])
    names = [world[k].username for k in ("owner_a", "owner_b", "member_a", "member_b",
                                         "extra_a")] + ["Alpha", "Bravo", "Ligue", "Toy Duel"]
    for who in ("owner_a", "owner_b", "outsider"):
        profile_update(user=world[who], language="fr")
        client.force_login(world[who])
        for url in (page_of(team_match), reverse("competitions:team_league", args=[league.pk]),
                    reverse("competitions:team_match_create", args=[world["alpha"].slug]),
                    reverse("competitions:team_league_create", args=[world["alpha"].slug]),
                    reverse("competitions:club", args=[world["alpha"].slug])):
            response = client.get(url)
            if response.status_code == 403:
                continue
            html = response.content.decode()
            assert response.status_code == 200 and '<html lang="fr">' in html, url
            main = text_of(html[html.index("<main"):html.index("</main>")])
            english = english_in(main, names=names)
            assert not english, (who, url, english)
            assert not typography_in(main, names=names), (who, url)
