"""Bad input gets a 4xx with a sentence, never a 500: numbers that ``isdigit()`` accepts and
``int()`` refuses ("²", 5,000 digits), text that ``compare_digest`` refuses (non-ASCII), NUL
characters (which PostgreSQL cannot store), a view's name as a redirect target, and strangers'
requests to the ESP webhooks."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from games.services import orders_submit, phase_resolve
from portal.api.services import api_token_create
from portal.push.models import PushSubscription
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "\N{SUPERSCRIPT TWO}"
LONG = "9" * 5000
NUL_SENTENCE = "This request contains a NUL character"


@pytest.fixture
def alice_client():
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    return alice, client


@pytest.mark.parametrize("junk", [SUPERSCRIPT_TWO, LONG])
@pytest.mark.parametrize("url_name, param", [("games:lobby", "page"),
                                             ("games:my_matches", "before")])
def test_lobby_pages_with_a_junk_number_are_not_found(alice_client, url_name, param, junk):
    _, client = alice_client
    assert client.get(reverse(url_name), {param: junk}).status_code == 404


@pytest.mark.parametrize("junk", [SUPERSCRIPT_TWO, LONG])
def test_a_junk_replay_number_is_a_bad_request(alice_client, junk):
    alice, client = alice_client
    match = duel(alice, make_user("bob"), game="toy-duel")
    for seat, user in ((1, alice), (2, match.seats.get(number=2).user)):
        orders_submit(match_id=match.pk, seat_number=seat, user=user, phase_number=1,
                      data={"number": 2}, source="web")
    phase_resolve(match_id=match.pk, phase_number=1)
    response = client.get(reverse("games:match", args=[match.pk]), {"replay": junk})
    assert response.status_code == 400
    assert "replay must be a whole number" in response.content.decode()
    assert client.get(reverse("games:match", args=[match.pk]), {"replay": "1"}).status_code == 200


@pytest.mark.parametrize("junk", [SUPERSCRIPT_TWO, LONG])
def test_a_junk_logbook_entry_number_is_a_bad_request(alice_client, junk):
    alice, client = alice_client
    match = duel(alice, make_user("bob"), game="tank-game")
    url = reverse("games:tank_logbook", args=[match.pk])
    response = client.get(url, {"before": junk}, headers={"HX-Request": "true"})
    assert 400 <= response.status_code < 500
    assert "is not a logbook entry number" in response.content.decode()


@pytest.mark.parametrize("token", [f"{SUPERSCRIPT_TWO}-x", f"{LONG}-x", f"1-{SUPERSCRIPT_TWO}"])
def test_a_junk_calendar_token_is_not_found(client, token):
    make_user("alice")
    assert client.get(reverse("calendar_feed", args=[token])).status_code == 404


@pytest.mark.parametrize("junk", [SUPERSCRIPT_TWO, LONG])
@pytest.mark.parametrize("url_name", ["push_test", "push_delete", "push_update"])
def test_a_junk_push_subscription_id_is_refused(alice_client, url_name, junk):
    alice, client = alice_client
    PushSubscription.objects.create(user=alice, endpoint="https://push.example.test/a",
                                    p256dh="k" * 87, auth="a" * 22)
    response = client.post(reverse(url_name, args=[junk]))
    assert response.status_code == 404
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize("junk", [SUPERSCRIPT_TWO, LONG])
def test_junk_reminder_hours_are_a_form_error(alice_client, junk):
    _, client = alice_client
    response = client.post(reverse("accounts_profile"), {
        "time_zone": "Europe/Paris", "reminder_hours": f"24,{junk}"})
    assert response.status_code == 400  # 5,000 digits are too long for the field already
    assert junk == LONG or "is not a whole number of hours" in response.content.decode()


def test_a_non_ascii_invite_token_is_refused_by_the_api():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, None, is_public=False)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=bob, name='t').token}")
    response = client.post(f"/api/v1/matches/{match.pk}/join",
                           json.dumps({"invite_token": SUPERSCRIPT_TWO}),
                           content_type="application/json")
    assert response.status_code == 403
    assert not match.seats.filter(user=bob).exists()


@pytest.mark.parametrize("next_url", ["\N{ARABIC-INDIC DIGIT ONE}", "games:lobby",
                                      "https://elsewhere.example/", "//elsewhere.example/"])
def test_the_failing_address_button_goes_back_only_to_a_page_of_this_site(alice_client,
                                                                         next_url):
    _, client = alice_client
    response = client.post(reverse("mail_address_resume"), {"next": next_url})
    assert response.status_code == 302 and response.url == reverse("accounts_profile")
    response = client.post(reverse("mail_address_resume"), {"next": "/matches/mine/"})
    assert response.url == "/matches/mine/"


# --- NUL characters: refused before any view runs ----------------------------------------

@pytest.mark.parametrize("url", ["/?page=%00", "/?pa%00ge=1", "/matches/mine/?before=1%00",
                                 "/invite/a%00b/", "/clubs/join/%00/"])
def test_a_nul_in_the_address_is_a_bad_request(alice_client, url):
    _, client = alice_client
    response = client.get(url)
    assert response.status_code == 400 and NUL_SENTENCE in response.content.decode()


def test_a_nul_in_a_form_field_is_a_bad_request_and_changes_nothing(alice_client):
    alice, client = alice_client
    response = client.post(reverse("competitions:club_create"),
                           {"name": "Night\x00club", "description": "x"})
    assert response.status_code == 400 and NUL_SENTENCE in response.content.decode()
    from competitions.models import Club

    assert not Club.objects.exists()


@pytest.mark.parametrize("body", [
    '{"title": "a\\u0000b", "game": "toy-duel", "seats": [{"kind": "me"}, {"kind": "open"}]}',
    '{"title": "ok", "game": "toy-duel", "seats": [{"kind": "me"}, {"kind": "open"}],'
    ' "options": {"\\u0000": 1}}',
])
def test_a_nul_in_a_json_body_is_a_bad_request_before_the_api_reads_it(body):
    alice = make_user("alice")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=alice, name='t').token}")
    response = client.post("/api/v1/matches", body, content_type="application/json")
    assert response.status_code == 400 and NUL_SENTENCE in response.content.decode()
    assert not Match.objects.exists()


def test_an_escaped_backslash_before_u0000_is_not_a_nul():
    """``"\\\\u0000"`` in JSON is a backslash and the text u0000: the API reads it."""
    alice = make_user("alice")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=alice, name='t').token}")
    response = client.post("/api/v1/matches", json.dumps(
        {"title": "back\\u0000slash", "game": "toy-duel",
         "seats": [{"kind": "me"}, {"kind": "open"}]}), content_type="application/json")
    assert response.status_code == 201, response.content
    assert Match.objects.get().title == "back\\u0000slash"


# --- the ESP webhooks ------------------------------------------------------------------

def test_the_webhook_of_an_esp_not_set_up_here_is_not_found(client):
    response = client.post("/mail/anymail/mailgun/tracking/", {"event-data": "x"})
    assert response.status_code == 404


@pytest.mark.parametrize("body", ["not json", "[]", '"text"'])
def test_a_payload_the_esp_would_not_send_is_a_bad_request(client, body):
    response = client.post("/mail/anymail/postmark/tracking/", body,
                           content_type="application/json")
    assert response.status_code == 400


# --- the admin -------------------------------------------------------------------------

def test_an_empty_to_field_in_the_admin_is_a_bad_request(client):
    from django.contrib.auth.models import Group

    moderator = make_user("moderator", staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    match = duel(make_user("alice"), make_user("bob"))
    client.force_login(moderator)
    seat = match.seats.get(number=1)
    url = reverse("admin:games_seat_change", args=[seat.pk])
    assert client.get(url).status_code == 200
    assert client.get(url, {"_to_field": ""}).status_code == 400
