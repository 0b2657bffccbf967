"""What the competitions add to a player's page besides ratings and clubs: the league seasons
they played (division, place, where it took them) and the team matches they were named for,
each shown only to readers who may see the league or the team match; the API gives the same."""

from __future__ import annotations

import pytest

from competitions import services
from competitions.models import DivisionPlace
from portal.api.services import api_token_create
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def league_club(owner, members, *, public=True):
    club = services.club_create(by=owner, name="Night club" if public else "Hidden club",
                                is_public=public)
    for user in members:
        services.club_join_by_token(token=club.invite_token, user=user)
    league = services.league_create(by=owner, club_id=club.pk, name="Winter league",
                                    game="toy-duel", options={"target": 1}, division_size=8,
                                    season_days=42, hours_per_phase=24)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    services.season_start(league_id=league.pk, by=owner)
    return club, league


def test_a_players_seasons_show_on_their_page_to_who_may_see_the_league(players):
    owner, alice, bob = players(3)
    stranger = players(1, "stranger")[0]
    _club, league = league_club(owner, [alice, bob], public=False)
    page = client_for(alice).get("/players/p2/").content.decode()
    assert 'id="seasons-heading"' in page and "Winter league" in page
    assert f"/leagues/{league.pk}/seasons/1/divisions/1/" in page
    assert "season under way" in page
    # A reader who may not see the invite-only club's league sees no row of it.
    assert "Winter league" not in client_for(stranger).get("/players/p2/").content.decode()
    # Once the season is over: the place and the move, in words (and in French).
    DivisionPlace.objects.filter(member__user=alice).update(rank=1, move="stay")
    assert "Stays" in client_for(alice).get("/players/p2/").content.decode()
    french = client_for(alice, HTTP_ACCEPT_LANGUAGE="fr").get("/players/p2/").content.decode()
    assert "Saisons de ligue" in french
    # The API gives the same rows, to the same readers.
    token = api_token_create(user=alice, name="t").token
    answer = client_for(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/v1/players/p2").json()
    assert answer["sections"]["seasons"] == [
        {"league": "Winter league", "league_id": league.pk, "season": 1, "division": 1,
         "status": "running", "rank": 1, "move": "stay"}]
    token = api_token_create(user=stranger, name="t").token
    answer = client_for(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/v1/players/p2").json()
    assert "seasons" not in answer["sections"]


def test_a_players_team_matches_show_on_their_page_to_who_may_see_them(players):
    owner_a, alice, owner_b, bob = players(4)
    stranger = players(1, "stranger")[0]
    club_a = services.club_create(by=owner_a, name="Alpha", is_public=False)
    services.club_join_by_token(token=club_a.invite_token, user=alice)
    club_b = services.club_create(by=owner_b, name="Bravo")
    services.club_join_by_token(token=club_b.invite_token, user=bob)
    team_match = services.team_match_challenge(
        by=owner_a, club_id=club_a.pk, opponent_id=club_b.pk, game="toy-duel", boards=1,
        options={"target": 1}, hours_per_phase=24)
    services.team_roster_set(team_match_id=team_match.pk, club_id=club_a.pk, by=owner_a,
                             players=[alice.pk])
    page = client_for(alice).get("/players/p2/").content.decode()
    assert 'id="team-matches-heading"' in page
    assert f"/team-matches/{team_match.pk}/" in page and "for Alpha on board 1" in page
    # Alpha is invite-only: a stranger does not see its team match on alice's page.
    assert f"/team-matches/{team_match.pk}/" not in client_for(stranger).get(
        "/players/p2/").content.decode()
    french = client_for(alice, HTTP_ACCEPT_LANGUAGE="fr").get("/players/p2/").content.decode()
    assert "pour Alpha au plateau 1" in french
