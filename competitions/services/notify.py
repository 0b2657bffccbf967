"""The competitions' e-mails, through the portal's outbox (one row per dedupe key, so a round
reported twice mails once): club invitations, "round N started: your match", final results.

Each is written in its reader's language (``templates/mail/competitions/``): a member's
profile language; an invitation goes to an address, in the language of the account holding
it, else in the inviting organiser's (the language of the request that invites)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.models import (
    ClubInvitation,
    Entry,
    Membership,
    Pairing,
    Round,
    TeamMatch,
    Tournament,
)
from games import dates
from portal.accounts.models import Event
from portal.accounts.notifications import users_wanting, wants
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import language_of, local_time
from portal.mail.services.outbox import email_queue

KIND = OutgoingEmail.Kind.COMPETITION


def _wants_mail(user: Any) -> bool:
    """A member's round and result mails: unless they turned them off (on their profile or
    with the link in each of these mails) or their address is failing."""
    return wants(user, Event.ROUND_STARTED, "mail")


def _url(name: str, *args: Any) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def _body(name: str, context: dict[str, Any]) -> str:
    return render_to_string(f"mail/competitions/{name}.txt", context)


def club_invitation_mail(*, invitation: ClubInvitation) -> None:
    club = invitation.club
    holder = get_user_model().objects.select_related("profile").filter(
        email__iexact=invitation.email).first()
    language = language_of(holder) if holder else translation.get_language()
    with translation.override(language):
        email_queue(
            kind=KIND, dedupe_key=f"club-invite:{invitation.pk}", to=invitation.email,
            subject=_("You are invited to the club %(club)s") % {"club": club.name},
            body_text=_body("club_invitation", {
                "club": club, "inviter": invitation.invited_by,
                "link": _url("competitions:club_join", invitation.token)}))


def _points(score: Any) -> tuple[str, int]:
    """``score`` as shown ("1", "0.5" in the reader's number format) and the count its
    plural form goes by (a whole number)."""
    number = float(score or 0)
    return dates.floatformat(number, "-1"), int(number) if number.is_integer() else 2


def round_started_mail(*, tournament: Tournament, round_: Round) -> None:
    """Each player of the round: their match (or bye) and where to play it (bots get none)."""
    page = _url("competitions:tournament", tournament.pk)
    for pairing in Pairing.objects.filter(round=round_).select_related(
            "first__user", "second__user", "match"):
        entry_ids = pairing.pod or [e for e in (pairing.first_id, pairing.second_id) if e]
        entries = Entry.objects.filter(pk__in=entry_ids).select_related("user", "user__profile")
        names = {e.pk: e.name for e in entries}
        for entry in entries:
            if entry.is_bot or not _wants_mail(entry.user):
                continue
            with translation.override(language_of(entry.user)):
                points, count = _points(pairing.score)
                context = {
                    "tournament": tournament, "round": round_, "page": page,
                    "ends": local_time(round_.ends_at, entry.user),
                    "match_url": _url("games:match", pairing.match_id)
                    if pairing.match_id else "",
                    "others": ", ".join(names[e] for e in entry_ids if e != entry.pk),
                    "bye": len(entry_ids) == 1, "points": points, "count": count}
                email_queue(
                    kind=KIND, user=entry.user, match_id=pairing.match_id,
                    dedupe_key=(f"tournament:{tournament.pk}:round:{round_.number}"
                                f":entry:{entry.pk}"),
                    to=entry.user.email,
                    subject=_("%(tournament)s: round %(number)s has started") % {
                        "tournament": tournament.name, "number": round_.number},
                    body_text=_body("round_started", context))


def on_round_started(sender: Any, tournament_id: int, round_number: int, **kwargs: Any) -> None:
    """The mail consumer of ``round_started`` (``portal.delivery.events``)."""
    round_ = Round.objects.select_related("tournament").get(tournament_id=tournament_id,
                                                            number=round_number)
    round_started_mail(tournament=round_.tournament, round_=round_)


def tournament_finished_mail(*, tournament: Tournament) -> None:
    from competitions.selectors import tournament_standings

    rows = tournament_standings(tournament=tournament)
    page = _url("competitions:tournament", tournament.pk)
    for entry in Entry.objects.filter(tournament=tournament, user__isnull=False) \
            .select_related("user", "user__profile"):
        if not _wants_mail(entry.user):
            continue
        mine = next((row for row in rows if row["entry_id"] == entry.pk), None)
        with translation.override(language_of(entry.user)):
            table = [{"rank": row["rank"], "name": row["name"],
                      "points": dates.floatformat(row["points"], "-1")
                      if row.get("points") is not None else ""} for row in rows[:10]]
            email_queue(
                kind=KIND, user=entry.user, to=entry.user.email,
                dedupe_key=f"tournament:{tournament.pk}:finished:entry:{entry.pk}",
                subject=_("%(tournament)s: final results") % {"tournament": tournament.name},
                body_text=_body("tournament_finished", {
                    "tournament": tournament, "rank": mine["rank"] if mine else None,
                    "table": table, "page": page}))


# --- leagues: a season started, its last week, it ended --------------------------------------


def _season_players(season: Any) -> list[Any]:
    """The people placed in the season (bots get nothing), with users and profiles."""
    from competitions.models import DivisionPlace

    return list(DivisionPlace.objects.filter(division__season=season, member__user__isnull=False)
                .select_related("division", "member__user", "member__user__profile")
                .order_by("division__number", "position"))


def _season_push(season: Any, users: list[Any], kind: str, key: str, title_for: Any,
                 body_for: Any, url: str) -> None:
    """The same notice by push, to the devices of the players who want competition news by
    push (their profile's choice for tournament rounds and results)."""
    from portal.push import vapid
    from portal.push.services.notify import _devices, _payload
    from portal.push.services.outbox import pushes_queue

    if not vapid.enabled():
        return
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


def season_started_notice(*, season: Any) -> None:
    """Each player: their division, its players and their first matches."""
    from competitions.models import DivisionPlace, LeagueMatch
    from portal.push.models import PushMessage

    league = season.league
    places = _season_players(season)
    by_division: dict[int, list[str]] = {}
    for place in DivisionPlace.objects.filter(division__season=season).select_related(
            "member__user").order_by("division__number", "position"):
        by_division.setdefault(place.division.number, []).append(place.member.name)
    division_of = {place.member.user_id: place.division for place in places}
    for place in places:
        user = place.member.user
        if not _wants_mail(user):
            continue
        firsts = [lm for lm in LeagueMatch.objects.filter(division=place.division,
                                                          round_number=1)
                  if place.member_id in lm.seats]
        with translation.override(language_of(user)):
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"season:{season.pk}:started:member:{place.member_id}",
                subject=_("%(league)s: season %(number)s has started") % {
                    "league": league.name, "number": season.number},
                body_text=_body("season_started", {
                    "league": league, "season": season, "division": place.division,
                    "players": by_division.get(place.division.number, []),
                    "ends": local_time(season.ends_at, user),
                    "matches": [_url("games:match", lm.match_id) for lm in firsts],
                    "page": _url("competitions:division", league.pk, season.number,
                                 place.division.number)}))
    page = _url("competitions:league", league.pk)
    _season_push(
        season, [p.member.user for p in places], PushMessage.Kind.YOUR_MOVE, "started",
        lambda user: _("%(league)s: season %(number)s has started") % {
            "league": league.name, "number": season.number},
        lambda user: _("You play in division %(number)s.") % {
            "number": division_of[user.pk].number}, page)


def season_last_week_notice(*, season: Any) -> None:
    from portal.push.models import PushMessage

    league = season.league
    places = [p for p in _season_players(season) if p.member.left_at is None]
    for place in places:
        user = place.member.user
        if not _wants_mail(user):
            continue
        with translation.override(language_of(user)):
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"season:{season.pk}:last-week:member:{place.member_id}",
                subject=_("%(league)s: the last week of season %(number)s") % {
                    "league": league.name, "number": season.number},
                body_text=_body("season_last_week", {
                    "league": league, "season": season, "division": place.division,
                    "ends": local_time(season.ends_at, user),
                    "waits": league.waits_for_last_match,
                    "page": _url("competitions:division", league.pk, season.number,
                                 place.division.number)}))
    _season_push(
        season, [p.member.user for p in places], PushMessage.Kind.REMINDER, "last-week",
        lambda user: _("%(league)s: the last week of season %(number)s") % {
            "league": league.name, "number": season.number},
        lambda user: _("The season ends %(ends)s.") % {"ends": local_time(season.ends_at,
                                                                          user)},
        _url("competitions:league", league.pk))


