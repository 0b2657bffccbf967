"""The calendar feed: a secret, regenerable URL; every deadline and gameday of my active
matches, in my time zone, read back with icalendar; events follow a moved deadline."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from icalendar import Calendar

from games.models import Match
from games.services import match_create, match_deadline_extend
from portal.accounts.services import profile_update
from portal.feeds.services import calendar_token
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db


def feed(user) -> Calendar:
    response = Client().get(f"/calendar/{calendar_token(user=user)}.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def events(cal: Calendar) -> dict[str, object]:
    return {str(e["uid"]): e for e in cal.walk("VEVENT")}


def test_the_feed_has_each_active_matchs_deadline_in_my_time_zone():
    alice, bob = make_user("alice"), make_user("bob")
    profile_update(user=alice, time_zone="Europe/Paris")
    match = duel(alice, bob, title="Evening duel")
    duel(alice)  # still open: no deadline yet, not in the feed
    cal = feed(alice)
    assert str(cal["x-wr-timezone"]) == "Europe/Paris"
    assert [str(tz["tzid"]) for tz in cal.walk("VTIMEZONE")] == ["Europe/Paris"]
    found = events(cal)
    host = urlsplit(settings.SITE_URL).hostname  # the site's own (127.0.0.1 in development)
    assert list(found) == [f"match-{match.pk}-phase-{match.phase_number}@{host}"]
    event = next(iter(found.values()))
    start = event.decoded("dtstart")
    assert start.tzinfo == zoneinfo.ZoneInfo("Europe/Paris")
    assert start == match.deadline.replace(microsecond=0)  # the same moment, in Paris time
    assert "Deadline: Evening duel" in str(event["summary"])
    assert str(event["url"]).endswith(f"/matches/{match.pk}/")


def test_a_moved_deadline_moves_the_event_and_keeps_its_uid():
    alice, bob = make_user("alice"), make_user("bob")
    admin = make_user("admin", staff=True)
    admin.is_superuser = True
    admin.save()
    match = duel(alice, bob)
    before = events(feed(alice))
    assert match_deadline_extend(match_id=match.pk, hours=72, by=admin,
                                 reason="the players asked for more time")
    match.refresh_from_db()
    after = events(feed(alice))
    assert list(after) == list(before)
    uid = next(iter(after))
    moved = after[uid].decoded("dtstart") - before[uid].decoded("dtstart")
    assert timedelta(hours=47) < moved < timedelta(hours=49)  # 72 h from a later "now"
    assert after[uid].decoded("dtstart") == match.deadline.replace(microsecond=0)


def test_gamedays_of_a_continuous_match_are_in_the_feed():
    alice, bob = make_user("alice"), make_user("bob")
    match = match_create(creator=alice, game="tank-game", options={}, seats=[
        {"kind": "human", "user": alice}, {"kind": "human", "user": bob}], hours_per_phase=24)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.deadline is not None
    event = next(iter(events(feed(bob)).values()))
    assert str(event["summary"]).startswith("Gameday opens: ")
    assert event.decoded("dtstart") == match.deadline.replace(microsecond=0)


def test_other_peoples_matches_are_not_in_my_feed():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    duel(alice, bob)
    assert events(feed(carol)) == {}


def test_regenerating_the_address_kills_the_old_one(client):
    alice = make_user("alice")
    old = calendar_token(user=alice)
    client.force_login(alice)
    profile = client.get("/accounts/profile/").content.decode()
    assert f"/calendar/{old}.ics" in profile
    assert client.post("/calendar/regenerate/").status_code == 302
    new = calendar_token(user=alice)
    assert new != old
    assert Client().get(f"/calendar/{old}.ics").status_code == 404
    assert Client().get(f"/calendar/{new}.ics").status_code == 200
    assert f"/calendar/{new}.ics" in client.get("/accounts/profile/").content.decode()


@pytest.mark.parametrize("token", ["nothing", "1-", "-abc", "99999999999999999999-abc",
                                   "1-" + "0" * 40])
def test_unknown_or_forged_addresses_are_404(token):
    make_user("alice")
    assert Client().get(f"/calendar/{token}.ics").status_code == 404


def test_another_users_signature_does_not_open_my_feed():
    alice, bob = make_user("alice"), make_user("bob")
    signature = calendar_token(user=bob).split("-", 1)[1]
    assert Client().get(f"/calendar/{alice.pk}-{signature}.ics").status_code == 404
