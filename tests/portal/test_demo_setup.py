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
    assert get_user_model().objects.count() == 2
    assert Match.objects.count() == 2
    assert client.login(username="alice", password="demo-pass-for-tests")
    page = client.get(reverse("games:match", args=[bot_match.pk]))
    assert page.status_code == 200 and "Seal my setup" in page.content.decode()


@override_settings(DEBUG=False)
def test_demo_setup_refuses_to_run_in_production_without_force():
    with pytest.raises(CommandError, match="DEBUG is off"):
        run()
    assert not get_user_model().objects.exists()