MOVE_WORDS = {
    "up": gettext_lazy("You go up to division %(number)s."),
    "down": gettext_lazy("You go down to division %(number)s."),
    "stay": gettext_lazy("You stay in division %(number)s."),
    "left": gettext_lazy("You have left the league."),
}


def season_ended_notice(*, season: Any) -> None:
    """Each player: their final place in their division, and up, down or staying."""
    from portal.push.models import PushMessage

    league = season.league
    places = _season_players(season)
    texts: dict[int, tuple[str, str]] = {}
    for place in places:
        user = place.member.user
        number = place.division.number + {"up": -1, "down": 1}.get(place.move, 0)
        with translation.override(language_of(user)):
            rank = _("You finished %(rank)s in division %(division)s.") % {
                "rank": place.rank, "division": place.division.number}
            move = str(MOVE_WORDS.get(place.move, MOVE_WORDS["stay"])) % {"number": number}
            texts[user.pk] = (rank, move)
            if not _wants_mail(user):
                continue
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"season:{season.pk}:ended:member:{place.member_id}",
                subject=_("%(league)s: season %(number)s is over") % {
                    "league": league.name, "number": season.number},
                body_text=_body("season_ended", {
                    "league": league, "season": season, "rank": rank, "move": move,
                    "page": _url("competitions:league_archive", league.pk)}))
    _season_push(
        season, [p.member.user for p in places], PushMessage.Kind.RESULT, "ended",
        lambda user: _("%(league)s: season %(number)s is over") % {
            "league": league.name, "number": season.number},
        lambda user: " ".join(texts[user.pk]), _url("competitions:league_archive", league.pk))


