"""A league's notices by push: a season started, its last week and its end go to the devices
of the players who chose push for competition news, in their language, and never to anyone
else's (the pushes stay queued here, as in test_preferences)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from competitions import services as competitions
from portal.accounts.models import Event
from portal.accounts.services import notifications_update, profile_update
from portal.push.models import PushMessage

pytestmark = pytest.mark.django_db


def push_on(user, event):
    channels = {key: sorted(user.profile.channels_of(key) | ({"push"} if key == event
                                                              else set()))
                for key in Event.values}
    notifications_update(user=user, channels=channels, mail_delivery="now")


def test_season_notices_are_pushed_to_the_players_who_want_them(push_service, subscribe,
                                                                make_user):
    owner, alice, bob = make_user("owner"), make_user("alice"), make_user("bob")
    subscribe(alice, "alice-phone")
    subscribe(bob, "bob-phone")
    push_on(alice, Event.ROUND_STARTED)  # bob keeps the default: no push of competition news
    profile_update(user=alice, language="fr")
    club = competitions.club_create(by=owner, name="Push club")
    for user in (alice, bob):
        competitions.club_join_by_token(token=club.invite_token, user=user)
    league = competitions.league_create(by=owner, club_id=club.pk, name="Ligue", game="toy-duel",
                                        options={"target": 1}, division_size=2)
    for user in (alice, bob):
        competitions.league_join(league_id=league.pk, user=user)
    season = competitions.season_start(league_id=league.pk, by=owner)
    competitions.competitions_sweep(now=season.ends_at - timedelta(days=3))
    competitions.competitions_sweep(now=season.ends_at + timedelta(minutes=1))
    pushed = list(PushMessage.objects.filter(subscription__user=alice).order_by("pk"))
    kinds = [row.kind for row in pushed]
    assert kinds[:3] == ["your_move", "reminder", "result"]
    started, last_week, ended = (row.payload for row in pushed[:3])
    assert started["title"] == "Ligue : la saison 1 a commencé"
    assert started["body"] == "Vous jouez en division 1."
    assert "dernière semaine" in last_week["title"]
    assert "Vous terminez" in ended["body"] and ended["url"].endswith(
        f"/leagues/{league.pk}/archive/")
    assert not PushMessage.objects.filter(subscription__user=bob,
                                          dedupe_key__startswith="push:season:").exists()
