"""The JSON API (/api/v1/): tokens, every endpoint for every registered game through the same
services as the pages, refusals with the engine's problems, and the sealed sheets' secrecy."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

import engine
from games import plugins
from games.models import Match, Submission
from games.services import orders_submit, phase_resolve
from portal.api.models import ApiToken
from portal.api.services import api_token_create, token_hash
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db


def api_client(user) -> Client:
    token = api_token_create(user=user, name="test").token
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


def body(response) -> dict:
    return json.loads(response.content)


# -- tokens ---------------------------------------------------------------------------------

def test_a_token_is_stored_only_as_its_hash_and_shown_once_on_the_profile(client):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post("/accounts/tokens/new/", {"name": "my bot"})
    assert response.status_code == 200
    row = ApiToken.objects.get(user=alice)
    token = response.content.decode().split('id="new-token">')[1].split("<")[0]
    assert token.startswith("tp_") and row.key_hash == token_hash(token)
    assert token not in json.dumps(list(ApiToken.objects.values()), default=str)
    profile = client.get("/accounts/profile/").content.decode()
    assert "my bot" in profile and row.prefix in profile and token not in profile
    assert Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/v1/matches").status_code == 200


def test_a_revoked_token_is_refused_and_only_its_owner_may_revoke_it(client):
    alice, mallory = make_user("alice"), make_user("mallory")
    created = api_token_create(user=alice, name="bot")
    client.force_login(mallory)
    assert client.post(f"/accounts/tokens/{created.row.pk}/revoke/").status_code == 404
    api = Client(HTTP_AUTHORIZATION=f"Bearer {created.token}")
    assert api.get("/api/v1/matches").status_code == 200
    client.force_login(alice)
    assert client.post(f"/accounts/tokens/{created.row.pk}/revoke/").status_code == 302
    refused = api.get("/api/v1/matches")
    assert refused.status_code == 401 and body(refused)["code"] == "unauthorized"


@pytest.mark.parametrize("header", ["", "Bearer", "Bearer nonsense", "Bearer tp_forged",
                                    "Basic dXNlcjpwYXNz", "Bearer " + "tp_" + "x" * 500])
def test_requests_without_a_live_token_get_401(header):
    client = Client(HTTP_AUTHORIZATION=header) if header else Client()
    response = client.get("/api/v1/matches")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"


def test_a_token_name_is_required(client):
    client.force_login(make_user("alice"))
    response = client.post("/accounts/tokens/new/", {"name": "  "})
    assert response.status_code == 400 and "Give the token a name" in response.content.decode()
    assert not ApiToken.objects.exists()


# -- rate limit -----------------------------------------------------------------------------

def test_requests_are_limited_per_token(settings):
    settings.API_RATE_LIMIT = "5/m"
    alice = make_user("alice")
    first, second = api_client(alice), api_client(alice)
    assert [first.get("/api/v1/matches").status_code for _ in range(5)] == [200] * 5
    assert first.get("/api/v1/matches").status_code == 429
    assert first.get("/api/v1/lobby").status_code == 429
    # Another token (even of the same user) has its own count.
    assert second.get("/api/v1/matches").status_code == 200


def test_the_rate_limit_is_counted_in_the_shared_cache(settings):
    """Counted where every web process sees it (Redis under CI), not in one process's memory."""
    from django.core.cache import cache

    settings.API_RATE_LIMIT = "3/m"
    alice = make_user("alice")
    created = api_token_create(user=alice, name="bot")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {created.token}")
    api.get("/api/v1/matches")
    keys = [key for key in [f"throttle_auth_{_sha(str(created.row))}"] if cache.get(key)]
    assert keys, "the throttle's history is in the cache"
    if settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        assert any(client.scan_iter(match=f"{settings.CACHES['default']['KEY_PREFIX']}*"))


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()


# -- playing through the API ----------------------------------------------------------------