def _team_result_words(team_match: TeamMatch) -> str:
    """"Club A 2 – 1 Club B: Club A wins." in the active language."""
    score = _("%(a)s %(points_a)s – %(points_b)s %(b)s") % {
        "a": team_match.club_a.name, "b": team_match.club_b.name,
        "points_a": dates.floatformat(float(team_match.points_a or 0), "-1"),
        "points_b": dates.floatformat(float(team_match.points_b or 0), "-1")}
    if team_match.winner_id is None:
        return _("%(score)s: a draw.") % {"score": score}
    winner = (team_match.club_a if team_match.winner_id == team_match.club_a_id
              else team_match.club_b)
    return _("%(score)s: %(club)s wins.") % {"score": score, "club": winner.name}


def team_match_result_notify(*, team_match: TeamMatch) -> None:
    """The members of both clubs hear the team match's result: by mail (those who want
    competition results) and by push (those who want results by push). Written in the team
    match's transaction (the outbox sends after the commit); once per member."""
    from portal.push.services.notify import result_push

    page = _url("competitions:team_match", team_match.pk)
    members = [m.user for m in Membership.objects.filter(
        club_id__in=[team_match.club_a_id, team_match.club_b_id]).select_related(
        "user", "user__profile").order_by("user_id")]
    members = list({user.pk: user for user in members}.values())  # a member of both: once
    for user in members:
        if not _wants_mail(user):
            continue
        with translation.override(language_of(user)):
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"team-match:{team_match.pk}:result:user:{user.pk}",
                subject=_("Team match result: %(match)s") % {"match": _team_title(team_match)},
                body_text=_body("team_match_result", {
                    "result": _team_result_words(team_match), "page": page,
                    "league": team_match.league}))
    result_push(users=members, key=f"team-match:{team_match.pk}:result", url=page,
                topic=f"tm{team_match.pk}",
                words=lambda user: (_("Team match result: %(match)s") % {
                    "match": _team_title(team_match)}, _team_result_words(team_match)))


def _team_title(team_match: TeamMatch) -> str:
    return _("%(a)s against %(b)s") % {"a": team_match.club_a.name, "b": team_match.club_b.name}
