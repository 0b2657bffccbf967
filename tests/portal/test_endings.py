"""How a match ended reads the same on every surface (issue 42): for each way a match ends
(the rules, a forfeit, nobody left to act, a draw by agreement, a cancel, a concession), the
home page, the match page, the result mail, the push, the webhook, the API and the record
say the status and the sentence of ``games.endings``, in English and in French.

The matches end through the services players and the lifecycle use; "nobody left to act"
(which the Toy Duel cannot reach: its seats always have a move) is finished with the same
builder and status change the lifecycle uses."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from engine.ending import by_nobody
from engine.record import verify_record
from games import records, services
from games.endings import ending_of, ending_sentence, ending_status, ending_words
from games.models import Match, Phase
from games.services.match import match_set_status
from portal.accounts.services import profile_update
from portal.api.services import api_token_create
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import match_ended_notify
from portal.push.models import PushMessage, PushSubscription
from portal.push.services.notify import match_ended_push
from portal.webhooks import messages
from tests.helpers import client_for, submit

pytestmark = pytest.mark.django_db

WAYS = ["rules", "forfeit", "nobody", "agreement", "cancel", "concession"]
LANGUAGES = ["en-gb", "fr"]


def ended(toy_duel, way: str) -> Match:
    """A Toy Duel (North: alice, South: bob) ended ``way``."""
    match = toy_duel(options={"target": 1}) if way != "forfeit" else toy_duel(
        options={"target": 3}, miss_limit=1, miss_policy="forfeit")
    alice, bob = match.alice, match.bob
    if way in ("rules", "forfeit"):
        submit(match, alice, 1, 5)
        if way == "rules":
            submit(match, bob, 2, 2)
        else:  # bob misses the deadline
            past = match.deadline.replace(year=2000)
            Match.objects.filter(pk=match.pk).update(deadline=past)
            Phase.objects.filter(match=match, status="open").update(deadline=past)
        services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
    elif way == "nobody":
        match.result = by_nobody().as_json()
        match_set_status(match=match, new_status=Match.Status.FINISHED,
                         note="no prompts left", events=[], save=False)
        match.save()
    elif way in ("agreement", "cancel"):
        proposal = services.vote_propose(match_id=match.pk, user=bob,
                                         kind="draw" if way == "agreement" else "cancel")
        services.vote_cast(match_id=match.pk, vote_id=proposal.pk, user=alice, yes=True)
    else:
        services.seat_concede(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert ending_of(match).how == way
    return match


def said(match: Match, language: str) -> tuple[str, str]:
    """The status and the sentence every surface must say, in ``language``."""
    with translation.override(language):
        ending = ending_of(match)
        return ending_status(match.game, ending), ending_sentence(match.game, ending)


def reads_in(user, language: str) -> None:
    profile_update(user=user, language=language)


@pytest.fixture(params=LANGUAGES)
def language(request):
    return request.param


@pytest.mark.parametrize("way", WAYS)
def test_the_home_page(toy_duel, way, language):
    match = ended(toy_duel, way)
    reads_in(match.alice, language)
    _status, sentence = said(match, language)
    page = client_for(match.alice).get(reverse("home")).content.decode()
    assert escape(sentence) in page


@pytest.mark.parametrize("way", WAYS)
def test_the_match_page(toy_duel, way, language):
    match = ended(toy_duel, way)
    status, sentence = said(match, language)
    page = Client().get(reverse("games:match", args=[match.pk]),
                        HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<strong id="result-status">{escape(status)}</strong>' in page
    assert f'<span id="result-ending">{escape(sentence)}</span>' in page


@pytest.mark.parametrize("way", WAYS)
def test_the_result_mail_and_the_push(toy_duel, way, language):
    match = ended(toy_duel, way)
    reads_in(match.alice, language)
    PushSubscription.objects.create(user=match.alice, endpoint="https://push.example.test/a",
                                    p256dh="k" * 87, auth="a" * 22)
    status, sentence = said(match, language)
    with translation.override(language):
        words = ending_words(match)
    assert words == f"{status} {sentence}"
    assert match_ended_notify(match_id=match.pk, status=match.status) >= 1
    mail = OutgoingEmail.objects.get(to=match.alice.email, kind="match_ended")
    assert words in mail.body_text and escape(words) in mail.body_html
    assert match_ended_push(match_id=match.pk) == 1
    assert PushMessage.objects.get(subscription__user=match.alice).payload["body"] == words


@pytest.mark.parametrize("way", WAYS)
def test_the_webhook(toy_duel, way, language):
    match = ended(toy_duel, way)
    status, sentence = said(match, language)
    with translation.override(language):
        message = messages.match_ended(match=match)
    text = message.plain()
    assert sentence in text
    ending = ending_of(match)
    if ending.winners and not ending.is_draw:  # the winners by player (a chat mentions them)
        assert [p.name for p in message.players] == [match.alice.username]
    else:
        assert status in text
    assert message.data["ending"]["how"] == way
    assert message.data["ending"] == match.result["ending"]


@pytest.mark.parametrize("way", WAYS)
def test_the_api(toy_duel, way, language):
    match = ended(toy_duel, way)
    status, sentence = said(match, language)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=match.bob, name='t').token}",
                 HTTP_ACCEPT_LANGUAGE=language)
    result = api.get(f"/api/v1/matches/{match.pk}/result").json()
    assert (result["how"], result["outcome"], result["ending"]) == (way, status, sentence)
    assert result["result"]["ending"]["how"] == way
    detail = api.get(f"/api/v1/matches/{match.pk}").json()
    assert detail["ending"] == f"{status} {sentence}"


@pytest.mark.parametrize("way", [way for way in WAYS if way != "cancel"])  # (no record)
def test_the_record(toy_duel, way, language):
    match = ended(toy_duel, way)
    status, sentence = said(match, language)
    record = records.match_record(match)
    assert record["result"]["ending"]["how"] == way
    with translation.override(language):
        assert f"{status} {sentence}" in records.record_text(match, record)
    if way != "nobody":  # (finished here without the lifecycle's last phase)
        assert verify_record(record)["ok"]
        # A record made before results carried their ending still verifies.
        old = {**record, "result": {key: value for key, value in record["result"].items()
                                    if key != "ending"}}
        assert verify_record(old)["ok"]
        old["result"]["reason"] = "Something else."
        assert not verify_record(old)["result_matches"]


def test_nobody_left_to_act_is_no_result_everywhere(toy_duel):
    """Not a draw: the home page, mail and webhook said "Finished" or "draw" before."""
    match = ended(toy_duel, "nobody")
    status, sentence = said(match, "en-gb")
    assert status == "No result." and sentence == "Nobody had anything left to do."
    home = client_for(match.alice).get(reverse("home")).content.decode()
    assert "No result" in home and "Draw" not in home
    with translation.override("en-gb"):
        assert "draw" not in messages.match_ended(match=match).plain().lower()
        assert "draw" not in ending_words(match).lower()