def test_a_whole_toy_match_through_the_api_gets_the_same_receipts_as_the_page():
    alice, bob = make_user("alice"), make_user("bob")
    a_api, b_api = api_client(alice), api_client(bob)
    lobby_before = body(a_api.get("/api/v1/lobby"))
    created = a_api.post("/api/v1/matches", {"game": "toy-duel", "seats": [
        {"kind": "me"}, {"kind": "open"}]}, content_type="application/json")
    assert created.status_code == 201, created.content
    match_id = body(created)["id"]
    assert body(created)["status"] == "open" and body(created)["my_seat"] == 1
    listed = body(b_api.get("/api/v1/lobby"))
    assert [m["id"] for m in listed] == [match_id] + [m["id"] for m in lobby_before]
    joined = b_api.post(f"/api/v1/matches/{match_id}/join", {}, content_type="application/json")
    assert body(joined) == {"match_id": match_id, "seat": 2, "match_status": "active"}

    mine = body(a_api.get("/api/v1/matches"))
    assert mine[0]["id"] == match_id and mine[0]["waiting_for_me"] is True
    prompt = body(a_api.get(f"/api/v1/matches/{match_id}/prompt"))
    assert prompt["phase_kind"] == "simultaneous" and prompt["my_sheet"] is None
    assert {"number": 3} in prompt["legal_actions"]
    sent = a_api.post(f"/api/v1/matches/{match_id}/orders",
                      {"phase_number": prompt["phase_number"], "data": {"number": 3}},
                      content_type="application/json")
    assert sent.status_code == 200, sent.content
    receipt = body(sent)
    stored = Submission.objects.get(seat__number=1)
    assert (stored.source, stored.receipt, stored.salt) == ("api", receipt["receipt"],
                                                            receipt["salt"])
    again = body(a_api.get(f"/api/v1/matches/{match_id}/prompt"))["my_sheet"]
    assert again["receipt"] == receipt["receipt"] and again["data"] == {"number": 3}
    sent = b_api.post(f"/api/v1/matches/{match_id}/orders",
                      {"phase_number": prompt["phase_number"], "text": "5"},
                      content_type="application/json")
    assert body(sent)["complete"] is True
    phase_resolve(match_id=match_id, phase_number=prompt["phase_number"])
    view = body(a_api.get(f"/api/v1/matches/{match_id}"))
    assert view["phase"]["number"] == prompt["phase_number"] + 1
    assert view["board"]["last"] is not None
    result = body(a_api.get(f"/api/v1/matches/{match_id}/result"))
    assert result["finished"] is (result["status"] == "finished")


def test_another_seats_sealed_sheet_is_never_in_any_answer():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    a_receipt = orders_submit(match_id=match.pk, seat_number=1, user=alice,
                              phase_number=match.phase_number, data={"number": 4},
                              source=Submission.Source.WEB)
    b_api = api_client(bob)
    answers = [b_api.get(url).content.decode() for url in (
        "/api/v1/matches", f"/api/v1/matches/{match.pk}", f"/api/v1/matches/{match.pk}/prompt",
        f"/api/v1/matches/{match.pk}/result", "/api/v1/lobby")]
    for answer in answers:
        assert a_receipt.receipt not in answer and a_receipt.salt not in answer
    view = json.loads(answers[1])
    assert view["seats"][0]["submitted"] is True  # that alice is in, never what
    assert view["prompt"]["my_sheet"] is None


def test_refusals_carry_the_engines_problems_with_the_pages_status_codes():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    api = api_client(alice)
    url = f"/api/v1/matches/{match.pk}/orders"
    bad = api.post(url, {"phase_number": match.phase_number, "text": "9"},
                   content_type="application/json")
    assert bad.status_code == 400
    assert body(bad)["code"] == "invalid" and body(bad)["problems"]
    assert "9 is not a number from 1 to 5" in json.dumps(body(bad)["problems"])
    stale = api.post(url, {"phase_number": match.phase_number + 7, "data": {"number": 1}},
                     content_type="application/json")
    assert stale.status_code == 400 and body(stale)["code"] == "unknown_phase"
    both = api.post(url, {"phase_number": match.phase_number, "data": {"number": 1},
                          "text": "1"}, content_type="application/json")
    assert both.status_code == 400 and body(both)["code"] == "invalid"
    garbage = api.post(url, "{not json", content_type="application/json")
    assert garbage.status_code in (400, 422)
    missing = api.post(url, {"data": {"number": 1}}, content_type="application/json")
    assert missing.status_code == 422 and body(missing)["problems"][0]["path"].endswith(
        "phase_number")
    assert not Submission.objects.exists()


def test_private_matches_do_not_exist_for_outsiders_but_the_invite_token_lets_one_join():
    alice, carol = make_user("alice"), make_user("carol")
    match = duel(alice, is_public=False)
    api = api_client(carol)
    for url in (f"/api/v1/matches/{match.pk}", f"/api/v1/matches/{match.pk}/result"):
        assert api.get(url).status_code == 404
    assert api.post(f"/api/v1/matches/{match.pk}/join", {},
                    content_type="application/json").status_code == 404
    wrong = api.post(f"/api/v1/matches/{match.pk}/join", {"invite_token": "nope"},
                     content_type="application/json")
    assert wrong.status_code == 403
    joined = api.post(f"/api/v1/matches/{match.pk}/join", {"invite_token": match.invite_token},
                      content_type="application/json")
    assert joined.status_code == 200 and body(joined)["match_status"] == "active"
    assert api.get(f"/api/v1/matches/{match.pk}").status_code == 200


