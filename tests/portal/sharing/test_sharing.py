"""A public match shared away from the site (portal.sharing, portal.feeds.atom): its embed for
other sites' frames, its link preview's picture and tags, and the Atom feeds of a match, a club
and a tournament. A private match, club or tournament has none of them (404)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from django.core.cache import cache
from django.urls import reverse
from PIL import Image

from competitions.services.clubs import club_create, club_join_by_token
from competitions.services.tournaments import (
    tournament_create,
    tournament_register,
    tournament_start,
)
from tests.french import english_in
from tests.helpers import client_for, play_round
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


def embed_url(match) -> str:
    return reverse("sharing:embed", args=[match.pk])


def test_the_embed_shows_the_board_and_the_last_phase_without_the_site_around_it(players):
    alice, bob = players
    match = duel(alice, bob, title="Framed duel")
    play_round(match, {1: 3, 2: 1})
    response = client_for().get(embed_url(match))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Framed duel" in body
    assert "Last: Phase 1" in body  # the last phase, told in words
    assert 'class="site-header"' not in body and "<form" not in body and "<script" not in body
    assert '<base target="_blank">' in body


def test_any_site_may_frame_a_public_match_s_embed_and_no_other_page(players):
    alice, bob = players
    match = duel(alice, bob)
    embed = client_for().get(embed_url(match))
    assert "X-Frame-Options" not in embed.headers
    assert "frame-ancestors *" in embed["Content-Security-Policy"]
    page = client_for().get(reverse("games:match", args=[match.pk]))
    assert page["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]


def test_a_private_match_has_no_embed_preview_or_feed_even_for_its_players(players):
    alice, bob = players
    match = duel(alice, bob, is_public=False)
    for url in (embed_url(match), reverse("sharing:preview_image", args=[match.pk]),
                reverse("feeds:match", args=[match.pk])):
        for who in (None, alice):
            response = client_for(who).get(url)
            assert response.status_code == 404, (url, who)
            # The 404 keeps the clickjacking protection.
            assert response["X-Frame-Options"] == "DENY"


def test_a_private_match_page_previews_as_the_site_only(players):
    alice, bob = players
    match = duel(alice, bob, is_public=False, title="Secret duel")
    body = client_for(alice).get(reverse("games:match", args=[match.pk])).content.decode()
    head = body.split("</head>")[0]
    assert '<meta property="og:title" content="Tank Portal">' in head
    assert "Secret duel" not in head.split("<title>")[0]  # no tag names the match
    assert "og:image" not in head and "application/atom+xml" not in head
    assert 'id="embed-snippet"' not in body


def test_a_public_match_page_has_its_preview_tags_its_feed_and_the_embed_snippet(players):
    alice, bob = players
    match = duel(alice, bob, title="Open duel")
    body = client_for().get(reverse("games:match", args=[match.pk])).content.decode()
    image = f"http://testserver{reverse('sharing:preview_image', args=[match.pk])}"
    assert '<meta property="og:title" content="Open duel">' in body
    assert f'<meta property="og:image" content="{image}">' in body
    assert '<meta name="twitter:card" content="summary_large_image">' in body
    assert (f'<link rel="alternate" type="application/atom+xml" title="Open duel" '
            f'href="http://testserver{reverse("feeds:match", args=[match.pk])}">') in body
    assert f'&lt;iframe src=&quot;http://testserver{embed_url(match)}&quot;' in body


def test_the_preview_is_a_png_of_the_board_made_once_a_position(players, django_assert_num_queries):
    alice, bob = players
    match = duel(alice, bob)
    cache.clear()
    url = reverse("sharing:preview_image", args=[match.pk])
    first = client_for().get(url)
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    with Image.open(io.BytesIO(first.content)) as picture:
        assert picture.size == (1200, 630)
    with django_assert_num_queries(1):  # the match; the picture comes from the cache
        again = client_for().get(url)
    assert again.content == first.content
    play_round(match, {1: 3, 2: 1})
    assert client_for().get(url).content != first.content  # a new phase: a new picture


def atom(response) -> ET.Element:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{required}") is not None, required
    return root


def entries(root: ET.Element) -> list[dict[str, str]]:
    return [{"title": entry.findtext(f"{ATOM}title"),
             "summary": entry.findtext(f"{ATOM}summary") or "",
             "link": entry.find(f"{ATOM}link").get("href"),
             "id": entry.findtext(f"{ATOM}id")} for entry in root.findall(f"{ATOM}entry")]


def test_a_public_match_s_feed_tells_each_phase(players):
    alice, bob = players
    match = duel(alice, bob, title="Followed duel")
    play_round(match, {1: 3, 2: 1})
    play_round(match, {1: 2, 2: 2})
    root = atom(client_for().get(reverse("feeds:match", args=[match.pk])))
    assert root.findtext(f"{ATOM}title") == "Followed duel"
    found = entries(root)
    assert [e["title"] for e in found if e["title"].startswith("Phase")] == [
        "Phase 2: duel", "Phase 1: duel"]
    assert all(e["link"].startswith(f"http://testserver/matches/{match.pk}/") for e in found)
    assert len({e["id"] for e in found}) == len(found)


def test_the_match_feed_is_in_french_for_a_french_reader(players):
    alice, bob = players
    match = duel(alice, bob, title="Duel suivi")
    play_round(match, {1: 3, 2: 1})
    response = client_for(headers={"Accept-Language": "fr"}).get(
        reverse("feeds:match", args=[match.pk]))
    titles = [e["title"] for e in entries(atom(response))]
    assert "Phase 1" in titles[-1]
    body = client_for(headers={"Accept-Language": "fr"}).get(embed_url(match)).content.decode()
    assert "Phase 1" in body and english_in(body, names=["Duel suivi", "Toy Duel"]) == []


def test_a_club_s_feed_lists_its_public_results_and_a_private_club_has_none(players):
    alice, bob = players
    club = club_create(by=alice, name="Feeders")
    club_join_by_token(token=club.invite_token, user=bob)
    root = atom(client_for().get(reverse("feeds:club", args=[club.slug])))
    assert root.findtext(f"{ATOM}title") == "Results of Feeders"
    hidden = club_create(by=alice, name="Hidden", is_public=False)
    assert client_for(alice).get(reverse("feeds:club", args=[hidden.slug])).status_code == 404
    body = client_for().get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert reverse("feeds:club", args=[club.slug]) in body


def test_a_tournament_s_feed_lists_its_rounds(players):
    alice, bob = players
    club = club_create(by=alice, name="Cup holders")
    club_join_by_token(token=club.invite_token, user=bob)
    cup = tournament_create(by=alice, name="Feed cup", game="toy-duel", format="round_robin",
                            club_id=club.pk)
    for player in (alice, bob):
        tournament_register(tournament_id=cup.pk, user=player)
    tournament_start(tournament_id=cup.pk, by=alice)
    root = atom(client_for().get(reverse("feeds:tournament", args=[cup.pk])))
    found = entries(root)
    assert found and found[0]["title"].startswith("Round 1")
    assert "alice" in found[0]["summary"] and "bob" in found[0]["summary"]
    body = client_for().get(reverse("competitions:tournament", args=[cup.pk])).content.decode()
    assert 'property="og:title" content="Feed cup"' in body
    assert reverse("feeds:tournament", args=[cup.pk]) in body
