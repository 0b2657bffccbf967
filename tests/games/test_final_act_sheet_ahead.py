"""Final Act's sheets entered ahead (docs/conditional-orders.md): a seat enters its sheet for
the next round under conditions in the game's terms (a unit still on the board, a unit on a
square, an enemy unit within a distance), checked against the position after the round
resolves: submitted then (sealed, source "conditional") if every one holds, else discarded
with a notice; a sheet the engine refuses then is dropped with a notice."""

from __future__ import annotations

import pytest
from django.urls import reverse

import engine
from durable.models import OutboxEvent
from engine import RuleError
from games import services
from games.models import ConditionalSheet, Match, Submission
from games.services import ServiceError
from tests.helpers import client_for, play_round

pytestmark = pytest.mark.django_db

HOLD = {"units": {"C": {"move": "stay"}}}


@pytest.fixture
def round_one(make_user):
    """A Final Act match at its first round of orders (the default setups played)."""
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(creator=ann, game="final-act", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    match.players = {1: ann, 2: ben}
    play_round(match)
    assert match.state["phase"] == "orders" and match.phase_number == 2
    return match


def ahead(match, conditions, **sheet):
    return services.sheet_ahead_set(match_id=match.pk, seat_number=1, user=match.players[1],
                                    conditions=conditions, **(sheet or {"data": HOLD}))


def nothing_promised() -> bool:
    """The resolution carried out the sheets entered ahead itself, in its own transaction:
    no task is left to do it after the commit (the mails of the phase could race it)."""
    return not OutboxEvent.objects.filter(name="games.tasks.sheets_follow").exists()


def own_square(match, name: str) -> str:
    return next(u["at"] for u in match.state["units"] if u["seat"] == 1 and u["name"] == name)


def test_a_sheet_whose_conditions_hold_is_submitted_when_the_round_resolves(round_one):
    match = round_one
    ahead(match, [{"kind": "unit_on_board", "unit": "C"},
                  {"kind": "unit_at", "unit": "c", "square": own_square(match, "C")},
                  {"kind": "enemy_within", "unit": "C", "distance": 12}])
    assert Match.objects.get(pk=match.pk).sheets_ahead
    play_round(match)  # round 1 resolves: everybody stays
    assert nothing_promised()
    sheet = Submission.objects.get(phase__match=match, phase__number=3, seat__number=1)
    assert sheet.source == Submission.Source.CONDITIONAL and sheet.receipt
    row = ConditionalSheet.objects.get()
    assert row.data is None and row.notice == {"reason": "submitted", "phase": 3}
    assert not Match.objects.get(pk=match.pk).sheets_ahead
    assert services.sheets_follow(match_id=match.pk, phase_number=3) == 0  # once
    assert Submission.objects.get(pk=sheet.pk).revision == 1


def test_a_sheet_whose_condition_fails_is_discarded_with_a_notice(round_one):
    match = round_one
    ahead(match, [{"kind": "unit_at", "unit": "C", "square": "a1"}], text="C stay")
    play_round(match)
    assert nothing_promised()
    assert not Submission.objects.filter(phase__number=3, seat__number=1).exists()
    notice = ConditionalSheet.objects.get().notice
    assert notice["reason"] == "conditions" and notice["failed"][0]["square"] == "a1"


def test_a_sheet_the_engine_refuses_then_is_dropped_with_a_notice(round_one):
    match = round_one
    ahead(match, [], data={"units": {"ZZ": {"move": "fly"}}})
    play_round(match)
    assert ConditionalSheet.objects.get().notice["reason"] == "illegal"
    assert not Submission.objects.filter(phase__number=3, seat__number=1).exists()


def test_a_sheet_the_seat_sent_itself_meanwhile_wins(round_one):
    """(Only the task a failed resolution-time check promises can find one: the sheet
    entered ahead is otherwise submitted before the phase is open to anyone.)"""
    match = round_one
    ahead(match, [], data={"units": {"ZZ": {"move": "fly"}}})
    play_round(match)
    services.orders_submit(match_id=match.pk, seat_number=1, user=match.players[1],
                           phase_number=3, data=HOLD, source="web")
    ConditionalSheet.objects.update(data={"data": HOLD}, for_phase=3, notice=None)
    assert services.sheets_follow(match_id=match.pk, phase_number=3) == 0
    assert ConditionalSheet.objects.get().notice["reason"] == "sent"
    assert Submission.objects.get(phase__number=3, seat__number=1).source == "web"


def test_the_seat_may_still_change_a_sheet_submitted_ahead(round_one):
    match = round_one
    ahead(match, [])
    play_round(match, resolve=True)
    receipt = services.orders_submit(match_id=match.pk, seat_number=1,
                                     user=match.players[1], phase_number=3, data=HOLD,
                                     source="web")
    assert receipt.revision == 2
    assert Submission.objects.get(phase__number=3, seat__number=1).source == "web"


def test_the_your_move_mail_says_the_sheet_ahead_was_submitted_to_its_seat_alone(round_one):
    from portal.mail.services.notify import phase_email_content

    match = round_one
    ahead(match, [{"kind": "unit_on_board", "unit": "C"}])
    play_round(match)
    phase = match.phases.get(number=3)
    mine = phase_email_content(match=match, phase=phase, seat=match.seats.get(number=1))
    theirs = phase_email_content(match=match, phase=phase, seat=match.seats.get(number=2))
    said = "Your sheet entered ahead was submitted for phase 3: every condition held."
    assert said in " ".join(mine["body_text"].split()) and said in mine["body_html"]
    assert "entered ahead" not in theirs["body_text"] + theirs["body_html"]
    page = client_for(match.players[1]).get(reverse("games:match", args=[match.pk]))
    assert said in page.content.decode()
    assert said not in client_for(match.players[2]).get(
        reverse("games:match", args=[match.pk])).content.decode()
    play_round(match)  # the next round: said no more
    assert "entered ahead" not in phase_email_content(
        match=match, phase=match.phases.get(number=4),
        seat=match.seats.get(number=1))["body_text"]


def test_the_your_move_mail_says_why_the_sheet_ahead_was_discarded(round_one):
    from django.utils import translation

    from portal.accounts.notifications import profile_of
    from portal.mail.services.notify import phase_email_content

    match = round_one
    ahead(match, [{"kind": "unit_at", "unit": "C", "square": "a1"}])
    play_round(match)
    phase, seat = match.phases.get(number=3), match.seats.get(number=1)
    body = " ".join(phase_email_content(match=match, phase=phase, seat=seat)["body_text"]
                    .split())
    assert "Your sheet entered ahead for phase 3 was discarded because this did not" in body
    assert "C stands on a1" in body
    profile = profile_of(seat.user)
    profile.language = "fr"
    profile.save()
    with translation.override("en"):
        french = phase_email_content(match=match, phase=phase, seat=seat)["body_text"]
    assert "a été écartée parce que" in " ".join(french.split())


def test_conditions_are_checked_for_their_shape_and_nobody_else_enters_one(round_one):
    match = round_one
    with pytest.raises(ServiceError) as caught:
        ahead(match, [{"kind": "enemy_within", "unit": "C", "distance": 99},
                      {"kind": "teleported"}])
    assert [p.path for p in caught.value.problems] == ["0.distance", "1.kind"]
    with pytest.raises(ServiceError) as caught:
        services.sheet_ahead_set(match_id=match.pk, seat_number=1, user=match.players[2],
                                 conditions=[], data=HOLD)
    assert caught.value.code == "not_your_seat"
    assert not ConditionalSheet.objects.exists()


def test_the_engine_offers_its_conditions_and_a_game_without_offers_none():
    final_act, duel = engine.get("final-act"), engine.get("toy-duel")
    assert final_act.sheet_conditions == ("unit_on_board", "unit_at", "enemy_within")
    assert duel.sheet_conditions == ()
    with pytest.raises(RuleError):
        duel.condition_normalize(1, {"kind": "unit_on_board", "unit": "C"})


def test_the_api_enters_reads_and_withdraws_my_sheet_ahead_and_nobody_elses(round_one):
    import json

    from django.test import Client

    from portal.api.services import api_token_create

    def client(user):
        token = api_token_create(user=user, name="t").token
        return Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    match, ann, ben = round_one, round_one.players[1], round_one.players[2]
    url = f"/api/v1/matches/{match.pk}/sheet-ahead"
    put = client(ann).put(url, json.dumps({"conditions": [{"kind": "unit_on_board",
                                                           "unit": "C"}],
                                           "text": "C stay"}),
                          content_type="application/json")
    assert put.status_code == 200, put.content
    body = put.json()
    assert body["for_phase"] == 3 and body["sheet"] == {"text": "C stay"}
    assert body["conditions_offered"] == ["unit_on_board", "unit_at", "enemy_within"]
    theirs = client(ben).get(url).json()
    assert theirs["seat"] == 2 and theirs["sheet"] is None and theirs["conditions"] == []
    for path in ("", "/prompt"):
        assert "unit_on_board" not in client(ben).get(
            f"/api/v1/matches/{match.pk}{path}").content.decode()
    bad = client(ann).put(url, json.dumps({"conditions": [{"kind": "nope"}], "data": {}}),
                          content_type="application/json")
    assert bad.status_code == 400 and bad.json()["problems"][0]["path"] == "0.kind"
    gone = client(ann).delete(url)
    assert gone.status_code == 200 and gone.json()["sheet"] is None
    assert not ConditionalSheet.objects.exists()


def test_the_panel_enters_the_sheet_in_words_and_only_its_seat_sees_it(round_one, make_user):
    from django.urls import reverse
    from django.utils import translation

    from tests.helpers import as_moderator, client_for

    match = round_one
    page_url = reverse("games:match", args=[match.pk])
    ann = client_for(match.players[1])
    assert "Next phase ahead" in ann.get(page_url).content.decode()
    saved = ann.post(reverse("games:sheet_ahead_save", args=[match.pk, 1]),
                     {"conditions": "C on board\nenemy within 12 of C",
                      "sheet": "C stay  # AHEAD-SECRET"}, HTTP_HX_REQUEST="true")
    assert saved.status_code == 200, saved.content.decode()
    body = saved.content.decode()
    assert "C is still on the board" in body and "an enemy unit is within 12 squares of C" in body
    bad = ann.post(reverse("games:sheet_ahead_save", args=[match.pk, 1]),
                   {"conditions": "C flies", "sheet": ""}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "line 1" in bad.content.decode()
    for other in (client_for(match.players[2]), client_for(None),
                  client_for(as_moderator(make_user("mod")))):
        shown = other.get(page_url).content.decode()
        assert "AHEAD-SECRET" not in shown and "still on the board" not in shown
    assert client_for(match.players[2]).post(
        reverse("games:sheet_ahead_clear", args=[match.pk, 1])).status_code == 403
    with translation.override("fr"):
        french = client_for(match.players[1], HTTP_ACCEPT_LANGUAGE="fr").get(page_url)
    assert "La phase suivante d'avance" in french.content.decode()
    gone = ann.post(reverse("games:sheet_ahead_clear", args=[match.pk, 1]),
                    HTTP_HX_REQUEST="true")
    assert gone.status_code == 200 and not ConditionalSheet.objects.exists()
