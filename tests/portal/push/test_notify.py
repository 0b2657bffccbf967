"""What the lifecycle pushes, end to end in one process (tasks eager): the phase opening, its
reminders and the result go from the lifecycle's outbox through the push outbox to the local
push service, to each device that wants them, and say nothing of anybody's sheet."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services as games_services
from games.models import Phase
from portal.accounts.services import profile_update
from portal.push import services
from portal.push.models import PushMessage
from tests.helpers import submit

pytestmark = pytest.mark.django_db(transaction=True)


def duel(alice, bob, **kwargs):
    args = {"options": {"target": 1}, "hours_per_phase": 24}
    args.update(kwargs)
    return games_services.match_create(
        creator=alice, game="toy-duel", title="Push duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}], **args)


def test_your_move_reaches_every_device_that_wants_it(eager, push_service, subscribe,
                                                      make_user):
    alice, bob = make_user("alice"), make_user("bob")
    subscribe(alice, "alice-phone")
    subscribe(alice, "alice-laptop", your_move=False)
    subscribe(bob, "bob-phone")
    match = duel(alice, bob)
    [phone] = push_service.to("alice-phone")
    assert push_service.to("alice-laptop") == []
    assert phone.payload["title"] == "Your move: Push duel"
    assert phone.payload["url"] == f"https://tanks.example.test/matches/{match.pk}/"
    assert phone.payload["tag"] == phone.headers["topic"] == f"m{match.pk}-move"
    assert "Deadline:" in phone.payload["body"]
    assert phone.payload["unsubscribe"].startswith("https://tanks.example.test/push/unsubscribe/")
    # Until the deadline, at most a day: a phone that comes back later gets nothing stale.
    assert 23 * 3600 < phone.ttl <= 24 * 3600
    assert len(push_service.to("bob-phone")) == 1


def test_the_result_is_pushed_and_no_push_tells_a_sheet(eager, push_service, subscribe,
                                                        make_user):
    alice, bob = make_user("alice"), make_user("bob")
    subscribe(alice, "alice-phone")
    subscribe(bob, "bob-phone", results=False)
    match = duel(alice, bob)
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    assert match.status == "finished"
    titles = [r.payload["title"] for r in push_service.to("alice-phone")]
    assert titles == ["Your move: Push duel", "Result: Push duel"]
    result = push_service.to("alice-phone")[-1].payload
    assert result["body"].startswith("Winner: North")
    assert [r.payload["title"] for r in push_service.to("bob-phone")] == ["Your move: Push duel"]
    # Pushes never carry a sheet: only titles, the deadline, the result, links.
    for received in push_service.received:
        assert set(received.payload) == {"kind", "title", "body", "url", "tag", "unsubscribe",
                                         "stop"}


def test_reminders_go_to_seats_not_in_yet_once_per_offset_and_live_until_the_deadline(
        eager, push_service, subscribe, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    profile_update(user=alice, reminder_hours="1")
    profile_update(user=bob, reminder_hours="1")
    subscribe(alice, "alice-phone")
    subscribe(bob, "bob-phone")
    match = duel(alice, bob, hours_per_phase=3)
    submit(match, alice, 1, 3)
    phase = Phase.objects.get(match=match, number=1)
    assert services.reminders_push(now=phase.deadline - timedelta(hours=2)) == 0
    at = phase.deadline - timedelta(minutes=50)
    assert services.reminders_push(now=at) == 1
    assert services.reminders_push(now=at + timedelta(minutes=5)) == 0
    [reminder] = [r for r in push_service.to("bob-phone") if r.payload["kind"] == "reminder"]
    assert reminder.payload["title"] == "Reminder: Push duel"
    assert "due in 1 h" in reminder.payload["body"]
    row = PushMessage.objects.get(kind="reminder")
    assert row.expires_at == at + timedelta(minutes=50)
    assert [r.payload["kind"] for r in push_service.to("alice-phone")] == ["your_move"]


def test_nothing_is_pushed_without_a_vapid_key(eager, push_service, subscribe, make_user,
                                               settings):
    from portal.push.vapid import _private_key

    alice, bob = make_user("alice"), make_user("bob")
    subscribe(alice, "alice-phone")
    settings.VAPID_PRIVATE_KEY, settings.VAPID_GENERATE = "", False
    _private_key.cache_clear()
    duel(alice, bob)
    assert PushMessage.objects.count() == 0


def test_a_new_gameday_pushes_your_move_once_per_gameday(eager, push_service, subscribe,
                                                         make_user):
    alice, bob = make_user("alice"), make_user("bob")
    subscribe(alice, "alice-phone")
    match = games_services.match_create(
        creator=alice, game="toy-race", title="Race",
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        hours_per_phase=24, seats=[{"kind": "human", "user": u} for u in (alice, bob)])
    before = len(push_service.to("alice-phone"))
    assert games_services.gameday_tick(match_id=match.pk, now=match.deadline)
    gamedays = [r.payload for r in push_service.to("alice-phone")[before:]]
    assert len(gamedays) == 1
    assert gamedays[0]["title"] == "Your move: Race"
    assert gamedays[0]["body"].startswith("Gameday ")
    assert services.gameday_opened_push(match_id=match.pk, gameday="nonsense") >= 0
    # The same gameday again (a re-delivered signal) pushes nothing more.
    from games.models import Action

    gameday = Action.objects.filter(match=match, kind="tick").latest("seq").gameday
    assert services.gameday_opened_push(match_id=match.pk, gameday=gameday) == 0


def test_each_push_is_in_its_readers_language(eager, push_service, subscribe, make_user):
    """Texts and the notification's button, in the language of each device's owner."""
    from tests.french import english_in

    amelie, bob = make_user("amelie"), make_user("bob")
    profile_update(user=amelie, language="fr")
    subscribe(amelie, "amelie-phone")
    subscribe(bob, "bob-phone")
    match = duel(amelie, bob)
    submit(match, amelie, 1, 4)
    submit(match, bob, 2, 2)
    french = [r.payload for r in push_service.to("amelie-phone")]
    english = [r.payload for r in push_service.to("bob-phone")]
    assert [p["title"] for p in french] == ["À vous de jouer : Push duel", "Résultat : Push duel"]
    assert french[0]["body"].startswith("Duel 1. Échéance : ")
    assert french[1]["body"].startswith("Vainqueur : North.")
    assert {p["stop"] for p in french} == {"Arrêter celles-ci"}
    for payload in french:
        texts = f"{payload['title']} {payload['body']} {payload['stop']}"
        assert not english_in(texts, names=["Push duel", "North reached 1 points"]), payload
    assert [p["title"] for p in english] == ["Your move: Push duel", "Result: Push duel"]
    assert english[0]["body"].startswith("Duel 1. Deadline: ")
    assert {p["stop"] for p in english} == {"Stop these"}


def test_a_gameday_push_names_the_gameday_in_its_readers_language(eager, push_service,
                                                                   subscribe, make_user):
    """The gameday's name goes into the sentence in the same language as the sentence."""
    amelie, bob = make_user("amelie"), make_user("bob")
    profile_update(user=amelie, language="fr")
    subscribe(amelie, "amelie-phone")
    subscribe(bob, "bob-phone")
    match = games_services.match_create(
        creator=amelie, game="toy-race", title="Course",
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        hours_per_phase=24, seats=[{"kind": "human", "user": u} for u in (amelie, bob)])
    before = {phone: len(push_service.to(phone)) for phone in ("amelie-phone", "bob-phone")}
    assert games_services.gameday_tick(match_id=match.pk, now=match.deadline)
    french = [r.payload["body"] for r in push_service.to("amelie-phone")[before["amelie-phone"]:]]
    english = [r.payload["body"] for r in push_service.to("bob-phone")[before["bob-phone"]:]]
    assert len(french) == len(english) == 1
    assert french[0].startswith("Journée ") and " de la partie a commencé." in french[0]
    assert english[0].startswith("Gameday ") and " of the match has begun." in english[0]


