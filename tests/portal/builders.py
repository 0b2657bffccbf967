"""Test data built the way users build it: accounts, then matches through the services."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from games.services import match_create, seat_join

PASSWORD = "correct-horse-battery-staple"


def make_user(username: str, *, staff: bool = False, verified: bool = True):
    user = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, is_staff=staff
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=verified, primary=True)
    return user


def duel(creator, opponent=None, *, game: str = "toy-duel", hours: float = 24,
         is_public: bool = True, options: dict | None = None, title: str = ""):
    """A two-seat match: ``creator`` in seat 1; ``opponent`` joins seat 2 (which starts it),
    or "bot" for the random bot, or None to leave seat 2 open."""
    second = ({"kind": "bot", "bot": "random"} if opponent == "bot"
              else {"kind": "human", "user": None})
    match = match_create(
        creator=creator, game=game, options=options or {},
        seats=[{"kind": "human", "user": creator}, second],
        hours_per_phase=hours, is_public=is_public, title=title,
    )
    if opponent not in (None, "bot"):
        seat_join(match_id=match.pk, user=opponent, invite_token=match.invite_token)
    match.refresh_from_db()
    return match


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hashing passwords the production way costs ~0.3 s each; tests need no strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
