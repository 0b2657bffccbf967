"""Replies as common mail clients send them (tests/portal/mail/corpus/*.eml, written by
corpus/build.py from our real "your move" mails): each is accepted with exactly the orders the
player wrote, and the same message delivered again is recognised and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from games.models import Action, Submission
from portal.mail import services
from portal.mail.models import InboundMessage, OutgoingEmail
from portal.mail.tokens import reply_address
from tests.portal.mail.corpus import clients, matches

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).parent / "corpus"
MANIFEST = json.loads((CORPUS / "corpus.json").read_text())


def addressed(raw: bytes, *, sender: str, to: str) -> bytes:
    """The fixture with its placeholders (headers only) replaced by the match's addresses."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    head = head.replace(clients.PLAYER.encode(), sender.encode())
    return head.replace(clients.REPLY_TO.encode(), to.encode()) + sep + body


def receive(raw: bytes) -> InboundMessage:
    return services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)


def test_the_corpus_has_every_client_for_each_game():
    assert len(MANIFEST) >= 30
    assert {entry["game"] for entry in MANIFEST.values()} == {"final-act", "tank-game"}
    for name in clients.CLIENTS:
        assert {f"{name}--final-act.eml", f"{name}--tank-game.eml"} <= set(MANIFEST)
    assert sorted(p.name for p in CORPUS.glob("*.eml")) == sorted(MANIFEST)


@pytest.mark.parametrize("file", sorted(MANIFEST))
def test_a_client_reply_is_accepted_with_exactly_the_orders_written(file, make_user):
    entry = MANIFEST[file]
    alice, bob = make_user("alice"), make_user("bob")
    if entry["game"] == "final-act":
        match, orders = matches.final_act(alice, bob), matches.ORDERS["final-act"]
    else:
        match, orders = matches.tank_game(alice, bob)
    assert orders == entry["orders"], "the corpus was built for another match; rebuild it"
    game = engine.get(match.game)
    state = match.state
    expected = game.parse_text(state, 1, orders)
    raw = addressed((CORPUS / file).read_bytes(), sender=alice.email,
                    to=reply_address(match_id=match.pk, seat_number=1,
                                     phase_number=match.phase_number, user_id=alice.pk))

    row = receive(raw)
    assert (row.status, row.outcome, row.error) == ("accepted", "accepted", "")
    if entry["game"] == "final-act":
        sheet = Submission.objects.get(phase__match=match, seat__number=1)
        assert (sheet.source, sheet.revision) == ("email", 1)
        assert sheet.data == game.validate(state, 1, expected)
    else:
        done = [a.data for a in Action.objects.filter(match=match, kind="action")]
        assert [{k: a[k] for k in ("type", "to")} for a in done] == \
            [{k: e[k] for k in ("type", "to")} for e in expected["actions"]]

    again = receive(raw)  # the same message delivered again (same Message-ID)
    assert again.pk == row.pk and again.status == "accepted"
    assert InboundMessage.objects.get(pk=row.pk).deliveries == 2
    assert InboundMessage.objects.count() == 1
    assert OutgoingEmail.objects.filter(kind="reply").count() == 1
    if entry["game"] == "final-act":
        assert Submission.objects.get(phase__match=match, seat__number=1).revision == 1
    else:
        assert Action.objects.filter(match=match, kind="action").count() == \
            len(expected["actions"])
