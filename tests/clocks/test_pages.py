"""Clocks and active hours where players see them: the profile, the create form, the lobby,
the match page (and its polled status), the "your move" e-mail."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta
from unittest import mock

import pytest
from django.urls import reverse

from clocks.models import ActiveHours
from clocks.services import active_hours_set
from games import services
from games.models import Match, Phase, Seat
from portal.mail.services.notify import phase_email_content
from tests.games.test_views_lobby import create_data
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db
TOKYO = "Asia/Tokyo"


def profile_data(**overrides):
    data = {"time_zone": TOKYO, "reminder_hours": "24"}
    data.update(overrides)
    return data


def test_the_profile_sets_and_clears_active_hours_in_the_profiles_time_zone(client):
    user = make_user("bob")
    client.force_login(user)
    response = client.post(reverse("accounts_profile"),
                           profile_data(active_from="08:00", active_until="23:00"))
    assert response.status_code == 302
    hours = ActiveHours.objects.get(user=user)
    assert (hours.start, hours.end, hours.time_zone) == (time(8), time(23), TOKYO)
    page = client.get(reverse("accounts_profile")).content.decode()
    assert 'value="08:00"' in page and 'value="23:00"' in page
    client.post(reverse("accounts_profile"), profile_data(
        time_zone="America/Los_Angeles", active_from="08:00", active_until="23:00"))
    assert ActiveHours.objects.get(user=user).time_zone == "America/Los_Angeles"  # follows
    assert client.post(reverse("accounts_profile"), profile_data()).status_code == 302
    assert not ActiveHours.objects.filter(user=user).exists()


@pytest.mark.parametrize("hours, message", [
    ({"active_from": "08:00"}, "Give both ends of your active hours"),
    ({"active_from": "08:00", "active_until": "08:30"}, "at least 60 minutes"),
    ({"active_from": "08:00", "active_until": "08:00"}, "at least 60 minutes"),
    ({"active_from": "25:00", "active_until": "08:00"}, "Enter a valid time"),
])
def test_bad_active_hours_are_a_400_and_change_nothing(client, hours, message):
    user = make_user("bob")
    client.force_login(user)
    response = client.post(reverse("accounts_profile"), profile_data(**hours))
    assert response.status_code == 400
    assert message in response.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.time_zone == "UTC"  # the whole form was refused
    assert not ActiveHours.objects.filter(user=user).exists()


def test_a_match_with_clocks_is_created_from_the_form_and_bad_clocks_are_refused(client):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(reverse("games:match_create"), create_data(
        title="On the clock", clock_bank_hours="72", clock_increment_hours="24",
        clock_cap_hours="168", max_shift_hours="0"))
    assert response.status_code == 302
    match = Match.objects.get(title="On the clock")
    assert (match.clock_bank_hours, match.clock_increment_hours, match.clock_cap_hours,
            match.max_shift_hours) == (72, 24, 168, 0)
    response = client.post(reverse("games:match_create"), create_data(
        title="Too big", clock_bank_hours="200", clock_cap_hours="100"))
    assert response.status_code == 400
    assert "time bank must be between 1 and 100" in response.content.decode()
    assert not Match.objects.filter(title="Too big").exists()


def started_clock_match(**extra):
    alice, bob = make_user("alice"), make_user("bob")
    args = {"clock_bank_hours": 72, "clock_increment_hours": 24, "clock_cap_hours": 168}
    args.update(extra)
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, title="Clocked",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}], **args)
    return match, alice, bob


def test_the_match_page_and_the_lobby_show_each_seats_clock(client):
    match, alice, bob = started_clock_match()
    later = match.started_at + timedelta(hours=20, minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=later):
        client.force_login(alice)
        page = client.get(reverse("games:match", args=[match.pk])).content.decode()
        assert "Your clock: <strong>2 days, 3 hours</strong>" in page
        assert "clock 2 days, 3 hours (running)" in page
        assert "clocks: 72 h, + 24 h per phase, at most 168 h" in page
        services.orders_submit(match_id=match.pk, seat_number=1, user=alice, phase_number=1,
                               data={"number": 3}, source="web")
        status = client.get(reverse("games:submission_status", args=[match.pk])).content
        assert "stopped: your orders are in" in status.decode()
        client.logout()
        lobby = client.get(reverse("games:lobby")).content.decode()
        assert "seat 1 2 days, 3 hours, seat 2 2 days, 3 hours (running)" in lobby


def local(zone, *args):
    return datetime(*args, tzinfo=zoneinfo.ZoneInfo(zone)).astimezone(UTC)


def test_a_moved_deadline_says_why_on_the_page_and_in_the_mail(client):
    alice, bob = make_user("alice"), make_user("bob")
    active_hours_set(user=bob, start=time(8), end=time(23), time_zone=TOKYO)
    with mock.patch("django.utils.timezone.now", return_value=local(TOKYO, 2026, 1, 15, 3)):
        match = services.match_create(
            creator=alice, game="toy-duel", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    client.force_login(alice)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "The deadline was moved from" in page
    assert "it fell outside the active hours of South (bob), 08:00–23:00 Asia/Tokyo" in page
    mail = phase_email_content(match=match, phase=Phase.objects.get(match=match, number=1),
                               seat=Seat.objects.get(match=match, number=1))
    assert ("Deadline: Thursday 15 January 2026, 23:00 UTC (moved from Thursday 15 January "
            "2026, 18:00 UTC: outside the active hours of South, 08:00–23:00 Asia/Tokyo)."
            ) in mail["body_text"]  # alice reads it in her own time zone (UTC)


def test_the_your_move_mail_shows_the_readers_own_clock():
    match, alice, bob = started_clock_match()
    active_hours_set(user=bob, start=time(8), end=time(23), time_zone=TOKYO)
    # Bob's new hours count from the next phase: this one opened without them.
    phase = Phase.objects.get(match=match, number=1)
    with mock.patch("django.utils.timezone.now", return_value=phase.opened_at):
        mail = phase_email_content(match=match, phase=phase,
                                   seat=Seat.objects.get(match=match, number=2))
    assert "(your clock: 3 days)" in mail["body_text"]
    assert "your clock" in mail["body_html"]


def test_reminders_count_back_from_the_readers_own_clock():
    from portal.mail.models import OutgoingEmail
    from portal.mail.services import reminders_send

    alice, bob = make_user("alice"), make_user("bob")
    active_hours_set(user=bob, start=time(8), end=time(23), time_zone=TOKYO)
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}],
        clock_bank_hours=72, clock_increment_hours=0, clock_cap_hours=72)
    # Alice is always active: out at 72 h. Bob's 72 h last days longer: the match's
    # deadline is his; alice's 24 h reminder comes 48 h in, from her own clock.
    assert match.deadline > match.started_at + timedelta(hours=100)
    at = match.started_at + timedelta(hours=48, minutes=1)
    assert reminders_send(now=at) == 1
    reminder = OutgoingEmail.objects.get(kind="reminder")
    assert reminder.to == alice.email and "your clock" in reminder.body_text
