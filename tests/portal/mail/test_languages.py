"""Each mail in its reader's language: subject and body, in one batch where a French and an
English reader get the same news. A French reader's mails hold no English word (the test
game's own texts, names and titles aside: the games translate theirs); an English reader's
hold no French."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.utils import timezone

from games import services as games_services
from games.models import Match, Phase
from portal.accounts.models import Event
from portal.accounts.notifications import mail_set
from portal.accounts.services import profile_update
from portal.mail import services
from portal.mail.models import OutgoingEmail
from portal.mail.services import inbound_receive
from portal.mail.services.gameday import gameday_opened_notify
from tests.french import english_in, text_of
from tests.portal.mail.languages import (
    allowed,
    check_rows,
    english,
    french,
    kinds,
    make_readers,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def readers(make_user):
    return make_readers(make_user)

def play(match, users, numbers) -> None:
    for seat, (user, number) in enumerate(zip(users, numbers, strict=True), start=1):
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=match.phase_number, source="web",
                                     data={"number": number})
    match.refresh_from_db()


def test_a_match_mails_each_player_in_their_language(eager, mailboxes, readers):
    amelie, bob = readers
    for user in readers:
        mail_set(user_id=user.pk, events=[Event.PHASE_RESOLVED], on=True)
    match = games_services.match_create(
        creator=amelie, game="toy-duel", options={"target": 2}, hours_per_phase=48,
        title="Duel du jeudi",
        seats=[{"kind": "human", "user": amelie}, {"kind": "human", "user": bob}])
    deadline = Phase.objects.get(match=match, number=1).deadline
    assert services.reminders_send(now=deadline - timedelta(minutes=30)) == 2
    play(match, readers, (5, 1))
    play(match, readers, (5, 1))
    assert match.status == Match.Status.FINISHED
    for user in readers:
        profile_update(user=user, mail_delivery="digest")
    assert services.digests_send(now=timezone.now()) == 2

    mails = {user: mailboxes.wait_for(user.email, 6) for user in readers}
    subjects = {user: [str(m.message["Subject"]) for m in mails[user]] for user in readers}
    assert [s.split(":")[0] for s in subjects[bob][:5]] == [
        "Your move", "Reminder", "Round report", "Your move", "Result"]
    assert subjects[bob][5].startswith("Your matches on ")
    assert [s.split(" :")[0] for s in subjects[amelie][:5]] == [
        "À vous de jouer", "Rappel", "Compte rendu", "À vous de jouer", "Résultat"]
    assert subjects[amelie][5].startswith("Vos parties du ")
    # The same news reached both readers, each in their language.
    for delivered in mails[amelie]:
        french(str(delivered.message["Subject"]), delivered.text, amelie, bob)
        french("", text_of(delivered.html), amelie, bob)
    for delivered in mails[bob]:
        english(str(delivered.message["Subject"]), delivered.text, amelie, bob)
        english("", text_of(delivered.html), amelie, bob)
    assert "Bonjour amelie," in mails[amelie][0].text
    assert "écrivez vos ordres au-dessus de cette ligne" in mails[amelie][0].text
    assert re.search(r"Échéance : \w+di \d+ \w+ \d{4}, \d\d:\d\d UTC", mails[amelie][0].text)
    assert "Hello bob," in mails[bob][0].text


def test_leave_and_answers_to_mailed_orders_are_in_the_readers_language(
        eager, mailboxes, readers):
    amelie, bob = readers
    match = games_services.match_create(
        creator=amelie, game="toy-duel", options={"target": 2}, hours_per_phase=48,
        title="Duel du jeudi",
        seats=[{"kind": "human", "user": amelie}, {"kind": "human", "user": bob}])
    rows = OutgoingEmail.objects.filter(match=match, kind=OutgoingEmail.Kind.PHASE_OPENED)
    for user, text in ((amelie, "4"), (bob, "")):  # Bob's reply holds no orders: refused
        phase_mail = rows.get(to=user.email)
        inbound_receive(raw=reply(phase_mail, user.email, text), source="pipe")
    for user in readers:
        games_services.leave_take(user=user, days=2)
    answers = OutgoingEmail.objects.filter(kind__in=[OutgoingEmail.Kind.REPLY,
                                                     OutgoingEmail.Kind.LEAVE])
    assert kinds(answers.filter(to=amelie.email)) == ["leave", "reply"]
    assert kinds(answers.filter(to=bob.email)) == ["leave", "reply"]
    check_rows(answers, amelie, bob)
    accepted = answers.get(to=amelie.email, kind="reply").body_text
    assert "sont acceptés" in accepted and "Reçu :" in accepted
    refused = answers.get(to=bob.email, kind="reply").body_text
    assert "there are no orders in it" in refused


def reply(mail: OutgoingEmail, sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = mail.reply_to
    message["Subject"] = f"Re: {mail.subject}"
    message.set_content(f"{body}\n\n> {mail.body_text.splitlines()[0]}\n")
    return message.as_bytes()


def test_gameday_mails_are_in_the_readers_language(readers):
    amelie, bob = readers
    race = games_services.match_create(
        creator=amelie, game="toy-race", hours_per_phase=24, title="Course du soir",
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": amelie}, {"kind": "human", "user": bob}])
    assert gameday_opened_notify(match_id=race.pk, gameday="1") == 2
    rows = OutgoingEmail.objects.filter(dedupe_key__startswith=f"gameday:m{race.pk}:")
    check_rows(rows, amelie, bob)
    assert rows.get(to=amelie.email).subject.startswith("Journée 1 de la partie a commencé")


def test_the_webhook_turned_off_mail_is_in_its_owners_language(readers, toy_duel):
    from portal.webhooks.models import WebhookTarget
    from portal.webhooks.services import targets_failed

    amelie, bob = readers
    match = toy_duel()
    # The chat's language is the target's; the mail to its owner is in the owner's.
    for user, language in ((amelie, "en-gb"), (bob, "fr")):
        target = WebhookTarget.objects.create(
            match=match, created_by=user, name=f"salon {user.username}", format="discord",
            url="https://discord.com/api/webhooks/1/abc", language=language)
        targets_failed(failures={target.pk: (99, "HTTP 500: oops")})
    rows = OutgoingEmail.objects.filter(dedupe_key__startswith="webhook-off:")
    assert sorted(rows.values_list("to", flat=True)) == sorted([amelie.email, bob.email])
    check_rows(rows, amelie, bob)


def test_the_seats_are_named_in_the_readers_language(eager, mailboxes, readers, make_user):
    """A game whose seats have English names (Final Strategy's Red, Blue, Green): a French
    reader's "your move" and daily digest name their seat in French."""
    amelie, bob = readers
    match = games_services.match_create(
        creator=amelie, game="final-strategy", options={}, hours_per_phase=48,
        title="Trio du jeudi", seats=[{"kind": "human", "user": u}
                                      for u in (amelie, bob, make_user("third"))])
    assert match.status == Match.Status.ACTIVE
    (mail,) = mailboxes.wait_for(amelie.email, 1)  # seat 1 moves first
    assert "Vous jouez Rouge." in mail.text and "Red" not in mail.text
    profile_update(user=amelie, mail_delivery="digest")
    assert services.digests_send(now=timezone.now()) == 1
    digest = mailboxes.wait_for(amelie.email, 2)[1]
    assert "vous jouez Rouge" in digest.text and "Red" not in digest.text


def test_the_footers_language_is_the_mails_language(eager, mailboxes, make_user):
    """A signed-in player who picks French in the page footer (not in the profile) gets their
    mails in French too, the game's phase names included ("tour 2", not "turn 2")."""
    import random

    from django.test import Client
    from django.urls import reverse

    import engine

    claire, bob = make_user("claire"), make_user("bob")
    client = Client()
    client.force_login(claire)
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    claire.profile.refresh_from_db()
    assert claire.profile.language == "fr"
    mail_set(user_id=claire.pk, events=[Event.PHASE_RESOLVED], on=True)
    match = games_services.match_create(
        creator=bob, game="final-strategy", options={}, hours_per_phase=48,
        title="Duel du jeudi", seats=[{"kind": "human", "user": u} for u in (bob, claire)])
    turn = engine.get("final-strategy").bot_submission(match.state, 1, "greedy",
                                                       random.Random(1))
    games_services.orders_submit(match_id=match.pk, seat_number=1, user=bob,
                                 phase_number=match.phase_number, data=turn, source="web")
    subjects = sorted(OutgoingEmail.objects.filter(to=claire.email).values_list(
        "subject", flat=True))
    assert subjects == ["Compte rendu : Duel du jeudi, tour 1",
                        "À vous de jouer : Duel du jeudi, tour 2"], subjects
    for row in OutgoingEmail.objects.filter(to=claire.email):
        text = f"{row.subject}\n{row.body_text}\n{text_of(row.body_html)}"
        # The corners in French (nord-ouest, sud-ouest) happen to spell "no" and "so".
        assert not english_in(text, names=[*allowed(claire, bob), "Final Strategy",
                                           "ne, no, se, so"])
