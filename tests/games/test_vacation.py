"""Vacation: a yearly bank; leave moves the deadlines where the player must act (matches that
allow it, never beyond the per-phase cap); phases that open during leave get the rest of it;
gameday matches and bots are not moved; the bank, leave and moves show on the pages and in
the e-mails."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Leave, LeaveExtension, ModerationEntry, Phase
from games.services import ServiceError
from tests.helpers import submit
from tests.outbox import promised


def test_the_bank_counts_this_years_leave(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 10
    alice = make_user("alice")
    assert services.vacation_bank(user=alice).left == 10
    services.leave_take(user=alice, days=3)
    bank = services.vacation_bank(user=alice)
    assert (bank.used, bank.left) == (3, 7)
    with pytest.raises(ServiceError) as caught:  # one leave at a time
        services.leave_take(user=alice, days=1)
    assert "already" in caught.value.message
    later = timezone.now() + timedelta(days=4)
    with pytest.raises(ServiceError) as caught:
        services.leave_take(user=alice, days=8, now=later)
    assert caught.value.code == "capped"
    for bad in (0, -1, "two", None, True):
        with pytest.raises(ServiceError):
            services.leave_take(user=alice, days=bad, now=later)
    assert Leave.objects.filter(user=alice).count() == 1


def test_leave_moves_the_deadlines_where_the_player_must_act(toy_duel, settings):
    settings.VACATION_MAX_PHASE_DAYS = 14
    prompted = toy_duel(hours_per_phase=24)
    done = toy_duel(hours_per_phase=24)
    no_vacations = toy_duel(hours_per_phase=24, allow_vacations=False)
    alice = prompted.alice
    # The same player in every match: hand her the other matches' first seats.
    for other in (done, no_vacations):
        services.seat_moderate_replace(
            match_id=other.pk, seat_number=1, reason="setup", user=alice,
            by=type(alice).objects.create_superuser("root" + str(other.pk), "r@x.test", "pw"))
    submit(done, alice, 1, 3, 1)
    before = {m.pk: Phase.objects.get(match=m, number=1).deadline
              for m in (prompted, done, no_vacations)}

    leave = services.leave_take(user=alice, days=3)
    after = {m.pk: Phase.objects.get(match=m, number=1).deadline
             for m in (prompted, done, no_vacations)}
    assert after[prompted.pk] - before[prompted.pk] == pytest.approx(timedelta(days=3),
                                                                       abs=timedelta(seconds=5))
    assert after[done.pk] == before[done.pk]  # her sheet is in
    assert after[no_vacations.pk] == before[no_vacations.pk]
    prompted.refresh_from_db()
    assert prompted.deadline == after[prompted.pk]
    (ext,) = LeaveExtension.objects.filter(leave=leave)
    assert ext.match_id == prompted.pk and ext.phase_number == 1
    entry = ModerationEntry.objects.get(match=prompted, kind="leave")
    assert entry.summary == f"{alice.username} is on leave: the deadline moved by 3 days"
    assert ("leave_taken", {"leave_id": leave.pk}) in [
        (name, payload) for name, payload in promised(None)]


def test_leave_never_moves_a_phase_beyond_the_cap(toy_duel, settings):
    settings.VACATION_MAX_PHASE_DAYS = 5
    settings.VACATION_DAYS_PER_YEAR = 30
    match = toy_duel(hours_per_phase=24)
    start = Phase.objects.get(match=match, number=1).deadline
    services.leave_take(user=match.alice, days=4)
    services.leave_take(user=match.bob, days=4)
    phase = Phase.objects.get(match=match, number=1)
    assert phase.leave_extended == timedelta(days=5)
    assert phase.deadline - start == timedelta(days=5)


def test_a_phase_opening_during_leave_gets_the_rest_of_it(toy_duel):
    match = toy_duel(hours_per_phase=24, options={"target": 9})
    submit(match, match.alice, 1, 3, 1)
    services.leave_take(user=match.alice, days=2)  # her sheet is in: phase 1 is not moved
    assert Phase.objects.get(match=match, number=1).leave_extended == timedelta(0)
    submit(match, match.bob, 2, 1, 1)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    phase = Phase.objects.get(match=match, number=2)
    assert timedelta(days=1, hours=23) < phase.leave_extended <= timedelta(days=2)
    assert phase.deadline - phase.opened_at == timedelta(hours=24) + phase.leave_extended
    assert ModerationEntry.objects.filter(match=match, kind="leave", phase_number=2).exists()


def test_bots_and_gameday_matches_are_not_moved(toy_duel, make_user):
    """A bot takes no leave; a gameday (continuous) match keeps its schedule (documented)."""
    runner = make_user("runner")
    race = services.match_create(
        creator=runner, game="toy-race", hours_per_phase=24,
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": runner}, {"kind": "bot", "bot": "random"}])
    before = race.deadline
    assert before is not None and race.phase_kind == "continuous"
    services.leave_take(user=runner, days=2)
    race.refresh_from_db()
    assert race.deadline == before
    assert not LeaveExtension.objects.filter(match=race).exists()
    assert not ModerationEntry.objects.filter(match=race).exists()


def test_the_profile_shows_the_bank_and_takes_leave(client, toy_duel):
    match = toy_duel()
    client.force_login(match.alice)
    page = client.get(reverse("accounts_profile")).content.decode()
    assert 'id="vacation-left"' in page
    bad = client.post(reverse("accounts_leave"), {"days": "lots"})
    assert bad.status_code == 400
    too_many = client.post(reverse("accounts_leave"), {"days": "300"})
    assert too_many.status_code == 400 and "You can take 1 to" in too_many.content.decode()
    done = client.post(reverse("accounts_leave"), {"days": "2"}, follow=True)
    assert done.status_code == 200
    body = done.content.decode()
    assert "1 deadline moved" in body and "deadline moved by 2 days" in body
    match_page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "includes 2 days for a player" in match_page
    assert "is on leave: the deadline moved by 2 days" in match_page


def test_the_leave_mail_shows_bank_leave_and_moves(toy_duel):
    from portal.mail.models import OutgoingEmail
    from portal.mail.services.leave import leave_taken_notify

    match = toy_duel()
    leave = services.leave_take(user=match.alice, days=2)
    assert leave_taken_notify(leave_id=leave.pk) == 1
    assert leave_taken_notify(leave_id=leave.pk) == 0  # once
    row = OutgoingEmail.objects.get(kind="leave")
    assert row.to == match.alice.email
    assert "2 days" in row.subject
    assert "left" in row.body_text and f"{match}, phase 1: +2 days" in row.body_text
