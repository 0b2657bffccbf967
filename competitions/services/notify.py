"""The competitions' e-mails, through the portal's outbox (one row per dedupe key, so a round
reported twice mails once): club invitations, "round N started: your match", final results."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse

from competitions.models import ClubInvitation, Entry, Pairing, Round, Tournament
from portal.accounts.models import Event
from portal.accounts.notifications import wants
from portal.mail.models import OutgoingEmail
from portal.mail.services.outbox import email_queue

KIND = OutgoingEmail.Kind.COMPETITION


def _wants_mail(user: Any) -> bool:
    """A member's round and result mails: unless they turned them off (on their profile or
    with the link in each of these mails) or their address is failing."""
    return wants(user, Event.ROUND_STARTED, "mail")


def _url(name: str, *args: Any) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def club_invitation_mail(*, invitation: ClubInvitation) -> None:
    club = invitation.club
    link = _url("competitions:club_join", invitation.token)
    email_queue(
        kind=KIND, dedupe_key=f"club-invite:{invitation.pk}", to=invitation.email,
        subject=f"You are invited to the club {club.name}",
        body_text=(f"{invitation.invited_by} invites you to the club {club.name} on the Tank "
                   f"Portal.\n\n{club.description}\n\nJoin here (log in or sign up first):\n"
                   f"{link}\n"))


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
            if pairing.match_id:
                others = ", ".join(names[e] for e in entry_ids if e != entry.pk)
                what = (f"Your match against {others} has started:\n"
                        f"{_url('games:match', pairing.match_id)}\n")
            elif len(entry_ids) == 1:
                what = f"You have a bye this round ({pairing.score} points).\n"
            else:
                what = "Your opponent withdrew: you go through without playing.\n"
            email_queue(
                kind=KIND, user=entry.user, match_id=pairing.match_id,
                dedupe_key=f"tournament:{tournament.pk}:round:{round_.number}:entry:{entry.pk}",
                to=entry.user.email,
                subject=f"{tournament.name}: round {round_.number} has started",
                body_text=(f"Round {round_.number} of {tournament.name} has started; it ends "
                           f"{round_.ends_at:%A %d %B %Y, %H:%M} UTC.\n\n{what}\n"
                           f"Standings and pairings: {page}\n"))


def on_round_started(sender: Any, tournament_id: int, round_number: int, **kwargs: Any) -> None:
    """The mail consumer of ``round_started`` (``portal.delivery.events``)."""
    round_ = Round.objects.select_related("tournament").get(tournament_id=tournament_id,
                                                            number=round_number)
    round_started_mail(tournament=round_.tournament, round_=round_)


def tournament_finished_mail(*, tournament: Tournament) -> None:
    from competitions.selectors import tournament_standings

    rows = tournament_standings(tournament=tournament)
    table = "\n".join(f"{row['rank']:>3}. {row['name']} {row.get('points', '')}"
                      for row in rows[:10])
    page = _url("competitions:tournament", tournament.pk)
    for entry in Entry.objects.filter(tournament=tournament, user__isnull=False) \
            .select_related("user", "user__profile"):
        if not _wants_mail(entry.user):
            continue
        mine = next((row for row in rows if row["entry_id"] == entry.pk), None)
        place = f"You finished {mine['rank']}." if mine else ""
        email_queue(
            kind=KIND, user=entry.user, to=entry.user.email,
            dedupe_key=f"tournament:{tournament.pk}:finished:entry:{entry.pk}",
            subject=f"{tournament.name}: final results",
            body_text=f"{tournament.name} is over. {place}\n\n{table}\n\nEverything: {page}\n")
