"""The Final Act order sheet on the match page: the form, the live check, sealing, refusals,
the round report with its replay, and what the other side never sees."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import engine
from games.final_act.sheet_panel import unit_rows
from games.models import Match, Phase, Submission
from games.services import orders_submit, phase_resolve
from tests.helpers import play_round
from tests.portal.builders import PASSWORD, duel, make_user

pytestmark = pytest.mark.django_db

GAME = engine.get("final-act")


@pytest.fixture
def players(client):
    return make_user("alice"), make_user("bob")


@pytest.fixture
def match(players):
    """A Final Act match past its setup (default layouts), in round 1."""
    alice, bob = players
    created = duel(alice, bob, game="final-act")
    play_round(created)
    assert created.state["phase"] == "orders"
    return created


def sealed(match: Match):
    """Sheets sealed for the open phase."""
    return Submission.objects.filter(phase__match=match, phase__number=match.phase_number)


def log_in(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def urls(match, seat=1):
    return (reverse("games:fa_sheet_validate", args=[match.pk, seat]),
            reverse("games:fa_sheet_submit", args=[match.pk, seat]))


def panel_choices(body: str) -> dict:
    """The choices the order panel's script turns its text fields into selects with."""
    found = re.search(r'<script id="fa-legal" type="application/json">(.*?)</script>', body,
                      re.S)
    assert found, "no #fa-legal data"
    return json.loads(found.group(1))["choices"]


def unit_moves(match, unit: str) -> list[dict]:
    view = GAME.view(match.state, 1)
    legal = GAME.legal_actions(match.state, 1)
    return next(row for row in unit_rows(view, legal, {}, [], []) if row["name"] == unit)["moves"]


def test_the_page_shows_the_board_and_a_row_per_unit(client, match, players):
    log_in(client, players[0])
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert 'id="fa-sheet-form"' in page
    assert 'id="fa-board-live"' in page
    for name in ("C", "1", "1A", "1B", "2", "2A", "2B"):
        assert f'id="fa-row-{name}"' in page
    assert 'id="fa-legal"' in page  # the choices the board script highlights
    assert "Round 1" in page
    assert 'id="fa-report"' in page  # the setup's reveal is the first replay frame


