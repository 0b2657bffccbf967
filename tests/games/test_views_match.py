"""The match page: phase, deadline, who has submitted, orders, receipts, history."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Phase, Submission
from games.receipts import receipt_verify
from games.services import bot_submit, orders_submit, phase_resolve
from portal.accounts.services import profile_update
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def orders_url(match, seat):
    return reverse("games:orders", args=[match.pk, seat])


def match_url(match):
    return reverse("games:match", args=[match.pk])


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


@pytest.fixture
def match(players):
    return duel(*players)


def test_a_player_seals_text_orders_and_sees_the_receipt(client, players, match):
    client.force_login(players[0])
    response = client.post(orders_url(match, 1),
                           {"phase_number": "1", "format": "text", "orders": "4"})
    assert response.status_code == 302 and response.url == match_url(match)
    sheet = Submission.objects.get(seat__number=1)
    assert sheet.data == {"number": 4} and sheet.source == "web"
    page = client.get(match_url(match)).content.decode()
    assert sheet.receipt in page and sheet.salt in page
    assert receipt_verify(salt=sheet.salt, data=sheet.data, receipt=sheet.receipt)
    assert "Replace my orders" in page


def test_json_orders_and_replacing_them_until_the_deadline(client, players, match):
    client.force_login(players[0])
    client.post(orders_url(match, 1), {"phase_number": "1", "format": "text", "orders": "2"})
    response = client.post(orders_url(match, 1), {
        "phase_number": "1", "format": "json", "orders": json.dumps({"number": 5})})
    assert response.status_code == 302
    sheet = Submission.objects.get(seat__number=1)
    assert sheet.data == {"number": 5} and sheet.revision == 2


def test_invalid_orders_are_a_400_listing_each_problem_with_its_path(client, players, match):
    client.force_login(players[0])
    response = client.post(orders_url(match, 1), {
        "phase_number": "1", "format": "json", "orders": json.dumps({"number": 9, "x": 1})})
    assert response.status_code == 400
    body = response.content.decode()
    assert "number: 9 is not a number from 1 to 5." in body
    assert "x: Unknown field &#x27;x&#x27;." in body
    assert not Submission.objects.exists()


@pytest.mark.parametrize("data, message", [
    ({"phase_number": "1", "format": "json", "orders": "{number: 3"}, "Not valid JSON"),
    ({"phase_number": "1", "format": "text", "orders": "four"}, "line 1: Write one number"),
    ({"phase_number": "1", "format": "text", "orders": ""}, "This field is required."),
    ({"phase_number": "x", "format": "text", "orders": "3"}, "Enter a whole number."),
    ({"phase_number": "1", "format": "yaml", "orders": "3"}, "Select a valid choice."),
])
def test_malformed_orders_are_a_400_with_a_clear_message(client, players, match, data, message):
    client.force_login(players[0])
    response = client.post(orders_url(match, 1), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Submission.objects.exists()


def test_a_stale_form_is_a_409_saying_the_phase_was_resolved(client, players, match):
    alice, bob = players
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 3}, source="web")
    orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=1,
                  data={"number": 2}, source="web")
    assert phase_resolve(match_id=match.pk, phase_number=1)
    client.force_login(alice)
    response = client.post(orders_url(match, 1),
                           {"phase_number": "1", "format": "text", "orders": "5"})
    assert response.status_code == 409
    assert "This phase has already been resolved." in response.content.decode()
    assert not Submission.objects.filter(phase__number=2).exists()
    # The form comes back with the text kept, for the phase now open: sending it again works.
    form = response.context["orders_form"]
    assert form["orders"].value() == "5" and form["phase_number"].value() == 2
    again = client.post(orders_url(match, 1),
                        {"phase_number": "2", "format": "text", "orders": "5"})
    assert again.status_code == 302
    assert Submission.objects.get(phase__number=2, seat__number=1).data == {"number": 5}


def test_orders_after_the_deadline_are_a_409(client, players, match):
    Phase.objects.filter(match=match).update(deadline=timezone.now() - timedelta(minutes=1))
    client.force_login(players[0])
    response = client.post(orders_url(match, 1),
                           {"phase_number": "1", "format": "text", "orders": "5"})
    assert response.status_code == 409
    assert "The deadline for this phase has passed." in response.content.decode()
    assert not Submission.objects.exists()


def test_orders_for_another_seat_are_a_403(client, players, match):
    client.force_login(players[0])
    response = client.post(orders_url(match, 2),
                           {"phase_number": "1", "format": "text", "orders": "5"})
    assert response.status_code == 403
    assert not Submission.objects.exists()
    assert client.get(reverse("games:sheet", args=[match.pk, 2])).status_code == 403


def test_htmx_orders_get_the_order_panel_partial(client, players, match):
    client.force_login(players[0])
    response = client.post(orders_url(match, 1),
                           {"phase_number": "1", "format": "text", "orders": "3"},
                           headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert Submission.objects.get().receipt in body
    bad = client.post(orders_url(match, 1), {"phase_number": "1", "format": "text",
                                             "orders": "7"}, headers={"HX-Request": "true"})
    assert bad.status_code == 400 and 'id="orders-panel"' in bad.content.decode()


def test_submission_status_shows_who_is_in_but_never_what(client, players, match):
    alice, bob = players
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 5}, source="web")
    client.force_login(bob)
    response = client.get(reverse("games:submission_status", args=[match.pk]),
                          {"phase": "1"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200
    assert "orders in" in body and "waiting" in body
    assert "every 5s" in body
    assert Submission.objects.get().receipt not in body


def test_the_status_poll_answers_not_modified_after_one_query_until_a_seat_is_in(
        client, players, match):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alice, bob = players
    client.force_login(bob)
    url = reverse("games:submission_status", args=[match.pk])
    htmx = {"HX-Request": "true"}
    first = client.get(url, {"phase": "1"}, headers=htmx)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, {"phase": "1"}, headers={**htmx, "If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    about_the_match = [q["sql"] for q in queries.captured_queries if "games_" in q["sql"]]
    assert len(about_the_match) == 1, about_the_match
    # Alice seals: the count of seats in changes, and so does the answer.
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 5}, source="web")
    changed = client.get(url, {"phase": "1"}, headers={**htmx, "If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "orders in" in changed.content.decode()
    assert Submission.objects.get().receipt not in changed.content.decode()
    # Another reader's tag is not this reader's; a stranger to a private match gets nothing.
    client.force_login(alice)
    assert client.get(url, {"phase": "1"}, headers={**htmx, "If-None-Match": changed["ETag"]}
                      ).status_code == 200
    private = duel(alice, bob, is_public=False)
    private_url = reverse("games:submission_status", args=[private.pk])
    tag = client.get(private_url, {"phase": "1"}, headers=htmx)["ETag"]
    client.force_login(make_user("carol"))
    assert client.get(private_url, {"phase": "1"},
                      headers={**htmx, "If-None-Match": tag}).status_code == 404


def test_the_status_poll_reloads_the_page_once_the_phase_resolved(client, players):
    alice = players[0]
    match = duel(alice, "bot")
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 5}, source="web")
    bot_submit(match_id=match.pk, seat_number=2, phase_number=1)
    client.force_login(alice)
    status_url = reverse("games:submission_status", args=[match.pk])
    assert "HX-Refresh" not in client.get(status_url, {"phase": "1"},
                                          headers={"HX-Request": "true"})
    phase_resolve(match_id=match.pk, phase_number=1)
    response = client.get(status_url, {"phase": "1"}, headers={"HX-Request": "true"})
    assert response["HX-Refresh"] == "true"


def test_history_reveals_resolved_sheets_and_events_as_text(client, players, match):
    alice, bob = players
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 5}, source="web")
    orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=1,
                  text="2", source="web")
    phase_resolve(match_id=match.pk, phase_number=1)
    page = client.get(match_url(match)).content.decode()  # anonymous spectator
    assert "Phase 1: duel" in page
    revealed = Phase.objects.get(number=1).revealed
    assert revealed["1"]["receipt"] in page and revealed["2"]["receipt"] in page
    assert page.count("(matches the sealed sheet)") == 2
    # The toy game tells nothing of its events: the page names the event, never its data.
    assert "<li>Duel.</li>" in page and "winner: 1" not in page
    assert "Phase 2" in page  # the next phase is open


def test_deadline_is_shown_in_the_players_time_zone(client, players, match):
    alice = players[0]
    profile_update(user=alice, time_zone="Asia/Tokyo")
    client.force_login(alice)
    deadline = timezone.localtime(match.deadline, timezone=__import__("zoneinfo").ZoneInfo(
        "Asia/Tokyo"))
    page = client.get(match_url(match)).content.decode()
    assert deadline.strftime("%H:%M JST") in page


def test_finished_match_shows_the_result(client, players):
    alice, bob = players
    match = duel(alice, bob, options={"target": 1, "poison_round": 0})
    orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                  data={"number": 5}, source="web")
    orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=1,
                  data={"number": 2}, source="web")
    phase_resolve(match_id=match.pk, phase_number=1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    page = client.get(match_url(match)).content.decode()
    assert "North reached 1 points" in page and "Finished" in page
    assert "Winner: North." in page  # as every surface says it (games.endings)
    client.force_login(alice)
    response = client.post(orders_url(match, 1),
                           {"phase_number": "1", "format": "text", "orders": "5"})
    assert response.status_code == 409


def test_unknown_match_is_a_404(client, players):
    client.force_login(players[0])
    assert client.get(reverse("games:match", args=[999999])).status_code == 404
    for beyond in (2**63, 10**30):  # more than any id column holds: no query, a 404
        assert client.get(reverse("games:match", args=[beyond])).status_code == 404
    assert client.post(orders_url(type("M", (), {"pk": 999999}), 1),
                       {"phase_number": "1", "format": "text", "orders": "5"}).status_code == 404


def test_private_match_is_invisible_to_strangers_but_not_to_staff(client, players):
    alice, bob = players
    match = duel(alice, bob, is_public=False)
    client.force_login(make_user("carol"))
    for url in (match_url(match), reverse("games:submission_status", args=[match.pk]),
                reverse("games:history", args=[match.pk])):
        assert client.get(url).status_code == 404
    client.force_login(make_user("mod", staff=True))
    assert client.get(match_url(match)).status_code == 200


def test_csrf_is_enforced_on_orders(players, match):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(players[0])
    response = client.post(orders_url(match, 1),
                           {"phase_number": "1", "format": "text", "orders": "5"})
    assert response.status_code == 403
    assert not Submission.objects.exists()


def test_refusals_to_htmx_requests_are_small_fragments(client, players, match):
    client.force_login(players[0])
    missing = client.get(reverse("games:submission_status", args=[999999]),
                         headers={"HX-Request": "true"})
    assert missing.status_code == 404
    assert "<html" not in missing.content.decode() and "No such match." in missing.content.decode()
    other = client.get(reverse("games:sheet", args=[match.pk, 2]), headers={"HX-Request": "true"})
    assert other.status_code == 403 and "That is not your seat." in other.content.decode()


def test_refusals_to_browsers_are_whole_pages(client, players):
    client.force_login(players[0])
    response = client.get(reverse("games:match", args=[999999]))
    assert response.status_code == 404
    body = response.content.decode()
    assert "<html" in body and "No such match." in body
    assert client.get("/no/such/page/").status_code == 404


def test_a_player_gets_an_example_sheet_in_the_games_text_grammar(client, players, match):
    client.force_login(players[0])
    page = client.get(match_url(match)).content.decode()
    assert "the sheet played for you if you miss the deadline" in page
    # toy-duel's default sheet, as text
    assert '<pre id="example-sheet"><code>1</code></pre>' in page


def test_a_game_that_draws_its_board_as_text_gets_it_on_the_page(client, players):
    import tests.portal.notegame  # noqa: F401  (registers "sealed-notes")

    match = duel(*players, game="sealed-notes")
    client.force_login(players[0])
    page = client.get(match_url(match)).content.decode()
    assert "| ROUND 1/3 |" in page
    assert "Write your note as plain text (1 to 200 characters)." in page
    assert "Everything you can see, as data (JSON)" in page


def test_the_match_page_query_count_does_not_grow_with_the_history(
        client, players, django_assert_max_num_queries):
    alice, bob = players
    match = duel(alice, bob, options={"target": 9, "poison_round": 0})

    def play_rounds(count):
        for _ in range(count):
            match.refresh_from_db()
            for seat, user in ((1, alice), (2, bob)):
                orders_submit(match_id=match.pk, seat_number=seat, user=user,
                              phase_number=match.phase_number, data={"number": 3},
                              source="web")
            phase_resolve(match_id=match.pk, phase_number=match.phase_number)

    client.force_login(alice)
    play_rounds(2)
    with django_assert_max_num_queries(25) as short:
        client.get(match_url(match))
    play_rounds(6)
    with django_assert_max_num_queries(len(short.captured_queries)):
        assert "Phase 8" in client.get(match_url(match)).content.decode()


def test_a_game_can_bring_its_own_match_page(client, players, settings, tmp_path, monkeypatch):
    import copy

    import tests.portal.notegame  # noqa: F401  (registers "sealed-notes")
    from games import plugins

    class NotesPlugin(plugins.GamePlugin):
        slug = "sealed-notes"
        match_template = "games/sealed-notes/match.html"

    monkeypatch.setitem(plugins._plugins, "sealed-notes", NotesPlugin())

    page_dir = tmp_path / "games" / "sealed-notes"
    page_dir.mkdir(parents=True)
    (page_dir / "match.html").write_text(
        '{% extends "games/match.html" %}'
        "{% block board %}<p>NOTES-OWN-BOARD round {{ match.state.round }}</p>{% endblock %}")
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path, *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    notes = duel(*players, game="sealed-notes")
    toy = duel(*players)
    client.force_login(players[0])
    page = client.get(match_url(notes)).content.decode()
    assert "NOTES-OWN-BOARD round 1" in page and "Your orders" in page  # the rest is generic
    assert "NOTES-OWN-BOARD" not in client.get(match_url(toy)).content.decode()
