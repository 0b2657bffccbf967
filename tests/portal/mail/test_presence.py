"""No "your move" mail to a player at the match page: against a bot that answers in seconds,
a player playing on the page got a mail for every turn (16 in 8 minutes of Panzer Squadron).
The page's poll records the player as seen; a phase opening for a player seen in the last
few minutes sends them no mail, unless its deadline is near."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as games_services
from games.models import Phase, Seat
from games.services import presence
from portal.mail.models import OutgoingEmail
from portal.mail.services import phase_opened_notify

pytestmark = pytest.mark.django_db(transaction=True)


def your_move_mails(match, user) -> list[int]:
    return sorted(OutgoingEmail.objects.filter(
        match=match, to=user.email, kind=OutgoingEmail.Kind.PHASE_OPENED,
    ).values_list("phase_number", flat=True))


def play(match, users, numbers) -> None:
    for seat, (user, number) in enumerate(zip(users, numbers, strict=True), start=1):
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=match.phase_number, source="web",
                                     data={"number": number})
    match.refresh_from_db()


@pytest.fixture
def duel(eager, make_user):
    cache.clear()
    alice, bob = make_user("alice"), make_user("bob")
    match = games_services.match_create(
        creator=alice, game="toy-duel", options={"target": 3}, hours_per_phase=48,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    return match, alice, bob


def test_a_player_at_the_page_gets_no_your_move_mail(duel):
    match, alice, bob = duel
    assert your_move_mails(match, alice) == [1] and your_move_mails(match, bob) == [1]
    page = Client()
    page.force_login(alice)
    # The open page polls who has sealed: she is at it.
    assert page.get(reverse("games:submission_status", args=[match.pk]),
                    {"phase": 1}).status_code == 200
    play(match, (alice, bob), (1, 1))
    assert match.phase_number == 2
    assert your_move_mails(match, alice) == [1]  # at the page: it shows her move
    assert your_move_mails(match, bob) == [1, 2]


def test_the_poll_keeps_the_player_seen_and_a_spectator_is_no_one(duel, make_user):
    match, alice, bob = duel
    page = Client()
    page.force_login(alice)
    poll = reverse("games:submission_status", args=[match.pk])
    assert page.get(poll, {"phase": 1}).status_code == 200
    seen = Seat.objects.get(match=match, user=alice).seen_at
    assert seen is not None and timezone.now() - seen < timedelta(seconds=30)
    assert Seat.objects.get(match=match, user=bob).seen_at is None
    # Recorded once a minute at most: the next polls write nothing.
    Seat.objects.filter(match=match, user=alice).update(seen_at=seen - timedelta(seconds=30))
    page.get(poll, {"phase": 1})
    assert Seat.objects.get(match=match, user=alice).seen_at == seen - timedelta(seconds=30)


def test_a_player_who_left_the_page_or_a_near_deadline_gets_the_mail(duel):
    match, alice, bob = duel
    now = timezone.now()
    Seat.objects.filter(match=match, user=alice).update(
        seen_at=now - presence.PRESENT_FOR - timedelta(seconds=5))  # gone a while ago
    Seat.objects.filter(match=match, user=bob).update(seen_at=now)
    play(match, (alice, bob), (1, 1))
    assert your_move_mails(match, alice) == [1, 2]
    assert your_move_mails(match, bob) == [1]
    # Bob is still at the page, but the deadline is near now: the mail goes.
    Phase.objects.filter(match=match, number=2).update(deadline=now + timedelta(minutes=30))
    assert phase_opened_notify(match_id=match.pk, phase_number=2) == 1
    assert your_move_mails(match, bob) == [1, 2]