def test_the_live_check_explains_every_problem_and_stores_nothing(client, match, players):
    log_in(client, players[0])
    validate, _ = urls(match)
    response = client.post(validate, {"u-C-move": "ZZ", "u-1-fire": "a1", "d-repair": "1A"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert "would be refused" in body
    assert "units.C.move" in body and "units.1.fire" in body and "declare.repair" in body
    # ... each named in words, its field path kept for programs only (data-path).
    assert "<code>units.C.move</code>" not in body and "<code>declare.repair</code>" not in body
    assert "<strong>Declarations (once per game)</strong>:" in body
    assert 'hx-swap-oob="true"' in body  # the board is redrawn beside it
    # ... and each problem also lands next to the row it concerns.
    notes = re.search(r'<ul class="fa-row-notes" id="fa-notes-C" hx-swap-oob="true">(.*?)</ul>',
                      body, re.S)
    assert notes and "ZZ" in notes.group(1)
    assert not sealed(match).exists()


def test_a_valid_draft_is_drawn_on_the_board_and_written_as_text(client, match, players):
    log_in(client, players[0])
    validate, _ = urls(match)
    legal = GAME.legal_actions(match.state, 1)
    target = legal["units"]["C"]["fire"][0]
    response = client.post(validate, {"u-C-move": "F", "u-C-fire": target},
                           HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "These orders are valid" in body
    text = GAME.format_text(match.state, 1, GAME.validate(
        match.state, 1, {"units": {"C": {"move": "F", "fire": [target]}}}))
    assert text.splitlines()[0] in body
    assert 'class="fa-layer-plan"' in body


def test_a_turn_with_a_straight_move_is_accepted_with_a_warning(client, match, players):
    log_in(client, players[0])
    validate, _ = urls(match)
    body = client.post(validate, {"u-C-move": "F", "u-C-turn": "on"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "These orders are valid" in body
    assert "Check:" in body and "ignored" in body


def test_sealing_stores_the_sheet_and_shows_the_receipt(client, match, players):
    log_in(client, players[0])
    _, submit = urls(match)
    legal = GAME.legal_actions(match.state, 1)
    target = legal["units"]["1A"]["fire"][0]
    response = client.post(submit, {"phase_number": match.phase_number, "u-1A-move": "FL",
                                    "u-1A-turn": "on", "u-1A-fire": target},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    sheet = sealed(match).get(seat__number=1)
    assert sheet.data["units"]["1A"] == {"move": "FL", "turn": True, "fire": [target]}
    assert sheet.data["units"]["C"] == {"move": "stay", "turn": False, "fire": []}
    body = response.content.decode()
    assert sheet.receipt in body
    assert "Orders sealed (revision 1)" in body
    # The panel shows the sealed sheet again, ready to be changed: plain text fields (they
    # work without JavaScript), their choices sent once as data for the script's selects.
    assert re.search(r'<input type="text" name="u-1A-move" value="FL"', body)
    assert re.search(rf'<input type="text" name="u-1A-fire" value="{target}"', body)
    choices = panel_choices(body)
    assert ["FL", next(m["label"] for m in unit_moves(match, "1A") if m["value"] == "FL")] \
        in choices["u-1A-move"]
    assert [target, target] in choices["u-1A-fire"] and choices["u-1A-fire"][0] == [
        "", "hold fire"]

    response = client.post(submit, {"phase_number": match.phase_number},
                           HTTP_HX_REQUEST="true")
    sheet.refresh_from_db()
    assert sheet.revision == 2 and sheet.data["units"]["1A"]["move"] == "stay"


def test_the_kept_panel_shows_each_new_seal_and_a_working_csrf_field(match, players):
    """The page's panel is rendered once per open phase, seat and sealed sheet and then kept:
    a new seal shows at once, and its form carries the reader's own CSRF token."""
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    log_in(strict, players[0])
    page = reverse("games:match", args=[match.pk])
    _, submit = urls(match)

    def reload() -> tuple[str, str]:
        body = strict.get(page).content.decode()
        token = re.search(r'<form id="fa-sheet-form".*?name="csrfmiddlewaretoken" '
                          r'value="([^"]+)"', body, re.S)
        assert token, "no CSRF field in the order form"
        return body, token.group(1)

    body, token = reload()
    assert "Nothing sealed yet for this round" in body
    response = strict.post(submit, {"phase_number": match.phase_number, "u-1A-move": "FL",
                                    "csrfmiddlewaretoken": token})
    assert response.status_code == 302  # sealed (no HTMX: back to the page)
    body, token = reload()
    assert "Sealed: revision 1" in body
    assert re.search(r'<input type="text" name="u-1A-move" value="FL"', body)
    response = strict.post(submit, {"phase_number": match.phase_number,
                                    "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    body, _ = reload()
    assert "Sealed: revision 2" in body
    assert re.search(r'<input type="text" name="u-1A-move" value="stay"', body)
    # Without the token the form is refused: the field is what makes it pass.
    assert strict.post(submit, {"phase_number": match.phase_number}).status_code == 403


def test_a_refused_sheet_keeps_every_field_as_typed(client, match, players):
    log_in(client, players[0])
    _, submit = urls(match)
    response = client.post(submit, {"phase_number": match.phase_number, "u-C-move": "XX",
                                    "u-1-move": "F"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    body = response.content.decode()
    assert '<input type="text" name="u-C-move" value="XX"' in body
    assert "XX: not a move this unit can make" in body
    assert "XX" not in [value for value, _ in panel_choices(body)["u-C-move"]]
    assert '<input type="text" name="u-1-move" value="F"' in body
    assert not sealed(match).exists()


def test_without_htmx_a_sealed_sheet_redirects_and_a_refused_one_shows_the_page(
        client, match, players):
    log_in(client, players[0])
    _, submit = urls(match)
    response = client.post(submit, {"phase_number": match.phase_number, "u-C-move": "XX"})
    assert response.status_code == 400
    assert 'id="fa-sheet-form"' in response.content.decode()
    response = client.post(submit, {"phase_number": match.phase_number, "u-C-move": "F"})
    assert response.status_code == 302
    assert sealed(match).get(seat__number=1).data["units"]["C"]["move"] == "F"


@pytest.mark.parametrize("phase_number", ["", "abc", "0", "99"])
def test_a_sheet_for_another_round_is_refused(client, match, players, phase_number):
    log_in(client, players[0])
    _, submit = urls(match)
    response = client.post(submit, {"phase_number": phase_number}, HTTP_HX_REQUEST="true")
    assert response.status_code in (400, 409)
    assert not sealed(match).exists()


def test_another_players_seat_is_forbidden_and_strangers_are_sent_to_log_in(
        client, match, players):
    log_in(client, players[1])
    validate, submit = urls(match, seat=1)
    assert client.post(validate, {}).status_code == 403
    assert client.post(submit, {"phase_number": match.phase_number}).status_code == 403
    client.logout()
    response = client.post(submit, {"phase_number": match.phase_number})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not sealed(match).exists()


def test_when_the_match_is_over_the_sheet_answers_409(client, match, players):
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    log_in(client, players[0])
    validate, submit = urls(match)
    response = client.post(validate, {}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "not being played" in response.content.decode()


def test_the_other_side_never_sees_a_sealed_sheet(client, match, players):
    alice, bob = players
    legal = GAME.legal_actions(match.state, 1)
    target = legal["units"]["2B"]["fire"][-1]
    sheet = {"units": {"2B": {"move": "FR", "turn": True, "fire": [target]}}}
    receipt = orders_submit(match_id=match.pk, seat_number=1, user=alice,
                            phase_number=match.phase_number, data=sheet, source="web")
    alice_text = GAME.format_text(match.state, 1, GAME.validate(match.state, 1, sheet))
    log_in(client, bob)
    pages = [
        client.get(reverse("games:match", args=[match.pk])),
        client.get(reverse("games:submission_status", args=[match.pk])),
        client.get(reverse("games:history", args=[match.pk])),
        client.post(urls(match, seat=2)[0], {}, HTTP_HX_REQUEST="true"),
        client.get(reverse("games:replay", args=[match.pk, 1]), HTTP_HX_REQUEST="true"),
        client.get(reverse("games:match", args=[match.pk]) + "?replay=1"),
    ]
    for response in pages:
        body = response.content.decode()
        assert response.status_code == 200
        assert receipt.receipt not in body
        assert alice_text not in body
        assert "2B FR" not in body
        # Bob's own plan layer holds only his own (empty) plan.
        for plan in re.findall(r'<g class="fa-layer-plan">(.*?)</g>\s*</svg>', body, re.S):
            assert target not in plan
    client.logout()
    body = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert receipt.receipt not in body and alice_text not in body


def test_the_round_report_tells_what_happened_and_the_replay_steps_through(
        client, match, players):
    alice, bob = players
    play_round(match)
    play_round(match, {1: {"units": {"C": {"move": "F"}}}})
    log_in(client, alice)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "Round 2" in page and "3 of 3" in page
    assert "C moved" in page or "C " in page
    frame = client.get(reverse("games:replay", args=[match.pk, 1]),
                       HTTP_HX_REQUEST="true")
    assert frame.status_code == 200
    body = frame.content.decode()
    assert "Setup revealed" in body and "1 of 3" in body
    assert reverse("games:replay", args=[match.pk, 2]) in body
    # Only resolved phases can be replayed.
    for number in (0, 4, 99):
        response = client.get(reverse("games:replay", args=[match.pk, number]),
                              HTTP_HX_REQUEST="true")
        assert response.status_code == 404
    # Without HTMX the step is a link to the match page showing that frame.
    response = client.get(reverse("games:replay", args=[match.pk, 2]))
    assert response.status_code == 302 and response["Location"].endswith("?replay=2#fa-report")
    page = client.get(response["Location"]).content.decode()
    assert "Round 1" in page and "2 of 3" in page
    page = client.get(reverse("games:match", args=[match.pk]) + "?replay=77").content.decode()
    assert "3 of 3" in page  # an unknown frame: the latest round


def test_the_page_needs_the_same_number_of_queries_however_long_the_match(client, match,
                                                                           players):
    log_in(client, players[0])
    url = reverse("games:match", args=[match.pk])
    client.get(url)  # warm caches (sessions, content types)
    play_round(match)
    with CaptureQueriesContext(connection) as short:
        assert client.get(url).status_code == 200
    for _ in range(6):
        play_round(match)
    assert Phase.objects.filter(match=match).count() >= 8
    with CaptureQueriesContext(connection) as long:
        assert client.get(url).status_code == 200
    assert len(long.captured_queries) == len(short.captured_queries), [
        q["sql"] for q in long.captured_queries]
    assert len(long.captured_queries) <= 20


@pytest.fixture
def eager():
    """Celery tasks queued on commit run inline: the phase resolves inside the request."""
    from portal.celery import app

    old = {key: app.conf[key] for key in ("task_always_eager", "task_eager_propagates")}
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    app.conf.update(old)


@pytest.mark.django_db(transaction=True)
def test_a_seal_that_completes_the_round_takes_the_player_to_the_next_round(
        client, match, players, eager):
    """The seal that completes the round may be resolved before the answer is built: the
    answer is then the match page (with the receipt as a message), never a panel for the
    next round claiming nothing was sealed."""
    alice, bob = players
    orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=match.phase_number,
                  data={}, source="web")
    log_in(client, alice)
    _, submit = urls(match)
    # Committed for real: the resolution runs on commit, inside this request.
    response = client.post(submit, {"phase_number": match.phase_number, "u-C-move": "F"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:match", args=[match.pk])
    match.refresh_from_db()
    assert match.state["round"] == 2
    page = client.get(response["HX-Redirect"]).content.decode()
    assert "Orders sealed (revision 1)" in page
    assert "Your orders for round 2" in page


@pytest.mark.django_db(transaction=True)
def test_a_round_resolved_by_a_worker_while_the_panel_is_built_still_shows_the_receipt(
        client, match, players, monkeypatch):
    """A worker may resolve the round after the view saw it open and before the panel is
    built: the panel still shows the sheet just sealed and its receipt (seen once in CI)."""
    import games.views.access as access

    alice, bob = players
    orders_submit(match_id=match.pk, seat_number=2, user=bob, phase_number=match.phase_number,
                  data={}, source="web")
    number = match.phase_number
    checked = access.sealed_elsewhere

    def then_a_worker_resolves(*args, **kwargs):
        answer = checked(*args, **kwargs)
        phase_resolve(match_id=match.pk, phase_number=number)
        return answer

    monkeypatch.setattr(access, "sealed_elsewhere", then_a_worker_resolves)
    log_in(client, alice)
    _, submit = urls(match)
    response = client.post(submit, {"phase_number": number, "u-C-move": "F"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    sheet = Submission.objects.get(phase__match=match, phase__number=number, seat__number=1)
    assert sheet.phase.status != Phase.Status.OPEN
    body = response.content.decode()
    assert sheet.receipt in body
    assert "Orders sealed (revision 1)" in body
