"""Every mail consumer asks the player's notification choices (``portal.accounts.
notifications``): your move, round reports, results, reminders, gamedays, leave, digests; and a
player who left a match (seat handed over, removed, left before the start, forfeited) is mailed
nothing more of it. The notify functions run as the lifecycle's receivers run them; what they
queue is read from the outbox."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as games_services
from games.models import Match, Phase, Seat
from portal.accounts.models import Event
from portal.accounts.notifications import mail_set
from portal.accounts.services import profile_update
from portal.mail import services
from portal.mail.models import OutgoingEmail
from portal.mail.services.gameday import gameday_opened_notify
from portal.mail.services.leave import leave_taken_notify

pytestmark = pytest.mark.django_db


def mailed(kind: str, match: Match | None = None) -> list[str]:
    rows = OutgoingEmail.objects.filter(kind=kind)
    if match is not None:
        rows = rows.filter(match_id=match.pk)
    return sorted(rows.values_list("to", flat=True))


def play(match, alice=2, bob=1):
    """Both seats submit and the phase resolves (as the worker would)."""
    for seat, user, number in ((1, match.alice, alice), (2, match.bob, bob)):
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=match.phase_number, source="web",
                                     text=str(number))
    games_services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
    match.refresh_from_db()


def off(user, *events):
    mail_set(user_id=user.pk, events=events, on=False)


def test_your_move_goes_to_the_players_who_want_it(toy_duel):
    match = toy_duel()
    off(match.bob, Event.YOUR_MOVE)
    OutgoingEmail.objects.all().delete()
    assert services.phase_opened_notify(match_id=match.pk, phase_number=1) == 1
    assert mailed("phase_opened", match) == [match.alice.email]


def test_round_reports_go_to_those_who_turned_them_on(toy_duel):
    match = toy_duel(options={"target": 9})
    mail_set(user_id=match.alice.pk, events=[Event.PHASE_RESOLVED], on=True)
    play(match)
    assert services.phase_resolved_notify(match_id=match.pk, phase_number=1,
                                          finished=False) == 1
    assert mailed("phase_resolved", match) == [match.alice.email]


def test_results_go_to_the_players_who_want_them(toy_duel):
    match = toy_duel(options={"target": 1})
    off(match.alice, Event.MATCH_ENDED)
    play(match)
    assert match.status == Match.Status.FINISHED
    services.match_ended_notify(match_id=match.pk, status=match.status)
    assert mailed("match_ended", match) == [match.bob.email]


def test_reminders_go_to_the_players_who_want_them(toy_duel):
    match = toy_duel()
    off(match.alice, Event.REMINDER)
    deadline = Phase.objects.get(match=match, number=1).deadline
    assert services.reminders_send(now=deadline - timedelta(minutes=30)) == 1
    assert mailed("reminder", match) == [match.bob.email]


def test_gameday_mails_follow_the_gameday_choice_not_the_your_move_one(make_user):
    users = [make_user(f"racer{n}") for n in (1, 2)]
    race = games_services.match_create(
        creator=users[0], game="toy-race", hours_per_phase=24,
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": u} for u in users])
    off(users[0], Event.GAMEDAY)
    off(users[1], Event.YOUR_MOVE)
    assert gameday_opened_notify(match_id=race.pk, gameday="1") == 1
    assert [m.to for m in OutgoingEmail.objects.filter(dedupe_key__startswith="gameday:")] == [
        users[1].email]


def test_the_leave_confirmation_can_be_turned_off(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    off(bob, Event.LEAVE)
    for user in (alice, bob):
        leave = games_services.leave_take(user=user, days=1)
        leave_taken_notify(leave_id=leave.pk)
    assert mailed("leave") == [alice.email]


def test_digest_readers_get_the_digest_instead_of_the_match_mails(toy_duel):
    match = toy_duel()
    profile_update(user=match.alice, mail_delivery="digest")
    OutgoingEmail.objects.all().delete()
    services.phase_opened_notify(match_id=match.pk, phase_number=1)
    assert mailed("phase_opened", match) == [match.bob.email]
    assert services.digests_send(now=timezone.now()) == 1
    assert mailed("digest") == [match.alice.email]
    off(match.alice, Event.YOUR_MOVE, Event.MATCH_ENDED, Event.REMINDER, Event.GAMEDAY,
        Event.MESSAGE)
    assert services.digests_send(now=timezone.now() + timedelta(days=1)) == 0  # none wanted


# -- players who left --------------------------------------------------------------------------

def test_a_player_whose_seat_was_handed_over_gets_nothing_more(toy_duel, make_user, moderator):
    match = toy_duel(options={"target": 9})
    carol = make_user("carol")
    games_services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                         reason="bob asked", user=carol)
    match.bob, bob = carol, match.bob
    everything_on(bob, carol)
    OutgoingEmail.objects.all().delete()
    deadline = Phase.objects.get(match=match, number=1).deadline
    services.reminders_send(now=deadline - timedelta(minutes=30))
    play(match)
    services.phase_opened_notify(match_id=match.pk, phase_number=2)
    services.phase_resolved_notify(match_id=match.pk, phase_number=1, finished=False)
    assert not OutgoingEmail.objects.filter(to=bob.email).exists()
    assert set(OutgoingEmail.objects.filter(to=carol.email).values_list("kind", flat=True)) \
        == {"reminder", "phase_opened", "phase_resolved"}


def everything_on(*users):
    for user in users:
        mail_set(user_id=user.pk, events=Event.values, on=True)


def test_a_removed_player_gets_nothing_more(toy_duel, moderator):
    match = toy_duel(options={"target": 1})
    everything_on(match.bob)
    games_services.seat_kick(match_id=match.pk, seat_number=2, by=moderator, reason="abuse")
    OutgoingEmail.objects.all().delete()
    deadline = Phase.objects.get(match=match, number=1).deadline
    services.reminders_send(now=deadline - timedelta(minutes=30))
    services.phase_opened_notify(match_id=match.pk, phase_number=1)
    games_services.match_moderate_abort(match_id=match.pk, by=moderator, reason="over")
    services.match_ended_notify(match_id=match.pk, status="aborted")
    assert mailed("match_ended", match) == [match.alice.email]
    assert not OutgoingEmail.objects.filter(to=match.bob.email).exists()


def test_a_player_who_left_before_the_start_gets_nothing(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = games_services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": None}])
    games_services.seat_leave(match_id=match.pk, user=alice)
    for user in (bob, carol):  # the second one starts the match
        games_services.seat_join(match_id=match.pk, user=user, invite_token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    OutgoingEmail.objects.all().delete()
    services.phase_opened_notify(match_id=match.pk, phase_number=1)
    assert mailed("phase_opened", match) == [bob.email, carol.email]


def test_a_forfeited_player_hears_the_result_of_the_forfeit_and_nothing_else(toy_duel):
    match = toy_duel(options={"target": 9}, miss_limit=1, miss_policy="forfeit")
    everything_on(match.alice, match.bob)
    games_services.orders_submit(match_id=match.pk, seat_number=1, user=match.alice,
                                 phase_number=1, source="web", text="2")
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, status="open").update(deadline=past)
    games_services.phase_resolve(match_id=match.pk, phase_number=1)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Seat.objects.get(match=match, number=2).status == Seat.Status.FORFEITED
    OutgoingEmail.objects.all().delete()
    services.match_ended_notify(match_id=match.pk, status=match.status)
    assert mailed("match_ended", match) == sorted([match.alice.email, match.bob.email])


def test_a_seat_that_forfeited_in_a_match_still_in_play_is_mailed_nothing(toy_duel):
    """As a resignation leaves a seat in a match of more players that goes on."""
    match = toy_duel()
    everything_on(match.bob)
    Seat.objects.filter(match=match, number=2).update(status=Seat.Status.FORFEITED)
    OutgoingEmail.objects.all().delete()
    deadline = Phase.objects.get(match=match, number=1).deadline
    services.reminders_send(now=deadline - timedelta(minutes=30))
    services.phase_opened_notify(match_id=match.pk, phase_number=1)
    profile_update(user=match.bob, mail_delivery="digest")
    services.digests_send(now=timezone.now())
    assert not OutgoingEmail.objects.filter(to=match.bob.email).exists()
    assert mailed("phase_opened", match) == [match.alice.email]
