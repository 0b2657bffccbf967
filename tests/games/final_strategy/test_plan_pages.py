"""The "Plan ahead" panel of the match page: shown to the seat's own player only, a plan
written, shown in words, refused with the line that is wrong, cleared; in French too. The
plan is never on another seat's page, a spectator's, a moderator's, nor in the timeline."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import ConditionalPlan, Match
from tests.helpers import as_moderator, client_for, submit

pytestmark = pytest.mark.django_db

PLAN = "if Red: wall e5-e6 then wall c3-c4\n  if Red: wall g7-g8 then wall a9-b9"


@pytest.fixture
def fs_match(make_user):
    users = [make_user(name) for name in ("ann", "ben", "cat")]
    match = services.match_create(creator=users[0], game="final-strategy", options={},
                                  hours_per_phase=12, is_public=True,
                                  seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    return match


def page(client, match) -> str:
    return client.get(reverse("games:match", args=[match.pk])).content.decode()


def save(client, match, seat, text, **headers):
    return client.post(reverse("games:plan_save", args=[match.pk, seat]), {"plan": text},
                       **headers)


def test_a_plan_is_written_shown_in_words_and_cleared(fs_match):
    ben = client_for(fs_match.players[2])
    assert 'id="plan"' in page(ben, fs_match) and "You have no plan." in page(ben, fs_match)
    answer = save(ben, fs_match, 2, PLAN)
    assert answer.status_code == 302
    shown = page(ben, fs_match)
    assert "If Red plays “wall e5-e6”, play “wall c3-c4”." in shown
    assert 'class="plan-depth-1"' in shown and "Clear the plan" in shown
    panel = save(ben, fs_match, 2, PLAN, HTTP_HX_REQUEST="true")
    assert panel.status_code == 200 and "Your plan is stored" in panel.content.decode()
    cleared = ben.post(reverse("games:plan_clear", args=[fs_match.pk, 2]), HTTP_HX_REQUEST="true")
    assert cleared.status_code == 200 and "Your plan is cleared." in cleared.content.decode()
    assert not ConditionalPlan.objects.exists()


def test_a_plan_that_cannot_be_read_comes_back_with_the_line_that_is_wrong(fs_match):
    ben = client_for(fs_match.players[2])
    refused = save(ben, fs_match, 2, "if Red: wall e5-e6 then sing", HTTP_HX_REQUEST="true")
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "line 1" in body and "then sing" in body and 'role="alert"' in body
    whole = save(ben, fs_match, 2, "if Red: wall e5-e6 then sing")
    assert whole.status_code == 400 and "then sing" in whole.content.decode()
    assert not ConditionalPlan.objects.exists()


def test_a_plan_is_played_and_its_notice_shown_to_its_seat(fs_match):
    ben = client_for(fs_match.players[2])
    save(ben, fs_match, 2, "if Red: wall e5-e6 then wall c3-c4")
    submit(fs_match, fs_match.players[1], 1, data={"steps": [{"barrier": "d4-e4"}]})
    shown = page(ben, fs_match)
    assert "Your plan was cleared in phase 2: Red played “wall d4-e4”" in shown


def test_only_the_seats_player_sees_or_changes_its_plan(fs_match, make_user):
    save(client_for(fs_match.players[2]), fs_match, 2, PLAN)
    secret = "wall a9-b9"
    ann = client_for(fs_match.players[1])
    assert secret not in page(ann, fs_match)
    assert ann.post(reverse("games:plan_save", args=[fs_match.pk, 2]),
                    {"plan": ""}).status_code == 403
    assert ann.post(reverse("games:plan_clear", args=[fs_match.pk, 2])).status_code == 403
    assert ann.get(reverse("games:plan", args=[fs_match.pk, 2])).status_code == 403
    assert ConditionalPlan.objects.count() == 1
    assert secret not in page(client_for(None), fs_match)
    moderator = client_for(as_moderator(make_user("mod")))
    assert secret not in page(moderator, fs_match)
    timeline = moderator.get(reverse("timeline:timeline", args=[fs_match.pk]))
    assert secret not in timeline.content.decode()
    submit(fs_match, fs_match.players[1], 1, data={"steps": [{"barrier": "e5-e6"}]})
    for client in (ann, client_for(None), moderator):
        shown = page(client, fs_match)
        assert secret not in shown and "Played from" not in shown
        assert "conditional" not in shown and (client is ann or 'id="plan"' not in shown)


def test_the_panel_speaks_french(fs_match):
    ben = client_for(fs_match.players[2])
    save(ben, fs_match, 2, "if Red: wall e5-e6 then wall c3-c4")
    with translation.override("fr"):
        shown = ben.get(reverse("games:match", args=[fs_match.pk]),
                        HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Prévoir ses coups" in shown and "Si Rouge joue « wall e5-e6 »" in shown


def test_no_panel_for_a_game_without_plans(toy_duel):
    match = toy_duel()
    assert 'id="plan"' not in page(client_for(match.alice), match)
    assert Match.objects.get(pk=match.pk).status == "active"


def test_a_plan_is_written_in_french_words_too(fs_match):
    ben = client_for(fs_match.players[2], HTTP_ACCEPT_LANGUAGE="fr")
    answer = ben.post(reverse("games:plan_save", args=[fs_match.pk, 2]),
                      {"plan": "si Rouge : mur e5-e6 alors mur c3-c4"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content.decode()
    assert "Votre plan est enregistré" in answer.content.decode()
    assert ConditionalPlan.objects.get().tree[0]["when"][0]["seat"] == 1


def test_the_seat_reads_in_its_timeline_that_its_move_came_from_its_plan(fs_match):
    ben = client_for(fs_match.players[2])
    save(ben, fs_match, 2, "if Red: wall e5-e6 then wall c3-c4")
    submit(fs_match, fs_match.players[1], 1, data={"steps": [{"barrier": "e5-e6"}]})
    timeline = ben.get(reverse("timeline:timeline", args=[fs_match.pk])).content.decode()
    assert "Your move was played from your plan." in timeline
    other = client_for(fs_match.players[1]).get(reverse("timeline:timeline",
                                                        args=[fs_match.pk]))
    assert "plan" not in other.content.decode().split("<main")[-1].lower()
