"""Sign-up with e-mail verification, log in/out, password reset, and the profile page."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from portal.accounts.models import Profile, default_channels, parse_reminder_hours
from tests.portal.builders import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def link_in(message) -> str:
    return re.search(r"http://testserver(/\S+)", message.body).group(1)


def test_signup_sends_a_verification_mail_and_the_link_verifies(client):
    response = client.post(reverse("account_signup"), {
        "email": "dora@example.com", "username": "dora",
        "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    user = get_user_model().objects.get(username="dora")
    assert Profile.objects.filter(user=user).exists()
    assert not EmailAddress.objects.get(user=user).verified
    (message,) = mail.outbox
    assert message.to == ["dora@example.com"]
    # Unverified: logging in sends the player back to verification, not into the portal.
    login = client.post(reverse("account_login"), {"login": "dora", "password": PASSWORD})
    assert reverse("account_email_verification_sent") in login.url
    confirm = link_in(message)
    assert client.get(confirm).status_code == 200
    client.post(confirm)
    assert EmailAddress.objects.get(user=user).verified
    login = client.post(reverse("account_login"), {"login": "dora", "password": PASSWORD})
    assert login.status_code == 302 and login.url == reverse("home")


@pytest.mark.parametrize("data, message", [
    ({"email": "not-an-email", "username": "eve", "password1": PASSWORD, "password2": PASSWORD},
     "Enter a valid email address."),
    ({"email": "eve@example.com", "username": "eve", "password1": PASSWORD,
      "password2": PASSWORD + "x"}, "You must type the same password each time."),
    ({"email": "eve@example.com", "username": "eve", "password1": "123", "password2": "123"},
     "This password is too short."),
])
def test_bad_signup_is_a_400_with_the_reason(client, data, message):
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not get_user_model().objects.filter(username="eve").exists()


def test_login_with_a_wrong_password_is_a_400(client):
    make_user("alice")
    response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
    assert response.status_code == 400
    assert "not correct" in response.content.decode()


def test_log_in_and_out(client):
    make_user("alice")
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response.url == reverse("home")
    assert client.get(reverse("games:my_matches")).status_code == 200
    client.post(reverse("account_logout"))
    assert client.get(reverse("games:my_matches")).status_code == 302


def test_password_reset_by_mail(client):
    make_user("alice")
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    (message,) = mail.outbox
    key_page = client.get(link_in(message), follow=True)
    assert key_page.status_code == 200
    new_password = "a-brand-new-secret-42"
    client.post(key_page.redirect_chain[-1][0] if key_page.redirect_chain else link_in(message),
                {"password1": new_password, "password2": new_password})
    assert client.login(username="alice", password=new_password)


def test_password_reset_with_a_bad_email_is_a_400(client):
    response = client.post(reverse("account_reset_password"), {"email": "nonsense"})
    assert response.status_code == 400


def test_every_user_gets_a_profile_with_defaults():
    user = make_user("alice")
    assert user.profile.time_zone == "UTC"
    assert user.profile.mail_delivery == Profile.Delivery.IMMEDIATE
    assert user.profile.channels == default_channels()
    assert user.profile.reminders == [24, 1]


def test_profile_page_saves_time_zone_and_reminders(client):
    user = make_user("alice")
    client.force_login(user)
    assert client.get(reverse("accounts_profile")).status_code == 200
    response = client.post(reverse("accounts_profile"), {
        "time_zone": "Europe/Paris", "reminder_hours": "1, 48"})
    assert response.status_code == 302
    user.profile.refresh_from_db()
    assert user.profile.time_zone == "Europe/Paris"
    assert user.profile.reminders == [48, 1]
    page = client.get(reverse("games:lobby")).content.decode()
    assert "Europe/Paris" in page


@pytest.mark.parametrize("field, value, message", [
    ("time_zone", "Mars/Olympus", "Select a valid choice."),
    ("language", "tlh", "Select a valid choice."),
    ("reminder_hours", "24,soon", "“soon” is not a whole number of hours"),
    ("reminder_hours", "24,9999", "9999 is out of range"),
])
def test_bad_profile_input_is_a_400_and_changes_nothing(client, field, value, message):
    user = make_user("alice")
    client.force_login(user)
    data = {"time_zone": "Europe/Paris", "reminder_hours": "24"}
    data[field] = value
    response = client.post(reverse("accounts_profile"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.time_zone == "UTC" and user.profile.reminders == [24, 1]


def test_reminder_hours_parse_and_sort_largest_first():
    assert parse_reminder_hours(" 1, 24,,24 ") == [24, 1]
    assert parse_reminder_hours("") == []


def test_profile_page_needs_a_login(client):
    response = client.get(reverse("accounts_profile"))
    assert response.status_code == 302 and reverse("account_login") in response.url


def test_profile_admin_lists_and_searches_profiles(client):
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    make_user("alice")
    client.login(username="root", password=PASSWORD)
    page = client.get(reverse("admin:accounts_profile_changelist"), {"q": "alice"})
    assert page.status_code == 200 and "alice" in page.content.decode()
    profile = Profile.objects.get(user__username="alice")
    assert client.get(reverse("admin:accounts_profile_change", args=[profile.pk])
                      ).status_code == 200


def test_the_user_admin_shows_the_profile_inline(client):
    get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    alice = make_user("alice")
    client.login(username="root", password=PASSWORD)
    url = reverse("admin:auth_user_change", args=[alice.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Deadlines are shown in this time zone." in (
        page.content.decode())