def test_a_move_played_from_a_plan_wakes_nobody_by_push(eager, push_service, subscribe,
                                                         make_user):
    """Blue's plan answers Red's barrier at once: Blue's turn opens and closes in the same
    moment, so Blue's phone is not woken for it; Green, whose turn it then is, is."""
    users = [make_user(name) for name in ("red", "blue", "green")]
    for user in users:
        subscribe(user, f"{user.username}-phone")
    match = games_services.match_create(
        creator=users[0], game="final-strategy", options={}, hours_per_phase=24,
        title="Planned", seats=[{"kind": "human", "user": user} for user in users])
    games_services.plan_set(match_id=match.pk, seat_number=2, user=users[1],
                            text="if Red: wall e5-e6 then wall c3-c4")
    submit(match, users[0], 1, data={"steps": [{"barrier": "e5-e6"}]})
    assert match.phase_number == 3  # Red's, then Blue's planned move: Green to move
    kinds = {user.username: [r.payload["kind"] for r in push_service.to(f"{user.username}-phone")]
             for user in users}
    assert kinds == {"red": ["your_move"], "blue": [], "green": ["your_move"]}


def test_a_move_played_from_a_plan_wakes_its_seat_by_no_push_nor_mail_and_the_digest_tells(
        eager, push_service, subscribe, make_user):
    """Blue's planned reply is played the moment Red moves: no push, no "your move" mail for
    that turn (Green, to move next, gets both); Blue's next digest says the move was played
    from the plan, and Green's (who had none) says nothing of plans."""
    from django.utils import timezone

    from portal.accounts.models import Profile
    from portal.mail.models import OutgoingEmail
    from portal.mail.services import digests_send

    users = [make_user(name) for name in ("pred", "pblue", "pgreen")]
    for user in users:
        subscribe(user, f"{user.username}-phone")
    red, blue, green = users
    match = games_services.match_create(
        creator=red, game="final-strategy", options={}, hours_per_phase=24,
        title="Planned", seats=[{"kind": "human", "user": user} for user in users])
    games_services.plan_set(match_id=match.pk, seat_number=2, user=blue,
                            text="if Red: wall e5-e6 then wall c3-c4")
    submit(match, red, 1, data={"steps": [{"barrier": "e5-e6"}]})
    assert match.phase_number == 3

    def your_moves(user):
        return list(OutgoingEmail.objects.filter(user=user, kind="phase_opened")
                    .values_list("phase_number", flat=True))

    assert [r.payload["kind"] for r in push_service.to("pblue-phone")] == []
    assert your_moves(blue) == [] and your_moves(green) == [3]
    assert [r.payload["kind"] for r in push_service.to("pgreen-phone")] == ["your_move"]

    Profile.objects.filter(user__in=[blue, green]).update(
        mail_delivery=Profile.Delivery.DAILY_DIGEST)
    assert digests_send(now=timezone.now()) == 2
    digest = OutgoingEmail.objects.get(user=blue, kind="digest")
    said = "1 move was played for you from your plan, in phase 2."
    assert said in digest.body_text and said in digest.body_html
    assert "from your plan" not in OutgoingEmail.objects.get(user=green, kind="digest").body_text
