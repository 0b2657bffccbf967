"""The portal's pages read in French for a player whose profile says French: home, profile
(notification choices, push devices, API tokens, leave), clubs, ladders, tournaments (their
standings, crosstable and bracket), webhooks, reports, the timeline and notebook, lessons and
the analysis pages. No frequent English word is left in a page's main part, outside names
people chose and what a game's plug-in draws itself (its board, its lessons' texts: the games
translate theirs)."""

from __future__ import annotations

import re

import pytest

from analysis.services import analysis_from_match
from competitions import services as competitions
from games import services as games_services
from games.models import Match
from portal.accounts.services import profile_update
from portal.webhooks.models import WebhookTarget
from tests.french import english_in, text_of

pytestmark = pytest.mark.django_db

# Names people chose, the test games' names and seats, the site's name.
NAMES = ["Tank Portal", "Les Chars du Jeudi", "Coupe d'hiver", "Coupe à élimination",
         "Duel du jeudi", "Toy Duel", "Toy Race", "Toy Count", "North", "South", "Final Act",
         "Final Strategy", "Panzer Squadron", "Tank Game", "Sealed Notes", "Crowd Notes",
         "salon du club", "amelie", "bob", "carol", "dave"]
# What the games draw themselves on a portal page (their boards, lessons' texts, the profile's
# reliability record: templates/games/**, translated with the games), and time zone names.
GAME_PARTS = re.compile(
    r'(?s)<(div|section) class="(analysis-board|lesson-board|lesson-intro)".*?</\1>'
    r'|<section id="reliability".*?</section>|<select[^>]*name="time_zone".*?</select>')


def main_text(html: str) -> str:
    main = html[html.index("<main"):html.index("</main>")]
    return text_of(GAME_PARTS.sub(" ", main))


def read_in_french(client, url: str, allowed: list[str]) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    assert '<html lang="fr">' in html, url
    text = main_text(html)
    words = english_in(text, names=NAMES + allowed)
    assert not words, (url, words, text)
    return text


@pytest.fixture
def world(make_user, settings):
    """Amélie (French) owns a club with a ladder, a running Swiss and an elimination cup, and
    plays a finished duel against Bob with a webhook on it."""
    settings.VAPID_GENERATE = True
    amelie, bob, carol, dave = (make_user(name) for name in ("amelie", "bob", "carol", "dave"))
    profile_update(user=amelie, language="fr")
    club = competitions.club_create(by=amelie, name="Les Chars du Jeudi")
    for user in (bob, carol):
        competitions.club_join_by_token(token=club.invite_token, user=user)
    competitions.club_request_join(club_id=club.pk, user=dave, message="")
    ladder = competitions.ladder_create(by=amelie, club_id=club.pk, game="toy-duel")
    competitions.challenge_create(ladder_id=ladder.pk, by=amelie, opponent=bob)
    swiss = competitions.tournament_create(
        by=amelie, club_id=club.pk, name="Coupe d'hiver", game="toy-duel", format="swiss",
        options={"target": 1}, rounds_planned=2, round_hours=48, hours_per_phase=24)
    cup = competitions.tournament_create(
        by=amelie, club_id=club.pk, name="Coupe à élimination", game="toy-duel",
        format="single_elim", options={"target": 1}, round_hours=48, hours_per_phase=24)
    for tournament in (swiss, cup):
        for user in (amelie, bob, carol):
            competitions.tournament_register(tournament_id=tournament.pk, user=user)
        competitions.tournament_start(tournament_id=tournament.pk, by=amelie)
    duel = games_services.match_create(
        creator=amelie, game="toy-duel", options={"target": 1}, hours_per_phase=24,
        title="Duel du jeudi",
        seats=[{"kind": "human", "user": amelie}, {"kind": "human", "user": bob}])
    for seat, user, number in ((1, amelie, 5), (2, bob, 1)):
        games_services.orders_submit(match_id=duel.pk, seat_number=seat, user=user,
                                     phase_number=1, source="web", data={"number": number})
    games_services.phase_resolve(match_id=duel.pk, phase_number=1)
    duel.refresh_from_db()
    assert duel.status == Match.Status.FINISHED
    WebhookTarget.objects.create(match=duel, created_by=amelie, name="salon du club",
                                 format="discord", url="https://discord.com/api/webhooks/1/a")
    analysis = analysis_from_match(user=amelie, match=duel, phase_number=None)
    return {"amelie": amelie, "club": club, "ladder": ladder, "swiss": swiss, "cup": cup,
            "duel": duel, "analysis": analysis, "bob": bob}


def test_the_portal_pages_read_in_french(client, world):
    client.force_login(world["amelie"])
    club, duel = world["club"], world["duel"]
    pages = [
        "/home/", "/accounts/profile/", "/clubs/", f"/clubs/{club.slug}/", "/clubs/new/",
        f"/clubs/{club.slug}/tournaments/new/", f"/ladders/{world['ladder'].pk}/",
        f"/ladders/{world['ladder'].pk}/players/{world['bob'].pk}/",
        f"/tournaments/{world['swiss'].pk}/", f"/tournaments/{world['swiss'].pk}/crosstable/",
        f"/tournaments/{world['cup'].pk}/", f"/tournaments/{world['cup'].pk}/bracket/",
        f"/webhooks/clubs/{club.slug}/", f"/webhooks/matches/{duel.pk}/",
        f"/matches/{duel.pk}/timeline/", f"/matches/{duel.pk}/notebook/",
        f"/matches/{duel.pk}/analysis/", "/analysis/",
        f"/analysis/{world['analysis'].token}/", "/learn/",
    ]
    for url in pages:
        read_in_french(client, url, [])
    text = read_in_french(client, "/accounts/profile/", [])
    assert "Notifications push" in text and "Congés" in text and "Jetons d'API" in text


def test_refusals_and_error_pages_read_in_french(client, world):
    client.force_login(world["amelie"])
    for method, url, data, status, sentence in (
            ("post", "/report/", {"username": "nobody", "reason": "triche"}, 400,
             "Il n'y a pas de joueur « nobody »."),
            ("get", "/clubs/no-such-club/", {}, 404, "Ce club n'existe pas."),
            ("post", f"/tournaments/{world['swiss'].pk}/register/", {}, 409,
             "Les inscriptions à ce tournoi sont closes."),
            ("get", "/no-such-page/", {}, 404, "Il n'y a rien ici.")):
        response = getattr(client, method)(url, data)
        assert response.status_code == status, url
        text = main_text(response.content.decode())
        assert sentence in text, (url, text)
        assert english_in(text, names=[*NAMES, "nobody"]) == [], (url, text)
