"""A Sealed Notes match with a sheet of each seat in, one phase resolved and one open with a
sealed sheet, mails and pushes of both players, and every role that may ask for its pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

import tests.portal.notegame  # noqa: F401  (registers "sealed-notes", whose sheets are text)
from games import services
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import phase_opened_notify
from portal.push.models import PushMessage, PushSubscription
from tests.portal.builders import PASSWORD, duel, make_user

SHEET_ALICE_OLD = "ALICE-FIRST-DRAFT-7f1c"
SHEET_ALICE = "ALICE-RESOLVED-SHEET-2b9e"
SHEET_BOB = "BOB-RESOLVED-SHEET-c3d1"
SEALED_ALICE = "ALICE-SEALED-SHEET-5a0e"
BOB_SUBJECT = "BOB-PRIVATE-SUBJECT-88aa"
BOB_PUSH = "BOB-PUSH-TEXT-91ff"
BOB_DEVICE = "BOB-DEVICE-LABEL-4c2d"
SECRETS = (SHEET_ALICE_OLD, SHEET_ALICE, SHEET_BOB, SEALED_ALICE, BOB_SUBJECT, BOB_PUSH,
           BOB_DEVICE)


@dataclass
class World:
    match: Any
    alice: Any
    bob: Any
    carol: Any
    mod: Any

    def client(self, role: str) -> Client:
        client = Client()
        user = {"owner": self.alice, "player": self.bob, "spectator": self.carol,
                "moderator": self.mod}.get(role)
        if user is not None:
            assert client.login(username=user.username, password=PASSWORD)
        return client


def note(match, user, text, phase):
    """``user`` seals ``text`` in their seat of ``match`` (seat 1 is its creator's)."""
    seat = 1 if user.pk == match.created_by_id else 2
    return services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                  phase_number=phase, data={"note": text}, source="web")


def device(user, label):
    return PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example.test/{user.username}", p256dh="k" * 20,
        auth="a" * 20, label=label)


def push(subscription, key, status, text):
    now = timezone.now()
    return PushMessage.objects.create(
        subscription=subscription, kind="your_move", dedupe_key=key, status=status,
        payload={"title": text, "body": text}, expires_at=now + timedelta(hours=1),
        next_attempt_at=now, attempts=1, sent_at=now if status == "sent" else None)


@pytest.fixture
def world(db) -> World:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    mod = make_user("mod", staff=True)
    mod.groups.add(Group.objects.get(name="Moderator"))
    match = duel(alice, bob, game="sealed-notes")
    match.alice, match.bob = alice, bob
    note(match, alice, SHEET_ALICE_OLD, 1)
    note(match, alice, SHEET_ALICE, 1)
    note(match, bob, SHEET_BOB, 1)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    note(match, alice, SEALED_ALICE, 2)
    # The "your move" mails of phase 2, as the lifecycle's listener writes them: alice's went
    # out; bob's failed (its subject, as any mail's may, says something private).
    assert phase_opened_notify(match_id=match.pk, phase_number=2) == 2
    OutgoingEmail.objects.filter(user=alice).update(status="sent", sent_at=timezone.now(),
                                                    attempts=1)
    OutgoingEmail.objects.filter(user=bob).update(status="failed", attempts=3,
                                                  subject=BOB_SUBJECT)
    push(device(alice, "alice's laptop"), f"push:move:m{match.pk}:p2:d1", "sent", "hello")
    push(device(bob, BOB_DEVICE), f"push:move:m{match.pk}:p2:d2", "expired", BOB_PUSH)
    match.refresh_from_db()
    return World(match, alice, bob, carol, mod)
