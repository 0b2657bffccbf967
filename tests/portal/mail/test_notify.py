"""Who is mailed what: preferences, reminders (once per phase, seat and offset), digests,
deadlines in the player's time zone, and no sealed sheet ever leaving by mail."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as games_services
from games.models import Phase, Submission
from portal.accounts.models import Event
from portal.accounts.notifications import mail_set
from portal.accounts.services import profile_update
from portal.mail import services
from portal.mail.models import OutgoingEmail
from tests.helpers import play_round
from tests.portal.mail.smtp import reply_to

pytestmark = pytest.mark.django_db(transaction=True)


def subjects(mailboxes, address: str) -> list[str]:
    return [str(d.message["Subject"]).split(":")[0] for d in mailboxes.to(address)]


def test_preferences_choose_the_emails(eager, mailboxes, make_user, final_act_match):
    match = final_act_match()
    mail_set(user_id=match.alice.pk, events=[Event.PHASE_RESOLVED], on=True)
    mail_set(user_id=match.bob.pk, events=Event.values, on=False)
    mailboxes.clear()
    play_round(match, {1: "1A F", 2: "2A stay"}, resolve=False)
    assert sorted(subjects(mailboxes, match.alice.email)) == ["Round report", "Your move"]
    assert mailboxes.to(match.bob.email) == []
    report = next(m.text for m in mailboxes.to(match.alice.email)
                  if str(m.message["Subject"]).startswith("Round report"))
    # The round told for its reader, as on the match page.
    assert "Your 1A moved e9 → e10." in report


def test_my_turn_players_get_phase_emails_and_results_but_no_round_reports(
    eager, mailboxes, final_act_match
):
    match = final_act_match()
    for _ in range(3):
        play_round(match, {1: "1A F", 2: "2A stay"}, resolve=False)
    assert subjects(mailboxes, match.alice.email) == ["Your move"] * 3 + ["Result"]


def test_the_deadline_is_shown_in_the_players_time_zone(eager, mailboxes, make_user, settings):
    alice, bob = make_user("tz_alice"), make_user("tz_bob")
    profile_update(user=alice, time_zone="Asia/Tokyo")
    match = games_services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    deadline = Phase.objects.get(match=match, number=1).deadline
    tokyo = deadline.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Tokyo"))
    text = mailboxes.wait_for(alice.email, 1)[0].text
    assert f"{tokyo:%H:%M} JST" in text
    assert f"{deadline:%H:%M} UTC" in mailboxes.wait_for(bob.email, 1)[0].text


def test_reminders_go_once_per_offset_to_seats_that_have_not_submitted(
    eager, mailboxes, final_act_match
):
    match = final_act_match(hours_per_phase=48)
    profile_update(user=match.alice, reminder_hours="24,1")
    profile_update(user=match.bob, reminder_hours="24,1")
    games_services.orders_submit(match_id=match.pk, seat_number=2, user=match.bob,
                                 phase_number=1, source="web", text="2A stay")
    deadline = Phase.objects.get(match=match, number=1).deadline
    mailboxes.clear()

    assert services.reminders_send(now=deadline - timedelta(hours=30)) == 0
    assert services.reminders_send(now=deadline - timedelta(hours=23)) == 1
    assert services.reminders_send(now=deadline - timedelta(hours=22)) == 0  # once
    assert services.reminders_send(now=deadline - timedelta(minutes=50)) == 1
    assert services.reminders_send(now=deadline - timedelta(minutes=10)) == 0
    reminders = mailboxes.to(match.alice.email)
    assert [str(d.message["Subject"]) for d in reminders] == [
        f"Reminder: your orders for {match} are due in 24 h",
        f"Reminder: your orders for {match} are due in 1 h",
    ]
    assert str(reminders[0].message["Reply-To"]).startswith("play+")
    assert mailboxes.to(match.bob.email) == []  # Bob's orders are in


def test_a_reminder_offset_longer_than_the_phase_is_skipped(eager, mailboxes, final_act_match):
    match = final_act_match(hours_per_phase=12)
    deadline = Phase.objects.get(match=match, number=1).deadline
    assert services.reminders_send(now=deadline - timedelta(hours=11)) == 0
    assert services.reminders_send(now=deadline - timedelta(minutes=30)) == 2  # the 1 h ones


def test_digest_readers_get_one_email_a_day(eager, mailboxes, final_act_match):
    match = final_act_match()
    profile_update(user=match.alice, mail_delivery="digest")
    mailboxes.clear()
    play_round(match, {1: "1A F", 2: "2A stay"}, resolve=False)
    assert mailboxes.to(match.alice.email) == []  # no per-event mail
    now = timezone.now()
    assert services.digests_send(now=now) == 1
    assert services.digests_send(now=now) == 0
    text = mailboxes.to(match.alice.email)[0].text
    assert str(match) in text and "waiting for your orders" in text
    assert "play+" in text  # she can reply with orders from the digest too


def test_no_email_carries_another_seats_sealed_sheet(eager, mailboxes, final_act_match):
    """Alice's setup is sealed: Bob's reminders and digest show nothing of it."""
    match = final_act_match(scenario=None)  # a full game: hidden setup first
    profile_update(user=match.bob, reminder_hours="1")
    alice_mail = mailboxes.wait_for(match.alice.email, 1)[0]
    import engine

    game, state = engine.get("final-act"), Phase.objects.get(match=match, number=1).state_before
    setup = game.format_text(state, 1, game.default_submission(state, 1))  # a legal layout
    from portal.mail.services import inbound_receive

    row = inbound_receive(raw=reply_to(alice_mail, sender=match.alice.email, orders=setup),
                          source="pipe")
    assert row.status == "accepted", row.error
    receipt = Submission.objects.get(phase__match=match, seat__number=1).receipt
    deadline = Phase.objects.get(match=match, number=1).deadline
    services.reminders_send(now=deadline - timedelta(minutes=30))
    profile_update(user=match.bob, mail_delivery="digest")
    services.digests_send()
    to_bob = mailboxes.to(match.bob.email)
    assert len(to_bob) == 3  # phase opened, reminder, digest
    for delivered in to_bob:
        text = delivered.data.decode()
        assert receipt not in text
        assert "Alpha C:" not in text and "C^" not in text and "1A^" not in text
    acks = [d for d in mailboxes.delivered if receipt in d.data.decode()]
    assert all(d.rcpt_tos == [match.alice.email] for d in acks)
    assert OutgoingEmail.objects.filter(kind="reply", to=match.bob.email).count() == 0


def test_a_phase_mail_is_rendered_once_per_seat_view_not_once_per_seat(toy_duel):
    """Both toy seats see the same board: one render, each reader's own fields put in."""
    from games.models import Phase, Seat
    from portal.mail.services.notify import SeatViewRenderer, phase_email_content

    match = toy_duel()
    phase = Phase.objects.get(match=match, number=match.phase_number)
    renderer = SeatViewRenderer(match.game)
    seats = list(Seat.objects.filter(match=match).select_related("user"))
    mails = {seat.number: phase_email_content(match=match, phase=phase, seat=seat,
                                              renderer=renderer) for seat in seats}
    assert renderer.renders == 1 and len(mails) == 2
    for seat in seats:
        mail = mails[seat.number]
        alone = phase_email_content(match=match, phase=phase, seat=seat)
        # (the reply address carries the second it was made: the two may be a second apart)
        same = [(m["body_text"].replace(m["reply_to"], "REPLY"),
                 m["body_html"].replace(m["reply_to"], "REPLY")) for m in (mail, alone)]
        assert same[0] == same[1]
        assert seat.user.username in mail["body_text"] and mail["reply_to"] in mail["body_html"]
        assert "TPSLOT" not in mail["body_text"] + mail["body_html"]


def test_seats_that_see_different_boards_get_their_own_render(make_user):
    from games.models import Seat
    from portal.mail.services.notify import SeatViewRenderer, phase_email_content
    from tests.portal.mail.corpus import matches

    match = matches.final_act(make_user("alice"), make_user("bob"))
    phase = Phase.objects.get(match=match, number=match.phase_number)
    renderer = SeatViewRenderer(match.game)
    texts = [phase_email_content(match=match, phase=phase, seat=seat, renderer=renderer)
             ["body_text"] for seat in Seat.objects.filter(match=match).select_related("user")]
    assert renderer.renders == 2 and texts[0] != texts[1]
