"""Sealed orders stay sealed: every URL of the match pages and the account pages, requested
(GET and POST) by every role while a phase holds sealed sheets with recognisable markers."""

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

import tests.portal.notegame  # noqa: F401  (registers "sealed-notes": free-text sheets)
from games import plugins
from games import urls as games_urls
from games.models import MatchVote, Submission
from games.services import orders_submit, vote_propose
from portal.accounts import urls as accounts_urls
from tests.helpers import client_for
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401
from tests.urlwalk import url_names

pytestmark = pytest.mark.django_db

MARKERS = {
    ("public", 1): "SEALED-PUBLIC-LEFT-7f3a9c",
    ("public", 2): "SEALED-PUBLIC-RIGHT-91c2e4",
    ("private", 1): "SEALED-PRIVATE-LEFT-0b5d17",
    ("private", 2): "SEALED-PRIVATE-RIGHT-e8a642",
}
ROLES = ("anonymous", "spectator", "seat1", "seat2", "staff")


def url_variants(matches):
    """Every (name, url) of the games and accounts URLconfs, each argument filled with every
    value that makes sense (both matches, both seats, the invite tokens)."""
    values = {
        "match_id": [m.pk for m in matches.values()],
        "seat_number": [1, 2],
        "token": [m.invite_token for m in matches.values()],
        # (no seat here seeks a commander: test_seeking_secrets.py reads that page as every
        # role)
        "seat_token": ["no-such-seat-token"],
        "key": ["not-a-key"],
        "uidb36": ["1"],
        "phase_number": [1, 2],
        "vote_id": list(MatchVote.objects.values_list("pk", flat=True)) or [1],
    }
    values["slug"] = [*plugins.installed(), "no-such-game"]
    patterns = [("games:" + name, args) for name, args in url_names(games_urls.urlpatterns)]
    patterns += [(p.name, list(p.pattern.regex.groupindex))
                 for p in accounts_urls.urlpatterns if isinstance(p, URLPattern)]
    for name, arg_names in patterns:
        combos = [{}]
        for arg in arg_names:
            combos = [{**c, arg: v} for c in combos for v in values[arg]]
        for kwargs in combos:
            yield name, reverse(name, kwargs=kwargs)


@pytest.fixture
def world():
    alice, bob = make_user("alice"), make_user("bob")
    users = {"seat1": alice, "seat2": bob, "spectator": make_user("carol"),
             "staff": make_user("moderator", staff=True), "anonymous": None}
    matches = {
        "public": duel(alice, bob, game="sealed-notes", title="Public notes"),
        "private": duel(alice, bob, game="sealed-notes", title="Private notes", is_public=False),
    }
    for (which, seat), marker in MARKERS.items():
        orders_submit(match_id=matches[which].pk, seat_number=seat, user=users[f"seat{seat}"],
                      phase_number=1, text=marker, source="web")
    for match in matches.values():  # a proposal to end each match: its panel and pages too
        vote_propose(match_id=match.pk, user=alice, kind="draw", secret=True)
    return users, matches


def forbidden_markers(role):
    if role in ("seat1", "seat2"):
        own = int(role[-1])
        return [m for (_, seat), m in MARKERS.items() if seat != own]
    return list(MARKERS.values())


@pytest.mark.parametrize("role", ROLES)
def test_no_page_shows_another_seats_sealed_sheet(world, role):
    users, matches = world
    forbidden = forbidden_markers(role)
    requested = 0
    client = Client()
    for name, url in url_variants(matches):
        for method in ("get", "post"):
            if users[role] is not None:
                client.force_login(users[role])  # a POST to log out must not end the sweep
            own_marker = MARKERS.get(("public", int(role[-1]))) if role.startswith("seat") else ""
            data = {"phase_number": "1", "format": "text", "orders": own_marker or "INJECTED",
                    "seat_number": "2"}
            response = getattr(client, method)(url, data, headers={"HX-Request": "true"}
                                               if requested % 2 else {})
            requested += 1
            assert response.status_code < 500, (name, url, method, response.status_code)
            body = response.content.decode(errors="replace")
            for marker in forbidden:
                assert marker not in body, f"{role} saw {marker} at {method.upper()} {url}"
    assert requested > 40
    # Nobody replaced another seat's sealed sheet through any of those requests.
    for (which, seat), marker in MARKERS.items():
        sheet = Submission.objects.get(phase__match=matches[which], seat__number=seat)
        if role != f"seat{seat}":
            assert sheet.data == {"note": marker} and sheet.revision == 1, (which, seat)


@pytest.mark.parametrize("role", ["seat1", "seat2"])
def test_a_player_sees_their_own_sealed_sheet(world, role):
    users, matches = world
    own = int(role[-1])
    client = client_for(users[role])
    for which in ("public", "private"):
        page = client.get(reverse("games:match", args=[matches[which].pk])).content.decode()
        assert MARKERS[(which, own)] in page
        partial = client.get(reverse("games:sheet", args=[matches[which].pk, own]))
        assert MARKERS[(which, own)] in partial.content.decode()


@pytest.mark.parametrize("role, expected", [
    ("anonymous", {302}), ("spectator", {403}), ("staff", {403}), ("seat1", {403}),
])
def test_posting_orders_for_seat_2_is_refused(world, role, expected):
    users, matches = world
    client = client_for(users[role])
    response = client.post(reverse("games:orders", args=[matches["public"].pk, 2]),
                           {"phase_number": "1", "format": "text", "orders": "OVERWRITTEN"})
    assert response.status_code in expected
    sheet = Submission.objects.get(phase__match=matches["public"], seat__number=2)
    assert sheet.data == {"note": MARKERS[("public", 2)]}


@pytest.mark.parametrize("role", ["anonymous", "spectator"])
def test_private_match_pages_are_404_for_non_participants(world, role):
    users, matches = world
    client = client_for(users[role])
    private = matches["private"]
    checked = 0
    for name, url in url_variants({"private": private}):
        if not name.startswith("games:") or f"/matches/{private.pk}/" not in url:
            continue
        response = client.get(url)
        if response.status_code == 405:  # a POST-only endpoint
            response = client.post(url, {"phase_number": "1", "format": "text", "orders": "x"})
        # Anonymous visitors may be sent to log in first: that says nothing about the match.
        login_first = (role == "anonymous" and response.status_code == 302
                       and response.url.startswith(reverse("account_login")))
        assert login_first or response.status_code == 404, (name, url, response.status_code)
        checked += 1
    assert checked >= 7


@pytest.mark.parametrize("role", [r for r in ROLES if r != "anonymous"])
def test_no_api_answer_shows_a_sealed_sheet_to_anyone_but_its_author(world, role):
    """The JSON API, with each role's own token: every read of both matches."""
    from portal.api.services import api_token_create

    users, matches = world
    token = api_token_create(user=users[role], name="roles").token
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    urls = ["/api/v1/matches", "/api/v1/lobby", "/api/v1/games"]
    for match in matches.values():
        urls += [f"/api/v1/matches/{match.pk}{tail}" for tail in ("", "/prompt", "/result")]
    own_seen = []
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, url
        body = response.content.decode()
        for marker in forbidden_markers(role):
            assert marker not in body, f"{role} saw {marker} at {url}"
        own_seen += [m for m in MARKERS.values() if m in body]
    if role in ("seat1", "seat2"):  # the author does get their own sheet back
        assert own_seen
