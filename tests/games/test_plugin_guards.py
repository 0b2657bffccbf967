"""The plug-in boundary's guards: a game reusing Final Act's phase names ("setup", "orders")
gets a 404 from every page of another game, never a 500; nothing sealed leaks; every game's
rules page and replay exist; generic modules name no game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games import plugins
from games import urls as games_urls
from games.services import orders_submit
from tests.helpers import play_round
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401
from tests.urlwalk import url_names

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
MARK = 4  # the sealed number: "4" alone is too common, so the test looks at the receipt


@pytest.fixture
def phases_match():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="toy-phases")
    staff = make_user("staff", staff=True)
    stranger = make_user("stranger")
    return match, {"seat1": alice, "seat2": bob, "staff": staff, "stranger": stranger,
                   "anonymous": None}


def every_url(match):
    values = {"match_id": [match.pk], "seat_number": [1, 2], "token": [match.invite_token],
              "seat_token": ["no-such-seat-token"],
              "vote_id": [*match.votes.values_list("pk", flat=True), 999999],
              "phase_number": [0, 1, 2], "slug": [*plugins.installed(), "no-such-game"]}
    for name, args in url_names(games_urls.urlpatterns):
        combos = [{}]
        for arg in args:
            combos = [{**c, arg: v} for c in combos for v in values[arg]]
        for kwargs in combos:
            yield name, reverse(f"games:{name}", kwargs=kwargs)


def foreign(url: str, match) -> bool:
    """A page of another game's plug-in, for this match."""
    prefix = f"/matches/{match.pk}/"
    return url.startswith(prefix) and any(
        url.startswith(f"{prefix}{slug}/") for slug in plugins.installed()
        if slug != match.game)


@pytest.mark.parametrize("role", ["anonymous", "seat1", "seat2", "stranger", "staff"])
def test_every_url_answers_a_game_reusing_final_acts_phase_names_without_a_500(phases_match,
                                                                               role):
    match, people = phases_match
    receipt = orders_submit(match_id=match.pk, seat_number=1, user=people["seat1"],
                            phase_number=match.phase_number, data={"number": MARK},
                            source="web")
    client = Client(raise_request_exception=False)
    if people[role] is not None:
        client.force_login(people[role])
    checked = 0
    for name, url in every_url(match):
        for method, headers in (("get", {}), ("post", {}), ("post", {"HTTP_HX_REQUEST": "1"})):
            response = getattr(client, method)(url, {"phase_number": "1", "orders": "5",
                                                     "format": "text"}, **headers)
            assert response.status_code < 500, (name, url, method, response.status_code)
            if foreign(url, match):
                assert response.status_code in (302, 404), (name, url, response.status_code)
                if response.status_code == 302:  # anonymous: to the login page first
                    assert "/accounts/login/" in response["Location"]
            if role != "seat1":
                assert receipt.receipt not in response.content.decode(), (name, url)
            checked += 1
    assert checked > 60


def test_the_old_500_a_final_act_sheet_check_for_another_game_is_a_404(phases_match):
    match, people = phases_match
    play_round(match, {1: 3, 2: 4})  # now in round 2, a phase named "orders"
    client = Client(raise_request_exception=False)
    client.force_login(people["seat1"])
    url = f"/matches/{match.pk}/final-act/seats/1/sheet/validate/"
    assert client.post(url, {"phase_number": "2"}).status_code == 404
    assert client.post(f"/matches/{match.pk}/seats/1/sheet/validate/").status_code == 404


def test_every_installed_game_has_a_rules_page_and_a_replay(client, phases_match):
    match, people = phases_match
    for slug in plugins.installed():
        page = client.get(reverse("games:rules", args=[slug]))
        assert page.status_code == 200, slug
        assert plugins.plugin_for(slug).name in page.content.decode()
    assert client.get(reverse("games:rules", args=["no-such-game"])).status_code == 404
    play_round(match, {1: 3, 2: 4})
    client.force_login(people["seat1"])
    frame = client.get(reverse("games:replay", args=[match.pk, 1]), HTTP_HX_REQUEST="true")
    assert frame.status_code == 200 and "Duel" in frame.content.decode()  # the event, told
    page = client.get(reverse("games:match", args=[match.pk]) + "?replay=1").content.decode()
    assert 'id="replay"' in page and "Phase 1" in page


GENERIC = ["games/services", "games/views", "games/forms.py", "games/urls.py",
           "games/plugins.py", "games/admin.py", "games/models.py", "games/selectors.py",
           "games/tasks.py", "games/signals.py", "portal/mail", "engine/__init__.py",
           "engine/base.py", "templates/games/match.html", "templates/games/lobby.html",
           "templates/games/partials", "templates/games/generic", "templates/mail",
           "templates/base.html", "templates/partials", "portal/accounts", "portal/urls.py",
           "portal/wsgi.py", "portal/celery.py", "static/js/portal.js", "static/css/portal.css",
           "competitions", "templates/competitions", "portal/api", "portal/feeds",
           "templates/api", "scripts/api_client.py"]


def test_generic_modules_name_no_game():
    names = re.compile(r"final[-_ ]act|tank[-_ ]game|final[-_ ]strategy|panzer", re.I)
    found = []
    for where in GENERIC:
        paths = [ROOT / where] if (ROOT / where).is_file() else (ROOT / where).rglob("*")
        for file in paths:
            if file.is_file() and file.suffix in (".py", ".html", ".txt", ".js", ".css"):
                for number, line in enumerate(file.read_text().splitlines(), 1):
                    if names.search(line):
                        found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
