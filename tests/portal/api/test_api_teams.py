"""The API's team matches and team leagues (read-only): what each token's user may see, the
boards and rosters, a league's standings, and invite-only clubs' team matches hidden from
outsiders."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from competitions import services
from portal.api.services import api_token_create
from tests.portal.builders import make_user

pytestmark = pytest.mark.django_db


def api_client(user) -> Client:
    token = api_token_create(user=user, name="test").token
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def get(user, path):
    response = api_client(user).get(f"/api/v1{path}")
    return response.status_code, json.loads(response.content)


@pytest.fixture
def teams():
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    alpha = services.club_create(by=alice, name="Alpha")
    bravo = services.club_create(by=bob, name="Bravo")
    services.club_join_by_token(token=alpha.invite_token, user=carol)
    team_match = services.team_match_challenge(by=alice, club_id=alpha.pk,
                                               opponent_id=bravo.pk, game="toy-duel",
                                               boards=2)
    services.team_match_accept(team_match_id=team_match.pk, by=bob)
    services.team_roster_set(team_match_id=team_match.pk, club_id=alpha.pk, by=alice,
                             players=[carol.pk, alice.pk], by_rating=False)
    return {"alice": alice, "bob": bob, "carol": carol, "dave": dave, "alpha": alpha,
            "bravo": bravo, "team_match": team_match}


def test_a_team_match_before_and_after_its_start(teams):
    team_match = teams["team_match"]
    status, listed = get(teams["dave"], "/team-matches")
    assert status == 200 and [row["id"] for row in listed] == [team_match.pk]
    status, shown = get(teams["dave"], f"/team-matches/{team_match.pk}")
    assert status == 200
    assert (shown["status"], shown["boards"], shown["club_a"]["name"]) == ("accepted", 2,
                                                                           "Alpha")
    assert shown["rosters"] == {"a": ["carol", "alice"], "b": [None, None]}
    assert shown["board_rows"] == [] and shown["winner"] is None
    services.team_match_start(team_match_id=team_match.pk, now=team_match.starts_at)
    status, shown = get(teams["dave"], f"/team-matches/{team_match.pk}")
    # Bravo fielded nobody: both boards forfeited to Alpha, the match over.
    assert (shown["status"], shown["points_a"], shown["points_b"], shown["winner"]) == (
        "finished", 2, 0, "a")
    assert [(b["number"], b["player_a"], b["player_b"], b["seat_1"], b["unfielded"],
             b["score_a"]) for b in shown["board_rows"]] == [
        (1, "carol", None, "a", "b", 1), (2, "alice", None, "b", "b", 1)]


def test_an_invite_only_club_s_team_match_is_for_the_two_clubs_members(teams):
    hidden = services.club_create(by=teams["dave"], name="Hidden", is_public=False)
    secret = services.team_match_challenge(by=teams["dave"], club_id=hidden.pk,
                                           opponent_id=teams["alpha"].pk, game="toy-duel",
                                           boards=1)
    assert get(teams["bob"], f"/team-matches/{secret.pk}")[0] == 404
    assert secret.pk not in [row["id"] for row in get(teams["bob"], "/team-matches")[1]]
    assert get(teams["carol"], f"/team-matches/{secret.pk}")[0] == 200  # an Alpha member
    assert get(teams["dave"], f"/team-matches/{secret.pk}")[0] == 200
    assert get(teams["dave"], "/team-matches/999999")[0] == 404


def test_a_team_league_with_its_standings(teams):
    league = services.team_league_create(by=teams["alice"], club_id=teams["alpha"].pk,
                                         name="Ligue", game="toy-duel", boards=1,
                                         clubs=[teams["bravo"].pk])
    services.team_league_join(league_id=league.pk, club_id=teams["bravo"].pk, by=teams["bob"])
    services.team_league_start(league_id=league.pk, by=teams["alice"])
    status, listed = get(teams["dave"], "/team-leagues")
    assert status == 200 and [row["id"] for row in listed] == [league.pk]
    status, shown = get(teams["dave"], f"/team-leagues/{league.pk}")
    assert (shown["status"], shown["boards"], shown["host"]["name"]) == ("running", 1,
                                                                         "Alpha")
    assert {c["name"] for c in shown["clubs"]} == {"Alpha", "Bravo"}
    assert [(r["club"]["name"], r["rank"], r["match_points"], r["played"])
            for r in shown["standings"]] == [("Alpha", 1, 0, 0), ("Bravo", 1, 0, 0)]
    assert len(shown["team_match_ids"]) == 1
    assert get(teams["dave"], "/team-leagues/999999")[0] == 404


def test_the_team_endpoints_need_a_token():
    for path in ("/team-matches", "/team-matches/1", "/team-leagues", "/team-leagues/1"):
        assert Client().get(f"/api/v1{path}").status_code == 401
