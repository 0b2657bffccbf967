"""A game added purely through the registries ("toy-plugged", tests/plugged.py: an engine game,
a web plug-in, one install line) is played through the pages and by e-mail, with its own panel,
URL, "your move" mail body, rules page and e-mail line finder."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services as games_services
from games.models import Match
from portal.mail import services
from portal.mail.models import InboundMessage
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def plugged(eager, mailboxes, make_user):
    alice, bob = make_user("pl_alice"), make_user("pl_bob")
    match = games_services.match_create(
        creator=alice, game="toy-plugged", options={"target": 2}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    match.alice, match.bob = alice, bob
    return match


def receive(raw: bytes) -> InboundMessage:
    return services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)


def test_a_registered_game_is_played_through_its_own_pages_and_by_email(plugged, mailboxes):
    match = plugged
    alice, bob = Client(), Client()
    alice.force_login(match.alice)
    bob.force_login(match.bob)
    # Its own "your move" mail, with its own board text.
    first = mailboxes.wait_for(match.alice.email, 1)[0]
    assert "TOY-PLUGGED YOUR MOVE, North." in first.text and "TOY-BOARD round 1" in first.text
    # Its own panel on the generic page, and the generic order panel beside it.
    page = alice.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "TOY-PLUGGED-PANEL" in page and "Your orders" in page
    # Round 1: alice on the page, bob by e-mail.
    response = alice.post(reverse("games:orders", args=[match.pk, 1]),
                          {"phase_number": "1", "format": "text", "orders": "5"})
    assert response.status_code == 302
    hint = reverse("games:toy_plugged_hint", args=[match.pk])
    assert "you sealed 5" in alice.get(hint).content.decode()
    assert "nothing yet" in bob.get(hint).content.decode()  # never the other seat's number
    bob_mail = mailboxes.wait_for(match.bob.email, 1)[0]
    refused = receive(reply_to(bob_mail, sender=match.bob.email, orders="9"))
    assert refused.status == InboundMessage.Status.REFUSED
    answer = [d for d in mailboxes.to(match.bob.email) if "Re:" in str(d.message["Subject"])]
    assert "TOY-LINE number:" in answer[-1].text  # its own line finder
    accepted = receive(reply_to(bob_mail, sender=match.bob.email, orders="2"))
    assert accepted.status == InboundMessage.Status.ACCEPTED
    match.refresh_from_db()
    assert match.phase_number == 2 and match.state["scores"] == {"1": 1, "2": 0}
    # Round 2 by e-mail for both: the match ends.
    for user, number in ((match.alice, "4"), (match.bob, "1")):
        mail = [d for d in mailboxes.to(user.email) if "YOUR MOVE" in d.text][-1]
        assert "round 2" in mail.text
        assert receive(reply_to(mail, sender=user.email, orders=number)).status == \
            InboundMessage.Status.ACCEPTED
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    # Its replay and its rules page, both through the plug-in.
    frame = alice.get(reverse("games:replay", args=[match.pk, 1]), HTTP_HX_REQUEST="true")
    assert frame.status_code == 200 and "duel" in frame.content.decode()
    rules = Client().get(reverse("games:rules", args=["toy-plugged"])).content.decode()
    assert "TOY-PLUGGED RULES" in rules
    # Its URL answers 404 for a match of another game.
    other = games_services.match_create(
        creator=match.alice, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": match.alice}, {"kind": "human", "user": match.bob}])
    assert alice.get(reverse("games:toy_plugged_hint", args=[other.pk])).status_code == 404
