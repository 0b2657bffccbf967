"""The competitions' pushes: a league's season (started, its last week, ended) and a team
match's result, to the devices of the players who want them by push. The consumers of the
competitions' signals (connected from ``portal.delivery.events``), sent inside the transaction
that made the news; the words are the mails' (``portal.mail.services.competitions``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from portal.accounts.models import Event
from portal.accounts.notifications import users_wanting
from portal.mail.services.competitions import (
    season_end_words,
    season_ended_title,
    season_last_week_title,
    season_players,
    season_started_title,
    site_url,
    team_members,
    team_result_title,
    team_result_words,
)
from portal.mail.services.notify import language_of, local_time
from portal.push import vapid
from portal.push.models import PushMessage
from portal.push.services.notify import _devices, _payload, result_push
from portal.push.services.outbox import pushes_queue

Kind = PushMessage.Kind


def _season_push(season: Any, users: list[Any], kind: str, key: str,
                 title_for: Callable[[Any], str], body_for: Callable[[Any], str],
                 url: str) -> None:
    """The same notice by push, to the devices of the players who want competition news by
    push (their profile's choice for tournament rounds and results)."""
    wanting = users_wanting(users, Event.ROUND_STARTED, "push")
    devices = _devices([user.pk for user in wanting], kind)
    pushes = []
    for user in wanting:
        with translation.override(language_of(user)):
            title, body = title_for(user), body_for(user)
            pushes += [{
                "subscription": device, "kind": kind,
                "dedupe_key": f"push:season:{season.pk}:{key}:u{user.pk}:d{device.pk}",
                "payload": _payload(device, kind=kind, title=title, body=body, url=url,
                                    tag=f"season-{season.pk}"),
                "ttl_seconds": 86400.0, "topic": f"season-{season.pk}"}
                for device in devices.get(user.pk, [])]
    pushes_queue(pushes)


def season_push(*, season: Any, stage: str) -> None:
    """The push consumer of ``season_changed``: a season ``started``, reached its
    ``last_week``, or ``ended``."""
    if not vapid.enabled():
        return
    league = season.league
    places = season_players(season)
    if stage == "started":
        division_of = {place.member.user_id: place.division for place in places}
        _season_push(
            season, [p.member.user for p in places], Kind.YOUR_MOVE, "started",
            lambda user: season_started_title(season),
            lambda user: _("You play in division %(number)s.") % {
                "number": division_of[user.pk].number},
            site_url("competitions:league", league.pk))
    elif stage == "last_week":
        _season_push(
            season, [p.member.user for p in places if p.member.left_at is None],
            Kind.REMINDER, "last-week",
            lambda user: season_last_week_title(season),
            lambda user: _("The season ends %(ends)s.") % {
                "ends": local_time(season.ends_at, user)},
            site_url("competitions:league", league.pk))
    else:
        place_of = {place.member.user_id: place for place in places}
        _season_push(
            season, [p.member.user for p in places], Kind.RESULT, "ended",
            lambda user: season_ended_title(season),
            lambda user: " ".join(season_end_words(place_of[user.pk])),
            site_url("competitions:league_archive", league.pk))


def team_match_result_push(*, team_match: Any) -> None:
    """The members of both clubs who want results by push hear the team match's result."""
    if not vapid.enabled():
        return
    result_push(users=team_members(team_match), key=f"team-match:{team_match.pk}:result",
                url=site_url("competitions:team_match", team_match.pk),
                topic=f"tm{team_match.pk}",
                words=lambda user: (team_result_title(team_match),
                                    team_result_words(team_match)))
