"""The processing timeline: who may read it (players and moderators only), what each learns
(their own sheets, mails and pushes in detail; of others only that a sheet came in and how many
mails went out), and why each phase resolved and each deadline moved — never a sheet's
content, a mail's subject or address, or another player's device."""

from __future__ import annotations

import html
from datetime import UTC, datetime, time, timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from clocks.services import active_hours_set
from games import services
from games.models import DeadlineMove
from portal.accounts.models import Profile
from portal.accounts.notifications import profile_of
from portal.mail.models import FailingAddress
from tests.portal.timeline.conftest import BOB_DEVICE, SECRETS, note

pytestmark = pytest.mark.django_db


def url(match) -> str:
    return reverse("timeline:timeline", args=[match.pk])


def page(world, role: str, *, htmx: bool = False) -> str:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = world.client(role).get(url(world.match), **headers)
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    own = {"player": {BOB_DEVICE}}.get(role, set())  # bob's device is named to him alone
    for secret in set(SECRETS) - own:
        assert secret not in text, (role, secret)
    return text


@pytest.mark.parametrize("role", ["anonymous", "spectator"])
def test_the_timeline_is_refused_to_anyone_but_players_and_moderators(world, role):
    assert world.client(role).get(url(world.match)).status_code == 403
    world.match.is_public = False
    world.match.save(update_fields=["is_public"])
    assert world.client(role).get(url(world.match)).status_code == 404
    assert world.client(role).post(url(world.match)).status_code in (404, 405)


def test_an_unknown_match_is_a_404(world):
    assert world.client("owner").get(reverse("timeline:timeline", args=[10**12])
                                     ).status_code == 404


def test_a_player_sees_their_own_sheets_mails_and_pushes_and_only_that_others_submitted(
        world):
    text = page(world, "owner")
    assert "Your sheet came in on the web. You changed it once more" in text
    assert "Right has submitted." in text
    assert "The sheet of Right came in" not in text
    assert "“Your move” mail to you: sent." in text
    assert "1 mail went to another player." in text
    assert "“Your move” push to your device “alice's laptop”: sent." in text
    assert "1 push went to another player's device." in text
    assert world.bob.email not in text
    assert "Resolved" in text and "every sheet it needed was in" in text


def test_the_other_player_sees_their_failed_mail_and_expired_push_not_the_owners_detail(world):
    text = page(world, "player")
    assert "“Your move” mail to you: failed after 3 attempts; it was not delivered." in text
    assert f"“Your move” push to your device “{BOB_DEVICE}”" in text
    assert "not delivered; it came too late to matter or a newer one replaced it" in text
    assert "Left has submitted." in text
    assert "You changed it" not in text  # alice's revisions are hers
    assert "alice's laptop" not in text and world.alice.email not in text


def test_a_moderator_sees_every_seat_and_delivery_but_no_content(world):
    text = page(world, "moderator")
    assert "The sheet of Left came in on the web (revision 2)." in text
    assert "The sheet of Right came in on the web (revision 1)." in text
    assert "“Your move” mail to the player of Right: failed after 3 attempts" in text
    assert "to a device of the player of Right" in text
    for user in (world.alice, world.bob):
        assert user.email not in text


def test_the_htmx_partial_is_the_same_timeline(world):
    text = page(world, "owner", htmx=True)
    assert "<html" not in text and "Right has submitted." in text


def test_why_no_mail_names_a_failing_address_an_opt_out_and_no_device(world):
    FailingAddress.objects.create(address=world.bob.email, reason="bounce")
    profile = profile_of(world.bob)
    profile.channels = {**(profile.channels or {}), "gameday": ["push"]}
    profile.mail_delivery = Profile.Delivery.DAILY_DIGEST
    profile.save()
    world.bob.push_subscriptions.all().delete()
    text = page(world, "player")
    assert "Nothing is mailed to your address since" in text and "mail to it bounced" in text
    assert ("You chose no e-mail for: Round report (a phase was resolved); A gameday began."
            in text)
    assert "No device of yours has push turned on." in text
    assert "Your matches' news comes in one daily digest, not mail by mail." in text
    # Alice is told nothing of bob's address.
    owner = page(world, "owner")
    assert "Nothing is mailed to your address" not in owner


