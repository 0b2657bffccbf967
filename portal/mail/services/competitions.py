"""The competitions' e-mails, through the portal's outbox (one row per dedupe key, so a round
reported twice mails once): club invitations, "round N started: your match", final results,
a league's season (started, its last week, ended), a team match's result. The competitions
send their signals (``competitions.signals``) inside the transaction that made the news; the
consumers here (connected from ``portal.delivery.events``) write the rows in it.

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
    DivisionPlace,
    Entry,
    LeagueMatch,
    Membership,
    Pairing,
    Round,
    TeamMatch,
    Tournament,
)
from games import dates
from portal.accounts.models import Event
from portal.accounts.notifications import wants
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import language_of, local_time
from portal.mail.services.outbox import email_queue

KIND = OutgoingEmail.Kind.COMPETITION


def _wants_mail(user: Any) -> bool:
    """A member's round and result mails: unless they turned them off (on their profile or
    with the link in each of these mails) or their address is failing."""
    return wants(user, Event.ROUND_STARTED, "mail")


def site_url(name: str, *args: Any) -> str:
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
                "link": site_url("competitions:club_join", invitation.token)}))


def _points(score: Any) -> tuple[str, int]:
    """``score`` as shown ("1", "0.5" in the reader's number format) and the count its
    plural form goes by (a whole number)."""
    number = float(score or 0)
    return dates.floatformat(number, "-1"), int(number) if number.is_integer() else 2


def round_started_mail(*, tournament: Tournament, round_: Round) -> None:
    """Each player of the round: their match (or bye) and where to play it (bots get none)."""
    page = site_url("competitions:tournament", tournament.pk)
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
                    "match_url": site_url("games:match", pairing.match_id)
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


def tournament_finished_mail(*, tournament: Tournament) -> None:
    from competitions.selectors import tournament_standings

    rows = tournament_standings(tournament=tournament)
    page = site_url("competitions:tournament", tournament.pk)
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


def season_players(season: Any) -> list[Any]:
    """The people placed in the season (bots get nothing), with users and profiles."""
    return list(DivisionPlace.objects.filter(division__season=season, member__user__isnull=False)
                .select_related("division", "member__user", "member__user__profile")
                .order_by("division__number", "position"))


def season_news(*, season: Any, stage: str) -> None:
    """The mail consumer of ``season_changed``: a season ``started``, reached its
    ``last_week``, or ``ended``."""
    {"started": season_started_mail, "last_week": season_last_week_mail,
     "ended": season_ended_mail}[stage](season=season)


def season_started_title(season: Any) -> str:
    return _("%(league)s: season %(number)s has started") % {
        "league": season.league.name, "number": season.number}


def season_started_mail(*, season: Any) -> None:
    """Each player: their division, its players and their first matches."""
    league = season.league
    places = season_players(season)
    by_division: dict[int, list[str]] = {}
    for place in DivisionPlace.objects.filter(division__season=season).select_related(
            "member__user").order_by("division__number", "position"):
        by_division.setdefault(place.division.number, []).append(place.member.name)
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
                subject=season_started_title(season),
                body_text=_body("season_started", {
                    "league": league, "season": season, "division": place.division,
                    "players": by_division.get(place.division.number, []),
                    "ends": local_time(season.ends_at, user),
                    "matches": [site_url("games:match", lm.match_id) for lm in firsts],
                    "page": site_url("competitions:division", league.pk, season.number,
                                 place.division.number)}))


def season_last_week_title(season: Any) -> str:
    return _("%(league)s: the last week of season %(number)s") % {
        "league": season.league.name, "number": season.number}


def season_last_week_mail(*, season: Any) -> None:
    league = season.league
    places = [p for p in season_players(season) if p.member.left_at is None]
    for place in places:
        user = place.member.user
        if not _wants_mail(user):
            continue
        with translation.override(language_of(user)):
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"season:{season.pk}:last-week:member:{place.member_id}",
                subject=season_last_week_title(season),
                body_text=_body("season_last_week", {
                    "league": league, "season": season, "division": place.division,
                    "ends": local_time(season.ends_at, user),
                    "waits": league.waits_for_last_match,
                    "page": site_url("competitions:division", league.pk, season.number,
                                 place.division.number)}))


MOVE_WORDS = {
    "up": gettext_lazy("You go up to division %(number)s."),
    "down": gettext_lazy("You go down to division %(number)s."),
    "stay": gettext_lazy("You stay in division %(number)s."),
    "left": gettext_lazy("You have left the league."),
}


def season_ended_title(season: Any) -> str:
    return _("%(league)s: season %(number)s is over") % {
        "league": season.league.name, "number": season.number}


def season_end_words(place: Any) -> tuple[str, str]:
    """A player's final place in their division, and up, down or staying, in the active
    language."""
    number = place.division.number + {"up": -1, "down": 1}.get(place.move, 0)
    rank = _("You finished %(rank)s in division %(division)s.") % {
        "rank": place.rank, "division": place.division.number}
    move = str(MOVE_WORDS.get(place.move, MOVE_WORDS["stay"])) % {"number": number}
    return rank, move


def season_ended_mail(*, season: Any) -> None:
    """Each player: their final place in their division, and up, down or staying."""
    league = season.league
    for place in season_players(season):
        user = place.member.user
        if not _wants_mail(user):
            continue
        with translation.override(language_of(user)):
            rank, move = season_end_words(place)
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"season:{season.pk}:ended:member:{place.member_id}",
                subject=season_ended_title(season),
                body_text=_body("season_ended", {
                    "league": league, "season": season, "rank": rank, "move": move,
                    "page": site_url("competitions:league_archive", league.pk)}))


# --- team matches ----------------------------------------------------------------------------


def team_result_words(team_match: TeamMatch) -> str:
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


def team_result_title(team_match: TeamMatch) -> str:
    return _("Team match result: %(match)s") % {"match": _team_title(team_match)}


def team_members(team_match: TeamMatch) -> list[Any]:
    """The members of both clubs, with their profiles, each once (a member of both too)."""
    members = [m.user for m in Membership.objects.filter(
        club_id__in=[team_match.club_a_id, team_match.club_b_id]).select_related(
        "user", "user__profile").order_by("user_id")]
    return list({user.pk: user for user in members}.values())


def team_match_result_mail(*, team_match: TeamMatch) -> None:
    """The members of both clubs who want competition results hear the team match's result
    (by push too: ``portal.push.services.competitions``). Written in the team match's
    transaction (the outbox sends after the commit); once per member."""
    page = site_url("competitions:team_match", team_match.pk)
    for user in team_members(team_match):
        if not _wants_mail(user):
            continue
        with translation.override(language_of(user)):
            email_queue(
                kind=KIND, user=user, to=user.email,
                dedupe_key=f"team-match:{team_match.pk}:result:user:{user.pk}",
                subject=team_result_title(team_match),
                body_text=_body("team_match_result", {
                    "result": team_result_words(team_match), "page": page,
                    "league": team_match.league}))


def _team_title(team_match: TeamMatch) -> str:
    return _("%(a)s against %(b)s") % {"a": team_match.club_a.name, "b": team_match.club_b.name}
