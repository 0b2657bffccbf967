"""``manage.py demo_setup``: demo accounts and a match against a bot, idempotent."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse

import engine
from games.models import Match

pytestmark = pytest.mark.django_db


def run(**options) -> str:
    from io import StringIO

    out = StringIO()
    call_command("demo_setup", stdout=out, **options)
    return out.getvalue()


def expected_game() -> str:
    try:
        return engine.get("final-act").slug
    except KeyError:
        return sorted(engine.games())[0]


@override_settings(DEBUG=True)
def test_demo_setup_creates_verified_accounts_and_a_bot_match_once(client):
    output = run(password="demo-pass-for-tests")
    users = get_user_model().objects.filter(username__in=["alice", "bob"])
    assert users.count() == 2
    assert EmailAddress.objects.filter(user__in=users, verified=True).count() == 2
    bot_match = Match.objects.get(seats__bot__gt="")
    assert bot_match.game == expected_game()
    assert bot_match.status == Match.Status.ACTIVE and bot_match.phase_number == 1
    assert bot_match.seats.get(number=1).user.username == "alice"
    assert "demo-pass-for-tests" in output
    assert reverse("games:match", args=[bot_match.pk]) in output

    run(password="demo-pass-for-tests")  # again: nothing new
    assert get_user_model().objects.count() == 3  # alice, bob and the moderator
    assert Match.objects.count() == 2
    assert client.login(username="alice", password="demo-pass-for-tests")
    page = client.get(reverse("games:match", args=[bot_match.pk]))
    assert page.status_code == 200 and "Seal my setup" in page.content.decode()


@override_settings(DEBUG=False)
def test_demo_setup_refuses_to_run_in_production_without_force():
    with pytest.raises(CommandError, match="DEBUG is off"):
        run()
    assert not get_user_model().objects.exists()


@override_settings(DEBUG=True)
def test_demo_setup_gives_a_moderator_account_that_opens_the_admin(client):
    output = run(password="demo-pass-for-tests")
    assert "moderator" in output and reverse("admin:index") in output
    assert "createsuperuser" in output
    moderator = get_user_model().objects.get(username="moderator")
    assert moderator.is_staff and not moderator.is_superuser
    assert moderator.has_perm("games.moderate_match")
    assert EmailAddress.objects.filter(user=moderator, verified=True).exists()
    assert client.login(username="moderator", password="demo-pass-for-tests")
    assert client.get(reverse("admin:index")).status_code == 200


def test_createsuperuser_accounts_count_as_verified(client):
    import os
    from unittest import mock

    with mock.patch.dict(os.environ, {"DJANGO_SUPERUSER_PASSWORD": "boss-pass-1234"}):
        call_command("createsuperuser", "--noinput", username="boss", email="boss@example.test")
    boss = get_user_model().objects.get(username="boss")
    assert EmailAddress.objects.filter(user=boss, email="boss@example.test", verified=True,
                                       primary=True).exists()
    response = client.post(reverse("account_login"),
                           {"login": "boss", "password": "boss-pass-1234"})
    assert response.status_code == 302 and "confirm" not in response.url
    assert client.get(reverse("admin:index")).status_code == 200
