"""Every push consumer asks the player's notification choices, a player who left a match gets
no push of it, and the pushes of one match share one topic and tag: a newer one replaces an
older one still unsent in the outbox (and on the device: the service worker shows one
notification per tag; see test_browser). The pushes stay queued here (no commit runs the
flush), as a push service that is slow or a phone that is off leaves them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services as games_services
from games.models import Match, Phase, Seat
from portal.accounts.models import Event
from portal.accounts.notifications import mail_set
from portal.accounts.services import notifications_update
from portal.push import services
from portal.push.models import PushMessage

pytestmark = pytest.mark.django_db
Status = PushMessage.Status


def duel(alice, bob, **options):
    match = games_services.match_create(
        creator=alice, game="toy-duel", options=options, hours_per_phase=24, title="Push duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    match.alice, match.bob = alice, bob
    return match


def play(match, alice=2, bob=1):
    for seat, user, number in ((1, match.alice, alice), (2, match.bob, bob)):
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=match.phase_number, source="web",
                                     text=str(number))
    games_services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
    match.refresh_from_db()


def push_off(user, *events):
    """The player's table with push off for ``events`` (mail as it was)."""
    channels = {event: sorted(user.profile.channels_of(event) - ({"push"} if event in events
                                                                 else set()))
                for event in Event.values}
    notifications_update(user=user, channels=channels, mail_delivery="now")


def pushed(user, kind=None) -> list[PushMessage]:
    rows = PushMessage.objects.filter(subscription__user=user).order_by("pk")
    return list(rows.filter(kind=kind) if kind else rows)


@pytest.fixture
def players(push_service, subscribe, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    subscribe(alice, "alice-phone")
    subscribe(bob, "bob-phone")
    return alice, bob


def test_your_move_is_pushed_to_the_players_who_want_it_by_push(players):
    alice, bob = players
    push_off(bob, Event.YOUR_MOVE)
    mail_set(user_id=alice.pk, events=Event.values, on=False)  # mail off: push stays on
    match = duel(alice, bob)
    assert services.phase_opened_push(match_id=match.pk, phase_number=1) == 1
    assert [r.kind for r in pushed(alice)] == ["your_move"] and pushed(bob) == []


def test_results_and_reminders_follow_their_own_choices(players):
    alice, bob = players
    push_off(alice, Event.MATCH_ENDED)
    push_off(bob, Event.REMINDER)
    match = duel(alice, bob, target=9)
    deadline = Phase.objects.get(match=match, number=1).deadline
    assert services.reminders_push(now=deadline - timedelta(minutes=30)) == 1
    assert [r.kind for r in pushed(alice)] == ["reminder"]
    match = duel(alice, bob, target=1)
    play(match)
    assert services.match_ended_push(match_id=match.pk) == 1
    assert [r.kind for r in pushed(bob)] == ["result"]


def test_gameday_pushes_follow_the_gameday_choice(push_service, subscribe, make_user):
    users = [make_user(f"racer{n}") for n in (1, 2)]
    for user in users:
        subscribe(user, f"{user.username}-phone")
    race = games_services.match_create(
        creator=users[0], game="toy-race", hours_per_phase=24,
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": u} for u in users])
    push_off(users[0], Event.GAMEDAY)
    push_off(users[1], Event.YOUR_MOVE)
    assert services.gameday_opened_push(match_id=race.pk, gameday="1") == 1
    assert pushed(users[0]) == [] and len(pushed(users[1])) == 1


def test_a_second_push_of_a_match_replaces_the_first_still_unsent(players):
    alice, bob = players
    match = duel(alice, bob, target=9)
    other = duel(alice, bob, target=9)  # another match: its own topic, left alone
    services.phase_opened_push(match_id=match.pk, phase_number=1)
    services.phase_opened_push(match_id=other.pk, phase_number=1)
    play(match)
    services.phase_opened_push(match_id=match.pk, phase_number=2)
    first, kept, second = pushed(alice)
    assert first.topic == second.topic == first.payload["tag"] == second.payload["tag"] \
        == f"m{match.pk}-move"
    assert kept.topic == f"m{other.pk}-move" and kept.status == Status.QUEUED
    assert (first.status, first.last_error) == (Status.EXPIRED, "replaced by a newer one")
    assert second.status == Status.QUEUED and "2" in second.payload["body"]
    # The result replaces the last "your move" in turn.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED,
                                             result={"winners": [1], "reason": ""})
    services.match_ended_push(match_id=match.pk)
    second.refresh_from_db()
    assert second.status == Status.EXPIRED
    assert pushed(alice, "result")[0].payload["tag"] == f"m{match.pk}-move"


def test_no_push_for_a_player_handed_over_removed_or_forfeited(
        push_service, subscribe, make_user, moderator):
    alice, bob, carol, dan = (make_user(n) for n in ("alice", "bob", "carol", "dan"))
    for user in (alice, bob, carol, dan):
        subscribe(user, f"{user.username}-phone")
    handed = duel(alice, bob, target=9)
    games_services.seat_moderate_replace(match_id=handed.pk, seat_number=2, by=moderator,
                                         reason="asked", user=carol)
    removed = duel(alice, dan, target=9)
    games_services.seat_kick(match_id=removed.pk, seat_number=2, by=moderator, reason="abuse")
    forfeited = duel(carol, dan, target=9)
    Seat.objects.filter(match=forfeited, number=2).update(status=Seat.Status.FORFEITED)
    for match in (handed, removed, forfeited):
        deadline = Phase.objects.get(match=match, number=1).deadline
        services.phase_opened_push(match_id=match.pk, phase_number=1)
        services.reminders_push(now=deadline - timedelta(minutes=30))
    assert pushed(bob) == [] and pushed(dan) == []
    assert {r.dedupe_key.split(":")[2] for r in pushed(carol)} == {
        f"m{handed.pk}", f"m{forfeited.pk}"}
