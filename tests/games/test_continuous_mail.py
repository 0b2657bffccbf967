"""Continuous games by email: the "gameday opened" mail (once per gameday and player, through
the gameday_opened signal) and actions by reply under the same rules as the page."""

from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.db.models import F

from durable import outbox
from durable.models import OutboxEvent
from games import services
from games.models import Action
from games.signals import gameday_opened
from portal.mail.models import InboundMessage, OutgoingEmail
from portal.mail.services import inbound_receive
from portal.mail.services.gameday import gameday_opened_notify
from tests.outbox import promised

pytestmark = pytest.mark.django_db

ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


@pytest.fixture
def race(make_user):
    users = [make_user(f"mailer{n}") for n in (1, 2)]
    match = services.match_create(
        creator=users[0], game="toy-race", options={"schedule": ALWAYS_OPEN},
        hours_per_phase=24, seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    return match


def reply(mail: OutgoingEmail, sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = mail.reply_to
    message["Subject"] = f"Re: {mail.subject}"
    message.set_content(f"{body}\n\n> {mail.body_text.splitlines()[0]}\n")
    return message.as_bytes()


def test_the_tick_signals_the_gameday_and_each_player_is_mailed_once(
        race, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        assert services.gameday_tick(match_id=race.pk, now=race.deadline)
    signals = [(name, payload) for name, payload in promised(race.pk, kind="signal")
               if name == "gameday_opened"]
    assert len(signals) == 1
    gameday = signals[0][1]["gameday"]
    rows = list(OutboxEvent.objects.filter(series=race.pk, name="gameday_opened"))
    with django_capture_on_commit_callbacks():
        # What the worker does after the commit: the mail app's receiver writes the mails.
        assert outbox.outbox_dispatch(ids=[row.pk for row in rows]) == 1
        assert outbox.outbox_dispatch(ids=[row.pk for row in rows]) == 0  # done: not twice
        gameday_opened.send(sender=None, match_id=race.pk, gameday=gameday)  # a duplicate
    mails = OutgoingEmail.objects.filter(dedupe_key__startswith=f"gameday:m{race.pk}:")
    assert sorted(m.to for m in mails) == ["mailer1@example.test", "mailer2@example.test"]
    mail = mails.get(to="mailer1@example.test")
    assert "Gameday" in mail.subject and mail.reply_to.startswith("play+")
    # The gameday is named by its place in the match, never by its key (a slot counter).
    assert "Gameday 1 of the match has begun" in mail.body_text
    assert gameday not in mail.body_text and gameday not in mail.subject
    assert gameday_opened_notify(match_id=race.pk, gameday=gameday) == 0


def test_gamedays_minutes_apart_mail_each_player_once_in_the_min_hours(race, settings):
    """Gamedays every few minutes (a quick game) do not mail at every one: a player hears of
    the first, then of the first one after GAMEDAY_MAIL_MIN_HOURS."""
    settings.GAMEDAY_MAIL_MIN_HOURS = 6
    mails = OutgoingEmail.objects.filter(dedupe_key__startswith=f"gameday:m{race.pk}:")
    assert gameday_opened_notify(match_id=race.pk, gameday="1") == 2
    assert gameday_opened_notify(match_id=race.pk, gameday="2") == 0
    mails.update(created_at=F("created_at") - timedelta(hours=7))
    assert gameday_opened_notify(match_id=race.pk, gameday="3") == 2
    assert sorted(key.split(":")[2] for key in mails.values_list("dedupe_key", flat=True)) == [
        "g1", "g1", "g3", "g3"]


def test_actions_by_email_reply_are_applied_under_the_same_rules(race):
    gameday_opened_notify(match_id=race.pk, gameday="1")
    mail = OutgoingEmail.objects.get(to="mailer1@example.test", dedupe_key__startswith="gameday")
    row = inbound_receive(raw=reply(mail, "mailer1@example.test", "step\nstep"),
                          source=InboundMessage.Source.PIPE)
    assert row.status == "accepted"
    actions = list(Action.objects.filter(match=race, kind="action"))
    assert [(a.seat, a.source) for a in actions] == [(1, "email")]
    answer = OutgoingEmail.objects.get(kind="reply", to="mailer1@example.test")
    assert "You can act again in" in answer.body_text  # the second line: in the cooldown

    again = inbound_receive(raw=reply(mail, "mailer1@example.test", "step"),
                            source=InboundMessage.Source.PIPE)
    assert (again.status, again.outcome) == ("refused", "cooldown")
    forged = inbound_receive(raw=reply(mail, "mailer2@example.test", "step"),
                             source=InboundMessage.Source.PIPE)
    assert forged.status == "refused"
    assert Action.objects.filter(match=race, kind="action").count() == 1


def test_a_tank_game_reply_in_the_text_grammar_moves_the_tank(make_user):
    import engine
    import engine.tank_game  # noqa: F401  (registers "tank-game" if BUILTIN_GAMES does not yet)

    users = [make_user(f"tanker{n}") for n in (1, 2)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"schedule": ALWAYS_OPEN}, seats=[{"kind": "human", "user": u} for u in users])
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    game = engine.get("tank-game")
    move = next(a for a in game.legal_actions(match.state, 1) if a["type"] == "move")
    gameday_opened_notify(match_id=match.pk, gameday="x")
    mail = OutgoingEmail.objects.get(to="tanker1@example.test", dedupe_key__startswith="gameday")
    assert "Your tank tanker1 is at" in mail.body_text
    row = inbound_receive(raw=reply(mail, "tanker1@example.test", f"move {move['to']}\nbuy ap"),
                          source=InboundMessage.Source.PIPE)
    assert row.status == "accepted"
    match.refresh_from_db()
    tank = next(t for t in game.view(match.state, 1)["tanks"] if t["seat"] == 1)
    assert tank["at"] == move["to"]
    answer = OutgoingEmail.objects.get(kind="reply", to="tanker1@example.test").body_text
    assert f"move {move['to']}" in answer and "You can act again in" in answer



def test_players_of_a_continuous_phase_get_no_orders_due_reminders(make_user):
    """Acting in a continuous phase is optional, so nobody is reminded of "orders due"."""
    from datetime import timedelta

    from games.models import Phase
    from portal.accounts.services import profile_update
    from portal.mail.services import reminders_send

    users = [make_user(f"idle{n}") for n in (1, 2)]
    match = services.match_create(
        creator=users[0], game="toy-race",
        options={"schedule": {"kind": "every", "minutes": 600, "open_minutes": 600}},
        hours_per_phase=24, seats=[{"kind": "human", "user": u} for u in users])
    for user in users:
        profile_update(user=user, reminder_hours="1")
    deadline = Phase.objects.get(match=match, number=match.phase_number).deadline
    assert deadline is not None
    assert reminders_send(now=deadline - timedelta(minutes=30)) == 0
    assert not OutgoingEmail.objects.filter(subject__startswith="Reminder").exists()


def test_the_tank_game_gameday_mail_lists_the_latest_logbook_entries(make_user):
    import engine
    import engine.tank_game  # noqa: F401  (registers "tank-game" if BUILTIN_GAMES does not yet)
    from games.models import Match
    from games.tank_game.plugin import MAIL_ENTRIES

    users = [make_user(f"logmail{n}") for n in (1, 2)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN, "cooldown_minutes": 0,
                 "names": {}},
        seats=[{"kind": "human", "user": u} for u in users])
    services.gameday_tick(match_id=match.pk)
    game = engine.get("tank-game")
    for _ in range(MAIL_ENTRIES + 3):  # more entries than the mail shows
        match.refresh_from_db()
        if match.deadline is not None:
            services.gameday_tick(match_id=match.pk, now=match.deadline)
            match.refresh_from_db()
        move = next(a for a in game.legal_actions(match.state, 1) if a["type"] == "move")
        services.actions_apply(match_id=match.pk, seat_number=1, user=users[0], action=move,
                               source="web", now=match.deadline - timedelta(minutes=1))
    match = Match.objects.get(pk=match.pk)
    gameday_opened_notify(match_id=match.pk, gameday=match.state["gameday"])
    mail = OutgoingEmail.objects.get(to="logmail2@example.test", dedupe_key__startswith="gameday")
    section = mail.body_text.split("LATEST IN THE LOGBOOK\n")[1].split("\nOlder entries: ")
    lines = section[0].splitlines()
    newest = [e["text"] for row in Action.objects.filter(match=match).order_by("seq")
              for e in row.events][-MAIL_ENTRIES:]
    assert [line.split(" — ", 1)[1] for line in lines] == newest
    assert section[1].split("\n")[0].endswith(f"/matches/{match.pk}/tank-game/logbook/")
    assert "Latest in the logbook" in mail.body_html
