"""Final Strategy by e-mail: the board drawn with ASCII, whose turn it is, orders by reply (in
the text grammar), a French player's mail in French; a 4-seat match with bots filling three
seats played to the end with the result and ranks."""

from __future__ import annotations

import random

import pytest

import engine
from games import services as games_services
from games.models import Match
from portal.accounts.services import profile_update
from portal.mail import services
from portal.mail.models import InboundMessage
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


def receive(raw: bytes) -> InboundMessage:
    return services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)


def test_a_three_player_turn_by_email(eager, mailboxes, make_user):
    users = [make_user(f"fsm_{n}") for n in ("ann", "ben", "cat")]
    profile_update(user=users[1], language="fr")
    match = games_services.match_create(
        creator=users[0], game="final-strategy",
        options={"scenario": {"barriers": ["c3-c4", "c3-d3", "b3-c3"]}}, hours_per_phase=24,
        seats=[{"kind": "human", "user": u} for u in users])
    first = mailboxes.wait_for(users[0].email, 1)[0]
    assert "+---+---+" in first.text and "Turn 1: seat 1 to move." in first.text
    assert "wall SQ-SQ" in first.text
    refused = receive(reply_to(first, sender=users[0].email, orders="wall c2-c3"))
    assert refused.status == InboundMessage.Status.REFUSED  # must place again after closing c3
    accepted = receive(reply_to(first, sender=users[0].email, orders="wall c2-c3\nwall h8-h9"))
    assert accepted.status == InboundMessage.Status.ACCEPTED
    match.refresh_from_db()
    assert match.state["to_move"] == 2
    assert {"seat": 1, "kind": "troop", "at": "c3"} in match.state["pieces"]
    french = mailboxes.wait_for(users[1].email, 1)[0]
    assert "Tour 2 : au joueur 2 de jouer." in french.text and "mur CASE-CASE" in french.text
    assert "(" not in french.text.split("Joueur 1 : bunker")[1].split("\n")[0]  # count only
    accepted = receive(reply_to(french, sender=users[1].email, orders="mur h9-h10"))
    assert accepted.status == InboundMessage.Status.ACCEPTED


@pytest.mark.long
def test_a_four_player_match_with_bots_is_played_to_the_end(eager, mailboxes, make_user):
    ann = make_user("fsm_four")
    match = games_services.match_create(
        creator=ann, game="final-strategy", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": ann}, {"kind": "bot", "bot": "greedy"},
               {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}])
    game = engine.get("final-strategy")
    rng = random.Random(3)
    for _ in range(400):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        assert match.state["to_move"] == 1  # the bots have played their turns at once
        turn = game.bot_submission(match.state, 1, "greedy", rng)
        games_services.orders_submit(match_id=match.pk, seat_number=1, user=ann,
                                     phase_number=match.phase_number, data=turn, source="web")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    ranked = [seat for group in match.result["ranking"] for seat in group]
    assert sorted(ranked) == [1, 2, 3, 4]
    ended = [m for m in mailboxes.to(ann.email) if "Result" in str(m.message["Subject"])]
    assert ended and "The game is over" in ended[-1].text
