"""The player pages (/players/<username>/) and their API: the record per game, ratings with
their graph after five rated games, reliability, current matches, clubs; private matches never
shown to others; a page kept for club members; unknown players are a 404."""

from __future__ import annotations

import re

import pytest

from competitions.services.clubs import club_create, club_join_by_token
from games.models import Seat
from games.services import match_create, seat_leave, seat_take
from portal.api.services import api_token_create
from portal.players.services import page_privacy_set
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def _duel(alice, bob, *, public=True, title=""):
    return match_create(creator=alice, game="toy-duel", options={"target": 1},
                        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
                        hours_per_phase=24, is_public=public, title=title)


def _record_row(body: str, game: str = "Toy Duel") -> list[str]:
    row = re.search(rf"<th scope=\"row\">{game}</th>(.*?)</tr>", body, re.S)
    assert row is not None, body
    return re.findall(r"<td>(\d+)</td>", row.group(1))


def test_record_counts_public_matches_for_others_and_every_match_for_the_player(
        make_user, finish):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    finish(_duel(alice, bob), 1)
    finish(_duel(alice, bob), 2)
    finish(_duel(alice, bob, public=False, title="Hidden duel"), 1)
    # played, won, drawn, lost, abandoned
    assert _record_row(client_for(carol).get("/players/alice/").content.decode()) == \
        ["2", "1", "0", "1", "0"]
    assert _record_row(client_for(None).get("/players/alice/").content.decode()) == \
        ["2", "1", "0", "1", "0"]
    own = client_for(alice).get("/players/alice/").content.decode()
    assert _record_row(own) == ["3", "2", "0", "1", "0"]
    assert _record_row(client_for(bob).get("/players/bob/").content.decode()) == \
        ["3", "1", "0", "2", "0"]


def test_a_private_match_in_play_never_shows_to_others(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    secret = _duel(alice, bob, public=False, title="Secret-duel-7f3a")
    _duel(alice, bob, title="Open-duel-2b9c")
    for viewer in (None, carol):
        body = client_for(viewer).get("/players/alice/").content.decode()
        assert "Open-duel-2b9c" in body
        assert "Secret-duel-7f3a" not in body and f"/matches/{secret.pk}/" not in body
    token = api_token_create(user=carol, name="t").token
    data = client_for(None).get("/api/v1/players/alice",
                                headers={"Authorization": f"Bearer {token}"}).json()
    assert [m["title"] for m in data["current_matches"]] == ["Open-duel-2b9c"]
    assert "Secret-duel-7f3a" in client_for(alice).get("/players/alice/").content.decode()
    assert "Secret-duel-7f3a" not in client_for(bob).get("/players/alice/").content.decode()


def test_a_match_left_counts_as_abandoned(make_user, finish):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = _duel(alice, bob)
    seat_leave(match_id=match.pk, user=bob)
    seat_take(token=Seat.objects.get(match=match, number=2).offer_token, user=carol)
    finish(match, 1)
    assert _record_row(client_for(None).get("/players/bob/").content.decode()) == \
        ["1", "0", "0", "0", "1"]
    assert _record_row(client_for(None).get("/players/carol/").content.decode()) == \
        ["1", "0", "0", "1", "0"]


def test_the_rating_shows_after_five_rated_games_with_a_graph_in_words(make_user, finish):
    alice, bob = make_user("alice"), make_user("bob")
    for _ in range(4):
        finish(_duel(alice, bob), 1)
    body = client_for(bob).get("/players/alice/").content.decode()
    assert "New player: the rating is shown after one more rated game." in body
    assert "<svg" not in body
    finish(_duel(alice, bob), 1)
    body = client_for(bob).get("/players/alice/").content.decode()
    assert "New player" not in body
    graph = re.search(r"<svg class=\"line-graph\".*?</svg>", body, re.S).group(0)
    assert 'role="img"' in graph and graph.count("<circle") == 5
    assert "over 5 rated games" in body  # the graph's words
    assert body.count("<tr><td>") >= 5  # and its table


def test_an_unknown_player_is_a_404_on_the_page_and_the_api(make_user):
    carol = make_user("carol")
    assert client_for(carol).get("/players/nobody-here/").status_code == 404
    token = api_token_create(user=carol, name="t").token
    response = client_for(None).get("/api/v1/players/nobody-here",
                                    headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 404 and "nobody-here" in response.json()["message"]
    assert client_for(None).get("/api/v1/players/" + "x" * 200,
                                headers={"Authorization": f"Bearer {token}"}).status_code == 422


def test_a_page_kept_for_club_members(make_user, moderator):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    club = club_create(by=alice, name="Tankers", is_public=False)
    club_join_by_token(token=club.invite_token, user=bob)
    page_privacy_set(user=alice, members_only=True)
    assert client_for(carol).get("/players/alice/").status_code == 403
    assert client_for(None).get("/players/alice/").status_code == 403
    for reader in (bob, moderator, alice):
        body = client_for(reader).get("/players/alice/")
        assert body.status_code == 200 and "Tankers" in body.content.decode()
    # An invite-only club is not named to others on the page when it is open again.
    page_privacy_set(user=alice, members_only=False)
    assert "Tankers" not in client_for(carol).get("/players/alice/").content.decode()


def test_the_privacy_form_saves_the_choice(make_user):
    alice = make_user("alice")
    client = client_for(alice)
    response = client.post("/accounts/page-privacy/", {"members_only": "on"})
    assert response.status_code == 302
    assert client_for(make_user("carol")).get("/players/alice/").status_code == 403
    client.post("/accounts/page-privacy/", {})
    assert client_for(make_user("dave")).get("/players/alice/").status_code == 200
    assert client_for(None).post("/accounts/page-privacy/", {}).status_code == 302  # log in


def test_the_match_page_links_its_players_to_their_pages(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = _duel(alice, bob)
    body = client_for(None).get(f"/matches/{match.pk}/").content.decode()
    assert 'href="/players/alice/"' in body and 'href="/players/bob/"' in body


def test_the_rating_graph_leaves_private_matches_out_for_others(make_user, finish):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for _ in range(5):
        finish(_duel(alice, bob), 1)
    finish(_duel(alice, bob, public=False), 2)
    own = client_for(alice).get("/players/alice/").content.decode()
    other = client_for(carol).get("/players/alice/").content.decode()
    assert own.count("<circle") == 6 and "over 6 rated games" in own
    assert other.count("<circle") == 5 and "over 5 rated games" in other
    token = api_token_create(user=carol, name="t").token
    data = client_for(None).get("/api/v1/players/alice",
                                headers={"Authorization": f"Bearer {token}"}).json()
    [rating] = data["sections"]["ratings"]
    assert rating["games"] == 6 and len(rating["history"]) == 5
