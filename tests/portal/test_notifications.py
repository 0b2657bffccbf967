"""The notification choices: who wants which event on which channel (``wants`` and the batch
lookups), the profile's table (good and bad input, in French), and the migration from the one
"notifications" choice that keeps everybody's mail and push as they were."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import translation

from games import services as games_services
from portal.accounts.models import Event, Profile, default_channels
from portal.accounts.notifications import (
    digest_reader,
    mail_set,
    seats_wanting,
    users_wanting,
    wants,
)
from portal.accounts.services import notifications_update, profile_update
from portal.mail.models import FailingAddress, MailOptOut
from portal.push.models import PushSubscription

pytestmark = pytest.mark.django_db
URL = "/accounts/profile/notifications/"


def fresh(user):
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


def test_a_new_player_gets_mail_and_push_for_their_turn_but_no_round_reports(make_user):
    alice = make_user("alice")
    for event in ("your_move", "match_ended", "reminder", "gameday"):
        assert wants(alice, event, "mail") and wants(alice, event, "push"), event
    assert not wants(alice, "phase_resolved", "mail")
    assert wants(alice, "leave", "mail") and wants(alice, "round_started", "mail")
    assert all(wants(alice, event, "webhook") for event in Event.values)


def test_a_daily_digest_holds_the_match_mails_but_not_push_nor_the_rest(make_user):
    alice = make_user("alice")
    profile_update(user=alice, mail_delivery="digest")
    alice = fresh(alice)
    assert not wants(alice, "your_move", "mail") and not wants(alice, "reminder", "mail")
    assert not wants(alice, "message", "mail")  # messages are counted in the digest
    assert wants(alice, "your_move", "push") and wants(alice, "message", "push")
    assert wants(alice, "round_started", "mail") and wants(alice, "leave", "mail")
    assert digest_reader(alice)
    mail_set(user_id=alice.pk, events=["your_move", "match_ended", "reminder", "gameday",
                                       "message"], on=False)
    assert not digest_reader(fresh(alice))  # nothing left to digest


def test_mail_needs_an_address_that_works(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    FailingAddress.objects.create(address="alice@example.test", reason="bounce")
    bob.email = ""
    assert not wants(alice, "your_move", "mail") and wants(alice, "your_move", "push")
    assert not wants(bob, "your_move", "mail")
    assert not digest_reader(alice)


def test_a_player_without_a_profile_row_has_the_defaults(make_user):
    alice = make_user("alice")
    Profile.objects.filter(user=alice).delete()
    alice = get_user_model().objects.get(pk=alice.pk)
    assert wants(alice, "your_move", "mail") and not wants(alice, "phase_resolved", "mail")


def test_unknown_events_and_channels_are_refused(make_user):
    alice = make_user("alice")
    for event, channel in (("chat", "mail"), ("your_move", "pigeon")):
        with pytest.raises(ValueError):
            wants(alice, event, channel)


def test_one_query_for_a_matchs_seats_and_one_for_their_addresses(
        make_user, django_assert_num_queries):
    users = [make_user(f"p{n}") for n in range(4)]
    match = games_services.match_create(
        creator=users[0], game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": u} for u in users[:2]])
    mail_set(user_id=users[1].pk, events=["your_move"], on=False)
    with django_assert_num_queries(2):
        seats = seats_wanting(match, "your_move", "mail")
    assert [seat.user for seat in seats] == [users[0]]
    with django_assert_num_queries(1):
        assert [s.number for s in seats_wanting(match.pk, "your_move", "push")] == [1, 2]
    with django_assert_num_queries(1):  # many users: one query for their failing addresses
        assert users_wanting(users, "match_ended", "mail") == users


def test_mail_set_changes_mail_only_and_says_whether_it_changed(make_user):
    alice = make_user("alice")
    assert mail_set(user_id=alice.pk, events=["match_ended"], on=False)
    assert not mail_set(user_id=alice.pk, events=["match_ended"], on=False)
    assert fresh(alice).profile.channels["match_ended"] == ["push", "webhook"]
    assert mail_set(user_id=alice.pk, events=["match_ended"], on=True)
    assert fresh(alice).profile.channels_of("match_ended") == {"mail", "push", "webhook"}


def test_the_model_refuses_unknown_events_and_channels(make_user):
    from django.core.exceptions import ValidationError

    alice = make_user("alice")
    for channels in ({"chat": ["mail"]}, {"your_move": ["pigeon"]}, {"your_move": "mail"}, []):
        with pytest.raises(ValidationError):
            notifications_update(user=alice, channels=channels, mail_delivery="now")
    assert fresh(alice).profile.channels == default_channels()


# -- the profile's table ---------------------------------------------------------------------

def table(**choices) -> dict[str, str]:
    data = {"your_move": "mail", "phase_resolved": "none", "match_ended": "mail",
            "reminder": "mail", "gameday": "mail", "leave": "mail", "round_started": "mail",
            "message": "mail", "seat": "mail", "vote": "mail", "mail_delivery": "now"}
    data.update(choices)
    return data


def test_the_table_offers_mail_only_without_a_push_device_and_says_why(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    page = client.get(reverse("accounts_profile")).content.decode()
    assert '<table class="notification-choices">' in page
    assert "Push is offered once a browser of yours takes push notifications" in page
    assert 'name="your_move" value="push"' not in page
    # Each button is labelled for a screen reader with its row and column.
    button = re.search(r'<input type="radio" name="your_move" value="mail"[^>]*id="([^"]+)"',
                       page)
    assert button and f'<label for="{button[1]}" class="visually-hidden">Your move' in page
    assert 'name="message" value="mail"' in page  # messages: mail, push once a device
    assert 'name="message" value="push"' not in page
    response = client.post(URL, table(your_move="none", phase_resolved="mail"))
    assert response.status_code == 302 and response.url.endswith("#notifications")
    profile = fresh(alice).profile
    # Push stays as it was (no device to choose it on); so do webhooks.
    assert profile.channels["your_move"] == ["push", "webhook"]
    assert profile.channels["phase_resolved"] == ["mail", "webhook"]
    assert profile.channels["message"] == ["mail", "push", "webhook"]  # (as it was)


def test_with_a_push_device_each_event_pushed_can_be_mail_push_both_or_nothing(
        client, make_user):
    alice = make_user("alice")
    PushSubscription.objects.create(user=alice, endpoint="https://push.example.test/a",
                                    p256dh="k", auth="a")
    client.force_login(alice)
    page = client.get(reverse("accounts_profile")).content.decode()
    assert re.search(r'name="your_move" value="both"[^>]*checked', page)
    assert 'name="leave" value="push"' not in page  # leave is mailed only
    response = client.post(URL, table(your_move="push", match_ended="none", reminder="both",
                                      gameday="mail", mail_delivery="digest"))
    assert response.status_code == 302
    profile = fresh(alice).profile
    assert profile.channels_of("your_move") == {"push", "webhook"}
    assert profile.channels_of("match_ended") == {"webhook"}
    assert profile.channels_of("reminder") == {"mail", "push", "webhook"}
    assert profile.channels_of("gameday") == {"mail", "webhook"}
    assert profile.mail_delivery == "digest"


@pytest.mark.parametrize("field, value, message", [
    ("your_move", "pigeon", "“pigeon” is not one of the choices of this event."),
    ("your_move", "push", "“push” is not one of the choices of this event."),  # no device
    ("leave", "both", "“both” is not one of the choices of this event."),
    ("mail_delivery", "weekly", "Select a valid choice."),
    ("gameday", None, "This field is required."),
])
def test_bad_choices_are_a_400_that_says_what_is_wrong_and_changes_nothing(
        client, make_user, field, value, message):
    alice = make_user("alice")
    client.force_login(alice)
    data = table(your_move="none")
    if value is None:
        del data[field]
    else:
        data[field] = value
    response = client.post(URL, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert fresh(alice).profile.channels == default_channels()


def test_the_table_needs_a_login_and_a_post(client, make_user):
    assert client.post(URL, table()).status_code == 302  # to the log-in page
    client.force_login(make_user("alice"))
    assert client.get(URL).status_code == 405


@pytest.fixture
def back_to_english():
    """A French page leaves French active in this thread: texts made later by code that does
    not choose a language (an audit summary) must not read in French."""
    yield
    translation.deactivate()


def test_the_table_reads_in_french(client, make_user, back_to_english):
    alice = make_user("alice")
    profile_update(user=alice, language="fr")
    client.force_login(alice)
    page = client.get(reverse("accounts_profile")).content.decode()
    for text in ("Notifications", "Votre tour (une phase s’est ouverte où vous devez agir)",
                 "Rien", "Courriel", "Un résumé quotidien de mes parties",
                 "Enregistrer les choix de notification"):
        assert text in page, text
    response = client.post(URL, table(your_move="pigeon"))
    assert response.status_code == 400
    assert "« pigeon » n’est pas un des choix de cet événement." in response.content.decode()


# -- the migration ---------------------------------------------------------------------------

BEFORE, AFTER = ("accounts", "0004_profile_chat_handle"), ("accounts", "0005_notification_channels")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_everybodys_mail_and_push(make_user):
    names = {"all": "ann", "turn": "tom", "digest": "dee", "none": "noe"}
    users = {choice: make_user(name) for choice, name in names.items()}
    opted = make_user("oli")
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([BEFORE])
        old = executor.loader.project_state([BEFORE]).apps
        for choice, user in users.items():
            old.get_model("accounts", "Profile").objects.filter(user_id=user.pk).update(
                notifications=choice)
        MailOptOut.objects.create(user_id=opted.pk, kind="phase_opened")
        executor = MigrationExecutor(connection)
        executor.migrate([AFTER])
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)

    def mailed(user):
        user = fresh(user)
        return {event for event in Event.values if wants(user, event, "mail")}

    # (an event added since, "seat", is mailed by its default until a player chooses)
    later = {"seat"}
    turn = {"your_move", "match_ended", "reminder", "gameday", "leave", "round_started",
            "message", "vote", *later}  # (vote: mailed to whoever gets the result's mail, 0007)
    assert mailed(users["all"]) == turn | {"phase_resolved"}
    assert mailed(users["turn"]) == turn
    # (messages: in the digest)
    assert mailed(users["digest"]) == {"leave", "round_started", "vote", *later}
    assert digest_reader(fresh(users["digest"])) and not digest_reader(fresh(users["turn"]))
    assert mailed(users["none"]) == {"leave", *later}  # the leave confirmation always went out
    assert mailed(opted) == turn - {"your_move", "gameday"}
    assert not MailOptOut.objects.exists()
    for user in [*users.values(), opted]:  # push was never tied to the mail setting
        assert {e for e in Event.values if wants(fresh(user), e, "push")} == {
            "your_move", "match_ended", "reminder", "gameday", "message"}