def test_a_spectator_gets_the_spectators_view_and_no_prompt():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob)
    api = api_client(carol)
    view = body(api.get(f"/api/v1/matches/{match.pk}"))
    assert view["my_seat"] is None and view["prompt"] is None
    refused = api.get(f"/api/v1/matches/{match.pk}/prompt")
    assert refused.status_code == 403 and body(refused)["code"] == "not_your_seat"
    sent = api.post(f"/api/v1/matches/{match.pk}/orders",
                    {"phase_number": match.phase_number, "data": {"number": 1}},
                    content_type="application/json")
    assert sent.status_code == 403


@pytest.mark.parametrize("slug", plugins.installed())
def test_every_registered_game_is_playable_through_the_api(slug):
    """For each game: create it, read each seat's view and prompt, submit a legal sheet; a
    sealed sheet stays out of the other seat's answers."""
    game = engine.get(slug)
    alice, bob = make_user("alice"), make_user("bob")
    apis = {1: api_client(alice), 2: api_client(bob)}
    seats = [{"kind": "me"}, {"kind": "open"}] + [
        {"kind": "bot", "bot": game.bots[0]} if game.bots else {"kind": "open"}
        for _ in range(game.min_seats - 2)]
    created = apis[1].post("/api/v1/matches", {"game": slug, "seats": seats,
                                               "options": game.default_options()},
                           content_type="application/json")
    assert created.status_code == 201, created.content
    match_id = body(created)["id"]
    joined = apis[2].post(f"/api/v1/matches/{match_id}/join", {},
                          content_type="application/json")
    assert joined.status_code == 200, joined.content
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:  # more open seats than our two players
        pytest.skip(f"{slug} needs more than two players to start")
    views = {n: apis[n].get(f"/api/v1/matches/{match_id}") for n in apis}
    assert all(v.status_code == 200 for v in views.values())
    prompted = [n for n in apis if body(views[n])["prompt"] is not None]
    assert prompted, f"{slug}: nobody is asked to act"
    seat = prompted[0]
    prompt = apis[seat].get(f"/api/v1/matches/{match_id}/prompt")
    assert prompt.status_code == 200, prompt.content
    rng = random.Random(7)
    sheet = (game.bot_submission(match.state, seat, game.bots[0], rng) if game.bots
             else game.default_submission(match.state, seat))
    sent = apis[seat].post(f"/api/v1/matches/{match_id}/orders",
                           {"phase_number": body(prompt)["phase_number"], "data": sheet},
                           content_type="application/json")
    if body(prompt)["phase_kind"] == "continuous" and sent.status_code != 200:
        # Outside a gameday window the action is refused, with the reason, not lost or 500.
        assert sent.status_code in (400, 409) and body(sent)["message"], sent.content
        return
    assert sent.status_code == 200, sent.content
    if body(prompt)["phase_kind"] == "simultaneous":
        other = 2 if seat == 1 else 1
        for url in (f"/api/v1/matches/{match_id}", f"/api/v1/matches/{match_id}/prompt"):
            answer = apis[other].get(url).content.decode()
            assert body(sent)["receipt"] not in answer and body(sent)["salt"] not in answer


def test_a_moderator_can_revoke_a_token_in_the_admin(client):
    alice = make_user("alice")
    created = api_token_create(user=alice, name="bot")
    admin = make_user("admin", staff=True)
    admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    page = client.get("/admin/api/apitoken/").content.decode()
    assert created.row.prefix in page and created.token not in page
    response = client.post("/admin/api/apitoken/", {"action": "revoke",
                                                    "_selected_action": [created.row.pk]})
    assert response.status_code == 302
    assert Client(HTTP_AUTHORIZATION=f"Bearer {created.token}").get(
        "/api/v1/matches").status_code == 401


def test_a_match_on_clocks_shows_each_prompted_seats_clock():
    from games.services import match_create, seat_join

    alice, bob = make_user("alice"), make_user("bob")
    match = match_create(creator=alice, game="toy-duel", options={}, hours_per_phase=24,
                         seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": None}],
                         clock_bank_hours=72, clock_increment_hours=24, clock_cap_hours=168)
    seat_join(match_id=match.pk, user=bob, invite_token=match.invite_token)
    api = api_client(alice)
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 3}, source="web")
    view = body(api.get(f"/api/v1/matches/{match.pk}"))
    clocks = {seat["number"]: seat["clock"] for seat in view["seats"]}
    assert clocks[1]["running"] is False  # alice's sheet is in: her clock stopped
    assert clocks[2]["running"] is True and clocks[2]["due"]
    assert 71 * 3600 < clocks[2]["seconds_left"] <= 72 * 3600
    assert clocks[2]["text"]
    plain = body(api.get(f"/api/v1/matches/{duel(alice, bob).pk}"))
    assert all(seat["clock"] is None for seat in plain["seats"])  # a fixed deadline: no clock
