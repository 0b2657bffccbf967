"""Plans by e-mail (docs/conditional-orders.md): the "your move" mail says what the seat's plan
holds, and why it was cleared when it was; a reply "clear plan" clears it; a seat whose move
was played from its plan gets no "your move" mail for it."""

from __future__ import annotations

import pytest

from games import services as games_services
from games.models import ConditionalPlan, Phase
from portal.mail import services
from portal.mail.models import InboundMessage
from portal.mail.services.notify import phase_email_content
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


def receive(raw: bytes) -> InboundMessage:
    return services.inbound_receive(raw=raw, source=InboundMessage.Source.PIPE)


@pytest.fixture
def fs_match(eager, mailboxes, make_user):
    users = [make_user(f"plm_{n}") for n in ("ann", "ben", "cat")]
    match = games_services.match_create(
        creator=users[0], game="final-strategy", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    return match


def turn(match, seat, edge):
    match.refresh_from_db()
    games_services.orders_submit(match_id=match.pk, seat_number=seat,
                                 user=match.players[seat], phase_number=match.phase_number,
                                 data={"steps": [{"barrier": edge}]}, source="web")


def your_moves(mailboxes, user):
    return [m for m in mailboxes.to(user.email) if "Your move" in str(m.message["Subject"])]


def test_a_move_played_from_a_plan_wakes_nobody_and_the_next_seat_is_mailed(fs_match,
                                                                            mailboxes):
    ann, ben, cat = fs_match.players.values()
    games_services.plan_set(match_id=fs_match.pk, seat_number=2, user=ben,
                            text="if Red: wall e5-e6 then wall c3-c4")
    turn(fs_match, 1, "e5-e6")
    fs_match.refresh_from_db()
    assert fs_match.phase_number == 3
    mailboxes.wait_for(cat.email, 1)
    assert your_moves(mailboxes, ben) == []


def test_the_your_move_mail_tells_why_the_plan_was_cleared(fs_match, mailboxes):
    ann, ben, cat = fs_match.players.values()
    games_services.plan_set(match_id=fs_match.pk, seat_number=2, user=ben,
                            text="if Red: wall e5-e6 then wall c3-c4")
    turn(fs_match, 1, "d4-e4")
    mail = mailboxes.wait_for(ben.email, 1)[0]
    text = " ".join(mail.text.split())
    assert "Your plan was cleared in phase 2: Red played “wall d4-e4”" in text


def test_the_mail_shows_the_plan_and_a_reply_clears_it(fs_match, mailboxes):
    ann = fs_match.players[1]
    first = mailboxes.wait_for(ann.email, 1)[0]
    games_services.plan_set(match_id=fs_match.pk, seat_number=1, user=ann,
                            text="if Blue: wall e5-e6 / Green: wall g7-g8 then wall c3-c4")
    phase = Phase.objects.get(match=fs_match, number=1)
    seat = fs_match.seats.get(number=1)
    body = phase_email_content(match=fs_match, phase=phase, seat=seat)["body_text"]
    assert "YOUR PLAN" in body and "If Blue plays “wall e5-e6”, then Green plays " \
        "“wall g7-g8”, play “wall c3-c4”." in " ".join(body.split())
    assert "“clear plan”" in " ".join(body.split())
    others = phase_email_content(match=fs_match, phase=phase,
                                 seat=fs_match.seats.get(number=2))["body_text"]
    assert "c3-c4" not in others and "YOUR PLAN" not in others
    cleared = receive(reply_to(first, sender=ann.email, orders="clear plan"))
    assert cleared.status == InboundMessage.Status.ACCEPTED and cleared.outcome == "plan_cleared"
    assert not ConditionalPlan.objects.exists()
    answer = mailboxes.wait_for(ann.email, 2)[-1]
    assert "Your plan for" in answer.text and "is cleared" in answer.text
    fs_match.refresh_from_db()
    assert fs_match.phase_number == 1  # no orders were taken from it


def test_a_panzer_squadron_mail_shows_the_planned_activation_and_a_reply_clears_it(
        eager, mailboxes, make_user):
    ann, ben = make_user("plm_ps_ann"), make_user("plm_ps_ben")
    match = games_services.match_create(
        creator=ann, game="panzer-squadron", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    first = mailboxes.wait_for(ann.email, 1)[0]
    games_services.plan_set(match_id=match.pk, seat_number=1, user=ann,
                            text="if North: activate H2 ambush then activate M1 move; "
                                 "path f2 12, f3 12; end moving")
    phase = Phase.objects.get(match=match, number=1)
    content = phase_email_content(match=match, phase=phase, seat=match.seats.get(number=1))
    body = content["body_text"]
    assert "Your plan</h2>" in content["body_html"] and "f3 12" in content["body_html"]
    assert "YOUR PLAN" in body and ("If North plays “activate H2 ambush”, play “activate M1 "
                                    "move; path f2 12, f3 12; end moving”.") in " ".join(
        body.split())
    assert "“clear plan”" in " ".join(body.split())
    others = phase_email_content(match=match, phase=phase,
                                 seat=match.seats.get(number=2))["body_text"]
    assert "f3 12" not in others and "YOUR PLAN" not in others
    cleared = receive(reply_to(first, sender=ann.email, orders="clear plan"))
    assert cleared.status == InboundMessage.Status.ACCEPTED and cleared.outcome == "plan_cleared"
    assert not ConditionalPlan.objects.exists()
    answer = mailboxes.wait_for(ann.email, 2)[-1]
    assert "Your plan for" in answer.text and "is cleared" in answer.text
    match.refresh_from_db()
    assert match.phase_number == 1  # no orders were taken from it
