"""Final Strategy on the pages: the SVG board, the step-by-step check, sealing a turn, the
rules page; bad input is refused with 4xx and no seat sees another's bunker split."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Match

pytestmark = pytest.mark.django_db

SCENARIO = {"bunkers": {"1": {"troops": 17, "kidnappers": 2, "bombs": 1},
                        "2": {"troops": 19, "kidnappers": 3, "bombs": 1}},
            "barriers": ["c3-c4", "c3-d3", "b3-c3"]}


@pytest.fixture
def fs_match(make_user):
    users = [make_user(n) for n in ("ann", "ben", "cat")]
    match = services.match_create(
        creator=users[0], game="final-strategy", options={"scenario": SCENARIO},
        hours_per_phase=12, seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    return match


def check_url(match, seat):
    return reverse("games:fs_turn_check", args=[match.pk, seat])


def submit_url(match, seat):
    return reverse("games:fs_turn_submit", args=[match.pk, seat])


def test_the_player_to_move_gets_a_clickable_board(client, fs_match):
    client.force_login(fs_match.players[1])
    page = client.get(reverse("games:match", args=[fs_match.pk])).content.decode()
    assert 'class="fs-board fs-interactive"' in page
    assert 'data-edge="c2-c3"' in page and 'data-square="e5"' in page
    assert check_url(fs_match, 1) in page
    assert "17 troops, 2 kidnappers, 1 bomb)" in page


def test_no_seat_sees_another_seats_bunker_split(client, fs_match):
    for seat in (2, 3):
        client.force_login(fs_match.players[seat])
        page = client.get(reverse("games:match", args=[fs_match.pk])).content.decode()
        assert "17 troops" not in page and "2 kidnappers" not in page
        # No turn to build (the plan's own board, id fs-plan-board, builds no turn).
        assert 'id="fs-play"' not in page and 'id="fs-board"' not in page
        assert check_url(fs_match, seat) not in page
    client.logout()
    match = Match.objects.get(pk=fs_match.pk)
    match.is_public = True
    match.save(update_fields=["is_public"])
    page = client.get(reverse("games:match", args=[fs_match.pk])).content.decode()
    assert "17 troops" not in page and "19 troops" not in page


def test_each_step_is_checked_by_the_engine(client, fs_match):
    client.force_login(fs_match.players[1])
    answer = client.post(check_url(fs_match, 1), {"steps": json.dumps([{"barrier": "e4-d4"}])})
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] and body["ended"] is True and body["steps"] == [{"barrier": "d4-e4"}]
    assert body["text"] == "wall d4-e4" and 'data-edge="d4-e4"' in body["board"]
    answer = client.post(check_url(fs_match, 1), {"steps": json.dumps([{"barrier": "c2-c3"}])})
    body = answer.json()
    assert body["ended"] is False and "c3" in " ".join(body["story"])
    answer = client.post(check_url(fs_match, 1), {"steps": json.dumps(
        [{"barrier": "c2-c3"}, {"barrier": "h8-h9"}])})
    assert answer.json()["ended"] is True


@pytest.mark.parametrize("steps", ["not json", json.dumps({"steps": 1}),
                                   json.dumps([{"barrier": "c3-c4"}]),
                                   json.dumps([{"barrier": "a1-c5"}]),
                                   json.dumps([{"fly": "a1"}])])
def test_bad_steps_are_refused_with_400(client, fs_match, steps):
    client.force_login(fs_match.players[1])
    answer = client.post(check_url(fs_match, 1), {"steps": steps})
    assert answer.status_code == 400 and answer.json()["ok"] is False


def test_another_seat_or_a_seat_not_to_move_is_refused(client, fs_match):
    client.force_login(fs_match.players[2])
    steps = {"steps": json.dumps([{"barrier": "h8-h9"}])}
    assert client.post(check_url(fs_match, 1), steps).status_code == 403
    assert client.post(check_url(fs_match, 2), steps).status_code == 409
    assert client.post(submit_url(fs_match, 2), steps).status_code == 409
    assert client.get(check_url(fs_match, 2)).status_code == 405


def test_a_finished_turn_is_sealed_at_once(client, fs_match):
    client.force_login(fs_match.players[1])
    steps = json.dumps([{"barrier": "c2-c3"}, {"barrier": "h8-h9"}])
    answer = client.post(submit_url(fs_match, 1), {"steps": steps, "phase_number": 1})
    assert answer.status_code == 200 and answer.json()["ok"]
    match = Match.objects.get(pk=fs_match.pk)
    assert match.state["to_move"] == 2 and {"at": "c3", "kind": "troop", "seat": 1} in \
        match.state["pieces"]


def test_an_unfinished_turn_is_not_sealed(client, fs_match):
    client.force_login(fs_match.players[1])
    answer = client.post(submit_url(fs_match, 1), {
        "steps": json.dumps([{"barrier": "c2-c3"}]), "phase_number": 1})
    assert answer.status_code == 400
    assert answer.json()["problems"][0]["path"] == "steps.1"
    assert Match.objects.get(pk=fs_match.pk).state["to_move"] == 1


def test_the_replay_shows_every_turn_on_the_board(client, fs_match):
    client.force_login(fs_match.players[1])
    client.post(submit_url(fs_match, 1), {"steps": json.dumps([{"barrier": "h8-h9"}]),
                                          "phase_number": 1})
    page = client.get(reverse("games:match", args=[fs_match.pk]) + "?replay=1").content.decode()
    assert "placed a barrier on h8-h9" in page and "fs-board" in page


def test_the_rules_page(client):
    page = client.get(reverse("games:rules", args=["final-strategy"])).content.decode()
    assert "How to play Final Strategy" in page and "kidnapper" in page


def test_the_rules_page_in_french(client):
    """The rules page in French, chosen in the footer (Django's set_language cookie)."""
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    page = client.get(reverse("games:rules", args=["final-strategy"])).content.decode()
    assert "Comment jouer à Final Strategy" in page and "ravisseur" in page
    assert '<html lang="fr">' in page


def test_the_match_page_and_board_text_in_french(client, fs_match):
    """The game's page and panels in the language of the profile."""
    from portal.accounts.services import profile_update

    profile_update(user=fs_match.players[1], language="fr")
    client.force_login(fs_match.players[1])
    page = client.get(reverse("games:match", args=[fs_match.pk])).content.decode()
    assert "À vous de jouer" in page and "17 troupes, 2 ravisseurs, 1 bombe)" in page
    assert "Tour 1 : au joueur 1 de jouer" in page


def test_a_finished_boards_end_reason_in_french(fs_match):
    """The board's caption tells why the game ended in the reader's language (the engine
    keeps the reason in English)."""
    from django.utils import translation

    from games.plugins import plugin_for

    state = {**fs_match.state, "over": True, "to_move": None,
             "reason": "the turn limit (2) was reached"}
    with translation.override("fr"):
        board = plugin_for("final-strategy").board_for(fs_match, state, None, live=False)
    assert "<caption>La partie est terminée : la limite de tours (2) est atteinte</caption>" \
        in board


def test_the_profile_offers_a_language(client, make_user):
    user = make_user("dee")
    client.force_login(user)
    page = client.get(reverse("accounts_profile")).content.decode()
    assert 'name="language"' in page and "Français" in page


def test_a_four_player_match_is_created_in_the_lobby_with_bots_filling_seats(client, make_user):
    """The lobby's create form offers 2-4 seats and the two bots; the bots in seats 2-4 play
    their turns as soon as it is theirs (sequential phases)."""
    user = make_user("eve")
    client.force_login(user)
    form = client.get(reverse("games:match_create") + "?game=final-strategy&seat_count=4")
    assert "Greedy bot" in form.content.decode() and "2–4 seats" in form.content.decode()
    response = client.post(reverse("games:match_create"), {
        "game": "final-strategy", "title": "Four", "seat_count": "4", "seat_1": "me",
        "seat_2": "bot:greedy", "seat_3": "bot:random", "seat_4": "bot:greedy",
        "options": json.dumps({"turn_limit": None}),
        "options_game": "final-strategy", "hours_per_phase": "24", "miss_policy": "replace",
        "miss_limit": "3", "is_public": "on"})
    assert response.status_code == 302
    match = Match.objects.get(title="Four")
    assert match.status == Match.Status.ACTIVE and match.state["seats"] == 4
    assert match.seats.filter(bot__in=["greedy", "random"]).count() == 3


def test_email_problems_name_the_line_of_the_step():
    """A refused e-mailed turn: ``steps.N`` is told as the line the N-th step is on."""
    from engine import Problem
    from games.plugins import plugin_for

    text = "> quoted\nwall c2-c3\n\nwall h8-h9; bomb a1"
    lines = plugin_for("final-strategy").problem_lines(
        [Problem("steps.2", "The turn has already ended."), Problem("steps.0", "x"),
         Problem("line 7", "y"), Problem("steps.9", "z")], text)
    assert lines == ["Line 4: The turn has already ended.", "Line 2: x", "Line 7: y",
                     "Line 4: z"]


def test_the_rules_diagrams_are_played_by_the_engine(client):
    """The rules page's examples are real positions before and after a turn."""
    page = client.get(reverse("games:rules", args=["final-strategy"])).content.decode()
    assert page.count('class="fs-board"') == 6
    after_kidnap = page.split('id="fs-rules-0-after"')[1].split("</svg>")[0]
    assert 'data-square="d4"' in after_kidnap and "fs-kidnapper" in after_kidnap
    assert after_kidnap.count("fs-troop") == 1  # b3 only
    after_bomb = page.split('id="fs-rules-1-after"')[1].split("</svg>")[0]
    assert 'class="fs-edge fs-wall" data-edge="f7-g7"' not in after_bomb
    assert 'class="fs-edge fs-wall" data-edge="g5-g6"' in after_bomb
