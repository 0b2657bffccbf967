"""The timeline tells the mails of a vote's or of messages' notice as a whole to a moderator:
how many players, never which seats, since the mails of a secret proposal skip its proposer,
whom every page hides while it is open (issue 49, finding 4); and every kind of mail and push
it lists is worded in the reader's language, never as its stored key."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from durable import outbox
from durable.models import OutboxEvent
from games import services
from portal.mail.models import OutgoingEmail
from portal.push.models import PushMessage
from portal.timeline.selectors import MAIL_KINDS, PUSH_KINDS
from tests.helpers import as_moderator
from tests.portal.builders import PASSWORD, make_user
from tests.portal.timeline.conftest import device

pytestmark = pytest.mark.django_db

SEATS = ("Red", "Blue", "Green")


def dispatch() -> None:
    """Carry out every promised side effect (the vote's mails), as the workers do."""
    while ids := list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk",
                                                                                 flat=True)):
        outbox.outbox_dispatch(ids=ids)


def strategy():
    users = [make_user(name) for name in ("rouge", "bleu", "vert")]
    match = services.match_create(creator=users[0], game="final-strategy", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in users])
    match.users = users
    return match


def timeline(match, user, language="en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.login(username=user.username, password=PASSWORD)
    answer = client.get(reverse("timeline:timeline", args=[match.pk]))
    assert answer.status_code == 200
    return html.unescape(re.sub(r"\s+", " ", answer.content.decode()))


def seats_named_with(text: str, words: str) -> set[str]:
    """The seats an entry holding ``words`` names."""
    entries = [part for part in re.split(r"<[^>]+>", text) if words in part]
    return {seat for seat in SEATS for entry in entries if seat in entry}


@pytest.mark.parametrize("proposer", [1, 2, 3])
def test_a_moderator_cannot_tell_a_secret_proposals_proposer_from_its_mails(proposer):
    match = strategy()
    mod = as_moderator(make_user("mod", staff=True))
    services.vote_propose(match_id=match.pk, user=match.users[proposer - 1], kind="draw",
                          secret=True)
    dispatch()
    mailed = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.VOTE)
    assert mailed.count() == 2  # everyone but the proposer: what the timeline must not tell
    assert match.users[proposer - 1].pk not in set(mailed.values_list("user_id", flat=True))

    text = timeline(match, mod)
    # Each mail named its seat: the one seat missing was the proposer.
    assert "vote to the player of" not in text, text[text.find("vote to"):][:200]
    assert "Mail about a vote to end the match or a concession to 2 players: 2 waiting to be " \
           "sent." in text
    vote_label = "Mail about a vote"
    assert seats_named_with(text, vote_label) == set()
    assert ": vote " not in text
    # The same in French, where every kind is worded too.
    french = timeline(match, mod, "fr")
    with translation.override("fr"):
        label = str(MAIL_KINDS["vote"])
    assert label != "Mail about a vote to end the match or a concession"
    assert f"{label} à 2 joueurs" in french
    assert "Mail about" not in french


def test_a_player_sees_every_kind_of_their_mail_and_push_in_words_in_english_and_french():
    match = strategy()
    rouge = match.users[0]
    OutgoingEmail.objects.filter(match=match).delete()
    for kind in OutgoingEmail.Kind.values:
        OutgoingEmail.objects.create(kind=kind, user=rouge, match=match, to=rouge.email,
                                     subject="s", body_text="b", dedupe_key=f"t:{kind}",
                                     status="sent", attempts=1)
    phone = device(rouge, "phone")
    now = timezone.now()
    for kind in PushMessage.Kind.values:
        PushMessage.objects.create(subscription=phone, kind=kind,
                                   dedupe_key=f"push:{kind}:m{match.pk}:p1:d{phone.pk}",
                                   status="sent", payload={}, expires_at=now + timedelta(hours=1),
                                   next_attempt_at=now, attempts=1, sent_at=now)
    assert set(MAIL_KINDS) >= set(OutgoingEmail.Kind.values)
    assert set(PUSH_KINDS) >= set(PushMessage.Kind.values)
    for language in ("en", "fr"):
        text = timeline(match, rouge, language)
        with translation.override(language):
            labels = [str(MAIL_KINDS[k]) for k in OutgoingEmail.Kind.values] + [
                str(PUSH_KINDS[k]) for k in PushMessage.Kind.values]
        for label in labels:
            assert label in text, (language, label)
        for key in OutgoingEmail.Kind.values + PushMessage.Kind.values:
            assert not re.search(rf": {key} (to|à) ", text), (language, key)
        if language == "fr":
            with translation.override("en"):
                english = {str(MAIL_KINDS[k]) for k in MAIL_KINDS} | {
                    str(PUSH_KINDS[k]) for k in PUSH_KINDS}
            assert not english & set(labels), english & set(labels)
