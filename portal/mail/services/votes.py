"""The mails about votes to end a match: a proposal opened (asking for a vote), failed,
expired or was closed by a moderator's lock; a seat conceded and the match goes on. A vote that
passes ends the match, and the result mail tells it (``notify.result_text``).

What a mail says of a vote is what its reader may see (``games.votes.vote_shown``): a secret
ballot's mails name nobody's vote, nor who proposed it, until it has closed. Each reader's
mail is made in their language; each is queued once (a dedupe key per vote, notice and
player), so a notice reported twice mails once."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

import engine
from games.models import Match, MatchVote
from games.plugins import seat_name
from games.services.votes import seats_standing
from games.votes import seat_names, vote_shown
from portal.accounts.models import Event
from portal.accounts.notifications import seats_wanting
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import (
    _base_context,
    language_of,
    local_time,
    not_queued,
    render,
)
from portal.mail.services.outbox import emails_queue

NOTICES = ("opened", "failed", "expired", "closed", "conceded")


def _subject(what: str, match: Match, kind: str, conceded: str) -> str:
    values = {"match": str(match), "kind": kind, "seat": conceded}
    if what == "opened":
        return _("%(match)s: a proposal of %(kind)s asks for your vote") % values
    if what == "failed":
        return _("%(match)s: the proposal of %(kind)s failed") % values
    if what == "expired":
        return _("%(match)s: the proposal of %(kind)s expired") % values
    if what == "closed":
        return _("%(match)s: the proposal of %(kind)s was closed") % values
    return _("%(match)s: %(seat)s conceded") % values


def vote_changed_notify(*, match_id: Any, vote_id: Any, what: str) -> int:
    """Mail every player of the match who wants vote notices (and has not left it), but not
    the one whose doing it is (the proposer of a proposal just opened, the seat that
    conceded). An "opened" notice about a vote already closed is not sent: its closing is
    the news. Returns how many mails were queued."""
    if what not in NOTICES:
        return 0
    vote = MatchVote.objects.select_related("match").filter(pk=vote_id,
                                                            match_id=match_id).first()
    if vote is None or (what == "opened" and vote.status != MatchVote.Status.OPEN):
        return 0
    match = vote.match
    game = engine.get(match.game)
    seats = list(match.seats.select_related("user").order_by("number"))
    names = seat_names(match, seats, closed=vote.status != MatchVote.Status.OPEN)
    standing = [s.number for s in seats_standing(match, game, seats)] \
        if match.status == Match.Status.ACTIVE else []
    readers = [seat for seat in seats_wanting(match, Event.VOTE, "mail")
               if what not in ("opened", "conceded") or seat.number != vote.seat_number]
    emails = []
    for seat, key in not_queued(readers, lambda seat: (
            f"vote:v{vote.pk}:{what}:u{seat.user_id}")):
        with translation.override(language_of(seat.user)):
            shown = vote_shown(vote, reader=seat.number, standing=standing, names=names,
                               reader_user=seat.user_id)
            context = _base_context(match, seat, game)
            context.update(what=what, vote=shown, conceded=shown["proposer"] or "",
                           expires=local_time(vote.expires_at, seat.user)
                           if shown["open"] else "")
            text, html = render("vote", context)
            subject = _subject(what, match, str(vote.get_kind_display()),
                               seat_name(match.game, vote.seat_number))
        emails.append({"kind": OutgoingEmail.Kind.VOTE, "dedupe_key": key,
                       "to": seat.user.email, "user": seat.user, "match_id": match.pk,
                       "subject": subject, "body_text": text, "body_html": html})
    return len(emails_queue(emails))
