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
from portal.accounts.notifications import wants
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