def test_a_moderators_force_resolve_and_extension_are_the_reasons_given(world):
    match = world.match
    services.match_deadline_extend(match_id=match.pk, by=world.mod, hours=60,
                          reason="a player asked for time")
    services.phase_force_resolve(match_id=match.pk, by=world.mod, reason="stuck")
    text = page(world, "player")
    assert "A moderator extended the deadline by" in text
    assert "a moderator resolved it before its deadline" in text
    assert "a player asked for time" not in text  # moderators' reasons are theirs
    assert "Reason: a player asked for time" in page(world, "moderator")


class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


def test_a_deadline_that_passed_names_the_seat_that_got_the_default(world):
    match = world.match
    clock = Clock(match.deadline + timedelta(minutes=1))
    with mock.patch("django.utils.timezone.now", clock):
        assert services.phase_resolve(match_id=match.pk, phase_number=2)
    text = page(world, "owner")
    assert ("the deadline passed without a sheet from Right, and the default was played for "
            "them.") in text


def test_an_outage_and_a_players_night_leave_a_deadline_move_the_timeline_tells(world,
                                                                                  settings):
    from games.services.sweep import _extend_deadlines

    match = world.match
    before = match.deadline
    _extend_deadlines(before - timedelta(hours=1), before + timedelta(hours=2))
    move = DeadlineMove.objects.get(match=match, reason="outage")
    assert (move.phase_number, move.moved_from, move.moved_to) == (
        2, before, before + timedelta(hours=3))
    assert "The site was down: the deadline moved by 3 hours" in page(world, "player")

    # A match whose first deadline falls in bob's night moves to his morning, and says so
    # after the phase is over too.
    active_hours_set(user=world.bob, start=time(8), end=time(23), time_zone="Asia/Tokyo")
    start = datetime(2026, 1, 14, 18, tzinfo=UTC)  # 03:00 in Tokyo, 24 h later
    with mock.patch("django.utils.timezone.now", Clock(start)):
        night = services.match_create(
            creator=world.alice, game="sealed-notes", options={}, hours_per_phase=24,
            max_shift_hours=12, seats=[{"kind": "human", "user": world.alice},
                                       {"kind": "human", "user": world.bob}])
        note(night, world.alice, "a", 1)
        note(night, world.bob, "b", 1)
        assert services.phase_resolve(match_id=night.pk, phase_number=1)
    move = DeadlineMove.objects.filter(match=night).first()
    assert (move.reason, move.seat_number, move.phase_number) == ("active_hours", 2, 1)
    response = world.client("owner").get(url(night))
    assert "out of the night of Right: it falls in their active hours" in html.unescape(
        response.content.decode())


def test_clock_matches_record_an_outage_move(world, settings):
    from games.services.sweep import _extend_deadlines

    clocked = services.match_create(
        creator=world.alice, game="sealed-notes", options={}, clock_bank_hours=10,
        hours_per_phase=24,
        seats=[{"kind": "human", "user": world.alice}, {"kind": "human", "user": world.bob}])
    before = clocked.deadline
    since = timezone.now()
    _extend_deadlines(since, since + timedelta(hours=1))
    move = DeadlineMove.objects.get(match=clocked)
    assert move.moved_from == before and move.moved_to > before


def test_the_timeline_is_in_the_viewers_language_and_time_zone(world):
    from portal.accounts.models import Profile

    Profile.objects.update_or_create(user=world.alice, defaults={
        "language": "fr", "time_zone": "Asia/Tokyo"})
    client = world.client("owner")
    text = html.unescape(client.get(url(world.match), HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Chronologie" in text and "JST" in text
    for secret in SECRETS:
        assert secret not in text


def test_the_match_page_links_the_timeline_for_players_and_moderators_only(world):
    match_page = reverse("games:match", args=[world.match.pk])
    for role, linked in (("owner", True), ("player", True), ("moderator", True),
                         ("spectator", False), ("anonymous", False)):
        text = world.client(role).get(match_page).content.decode()
        assert (url(world.match) in text) is linked, role
