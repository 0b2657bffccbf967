"""Every JSON the site reads is read within bounds (engine.jsontext.read_json): nesting deeper
than the bound, a body larger than it or a number that is not finite is a 400 with a sentence
(a form error, the API's error object), never a 500 — at the edge, on every URL, before CSRF,
and in each place that reads JSON out of a form field or an upload."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory
from django.urls import reverse

from engine.jsontext import JSONLimitError
from games.models import Match, Submission
from portal.api.services import api_token_create
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

DEEP = "[" * 3000 + "]" * 3000
DEEP_NUL = "[" * 900 + '"\\u0000"' + "]" * 900  # (1,808 bytes: the audit's request)
NESTED = "nested too deeply"


def said(response) -> str:
    body = response.content.decode()
    if response.get("Content-Type", "").startswith("application/json"):
        return json.loads(body)["message"]
    return body


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/matches/1/seats/1/orders/",
                                 "/push/subscriptions/", "/api/v1/matches", "/no/such/page/"])
@pytest.mark.parametrize("body", [DEEP_NUL, DEEP], ids=["with a NUL", "plain"])
def test_deeply_nested_json_is_a_400_anywhere_for_anybody(url, body):
    response = Client(enforce_csrf_checks=True).post(url, body,
                                                     content_type="application/json")
    assert response.status_code == 400
    assert NESTED in said(response)


def test_a_json_error_at_the_edge_is_in_the_api_error_shape():
    response = Client().post("/api/v1/matches", DEEP, content_type="application/json")
    assert response.json()["code"] == "invalid" and response.json()["problems"] == []


@pytest.mark.parametrize("body", ['{"title": 1e999}', '[NaN]', '{"a": -Infinity}'])
def test_a_number_that_is_not_finite_is_a_400(body):
    response = Client().post("/api/v1/matches", body, content_type="application/json")
    assert response.status_code == 400 and "not finite" in said(response)


def test_a_body_over_the_bound_is_a_400_even_where_no_view_reads_it(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = Client().post("/", json.dumps(["x" * 20_000]), content_type="application/json")
    assert response.status_code == 400 and "too large" in said(response)


def test_a_body_within_bounds_still_reaches_the_api():
    alice = make_user("alice")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=alice, name='t').token}")
    body = {"game": "toy-duel", "title": "[[[{{{", "seats": [{"kind": "me"}, {"kind": "open"}],
            "options": {}}
    response = client.post("/api/v1/matches", json.dumps(body),
                           content_type="application/json")
    assert response.status_code == 201, response.content
    assert Match.objects.get().title == "[[[{{{"


def test_the_api_parser_reads_within_the_bounds_too():
    from portal.api.api import BoundedParser

    request = RequestFactory().post("/api/v1/matches", DEEP, content_type="application/json")
    with pytest.raises(JSONLimitError, match=NESTED):
        BoundedParser().parse_body(request)


# --- JSON in form fields and uploads (not refused at the edge: the form says it) -----------

def test_deep_json_orders_are_a_form_error():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("games:orders", args=[match.pk, 1]),
                           {"phase_number": "1", "format": "json", "orders": DEEP})
    assert response.status_code == 400 and NESTED in response.content.decode()
    assert not Submission.objects.exists()


def test_deep_json_options_in_the_create_form_are_a_form_error():
    client = Client()
    client.force_login(make_user("creator"))
    response = client.post(reverse("games:match_create"), {
        "game": "toy-duel", "title": "Deep", "seat_count": "2", "seat_1": "me",
        "seat_2": "open", "options": DEEP, "options_game": "toy-duel",
        "hours_per_phase": "24", "miss_policy": "forfeit", "miss_limit": "2"})
    assert response.status_code == 400 and NESTED in response.content.decode()
    assert not Match.objects.exists()


def test_a_deep_record_upload_is_a_400_saying_so():
    client = Client()
    client.force_login(make_user("analyst"))
    response = client.post(reverse("analysis:upload"), {
        "record": SimpleUploadedFile("record.json", DEEP.encode(), "application/json")})
    assert response.status_code == 400 and NESTED in response.content.decode()


def test_deep_final_strategy_steps_are_a_400_saying_so():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="final-strategy")
    client = Client()
    client.force_login(alice)
    response = client.post(reverse("games:fs_turn_check", args=[match.pk, 1]), {"steps": DEEP})
    assert response.status_code == 400
    assert NESTED in json.dumps(response.json(), ensure_ascii=False)


def test_deep_json_to_the_push_view_is_a_400_saying_so():
    """(Refused at the edge; the view reads through the same bounds with its own size.)"""
    from games.services import ServiceError
    from portal.push.views import _json

    request = RequestFactory().post("/push/subscriptions/", DEEP,
                                    content_type="application/json")
    with pytest.raises(ServiceError, match=NESTED):
        _json(request)


def test_deep_json_in_an_editable_admin_json_field_is_a_form_error():
    from competitions.models import Ladder
    from competitions.services.clubs import club_create
    from competitions.services.ladders import ladder_create

    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    ladder = ladder_create(by=admin, club_id=club_create(by=admin, name="Deep").pk,
                           game="toy-duel")
    client = Client()
    client.force_login(admin)
    url = reverse("admin:competitions_ladder_change", args=[ladder.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    response = client.post(url, {**data, "options": DEEP})
    assert response.status_code == 200 and NESTED in response.content.decode()
    assert Ladder.objects.get().options == ladder.options
