"""Reading the votes to end a match: what a reader may see of them, for the match page, the API
and the mails. This is the one place that hides a secret ballot: while it is open nobody —
players, spectators, moderators — learns who proposed it or who voted what, only the tally
(how many said yes, how many have still to vote); a reader sees their own ballot. Once it
closes, every ballot is shown. The writes are ``games.services.votes``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q, prefetch_related_objects
from django.utils.translation import gettext as _

import engine
from games import plugins
from games.models import Match, MatchBallot, MatchVote, Seat, SeatTenure
from games.plugins import seat_name
from games.prepared import Prepared
from games.services.votes import PROPOSALS, no_voter_refusal, seats_standing

# How many closed proposals (and concessions) the page and the API list, newest first.
CLOSED_SHOWN = 10


def seat_label(game: engine.Game | None, seat: Seat | None, number: int) -> str:
    """"Red (alice)": the seat's name and its player, as the pages name a seat."""
    name = (seat_name(game.slug, number) if game is not None
            else _("Seat %(n)s") % {"n": number})
    if seat is None:
        return name
    who = seat.user.get_username() if seat.user_id else (
        seat.bot and game is not None and plugins.bot_name(game.slug, seat.bot)) or (
        seat.bot and _("bot")) or _("no player yet")
    return f"{name} ({who})"


@dataclass(frozen=True)
class SeatNames:
    """How a vote names its seats, in the active language (a mail is worded in each reader's).
    An open vote names them as they are held now ("Red (alice)"): a seat that changes hands
    closes it. A closed one names who held them then — the ballot's voter, the proposer, else
    the player whose tenure covered its closing — for a seat may have changed hands since (its
    new player never voted on it)."""

    game: str
    seats: dict[int, Seat]
    tenures: tuple[SeatTenure, ...] = ()

    def now(self, number: int) -> str:
        """Seat ``number`` and who holds it now."""
        return seat_label(engine.games().get(self.game), self.seats.get(number), number)

    def then(self, number: int, *, user: Any = None, at: datetime | None = None) -> str:
        """Seat ``number`` with ``user`` (or who held it ``at``; the seat alone if nobody)."""
        name = seat_name(self.game, number)
        if user is None and at is not None:
            held = [t for t in self.tenures if t.seat_number == number and t.started_at <= at
                    and (t.ended_at is None or t.ended_at >= at)]
            user = min(held, key=lambda t: t.started_at).user if held else None
        return f"{name} ({user.get_username()})" if user is not None else name


def seat_names(match: Match, seats: list[Seat], *, closed: bool = True) -> SeatNames:
    """The ``SeatNames`` of ``match`` (its ``seats`` with their users); the tenures are read
    (one query) only if ``closed`` votes are to be named."""
    return SeatNames(
        game=match.game, seats={seat.number: seat for seat in seats},
        tenures=tuple(SeatTenure.objects.filter(match=match).select_related("user"))
        if closed else ())


def vote_shown(vote: MatchVote, *, reader: int | None, standing: list[int],
               names: SeatNames, reader_user: int | None = None) -> dict[str, Any]:
    """``vote`` as the reader (seat number ``reader`` held by user ``reader_user``; None for
    anyone without a seat) may see it. ``standing``: the seats still in now (an open vote's
    voters). The ballots must be prefetched (``vote.ballots.all()``, with their users)."""
    ballots = list(vote.ballots.all())
    is_open = vote.status == MatchVote.Status.OPEN
    hidden = vote.secret and is_open
    voters = list(standing) if is_open else list(vote.standing or [])
    counted = [b for b in ballots if b.seat_number in voters]
    # A closed vote's ballot is the reader's own only if they cast it (not the seat's former
    # player); an open vote's ballots are all its seats' present players'.
    own = reader_user is not None
    mine = next((b for b in ballots if reader is not None and b.seat_number == reader
                 and (is_open or (own and b.user_id == reader_user))), None)
    proposed_by_me = reader is not None and vote.seat_number == reader and (
        is_open or (own and vote.proposed_by_id == reader_user))

    def name(number: int, user: Any = None, at: datetime | None = None) -> str:
        if is_open:
            return names.now(number)
        return names.then(number, user=user, at=at or vote.closed_at)
    out: dict[str, Any] = {
        "id": vote.pk,
        "kind": vote.kind,
        "kind_label": vote.get_kind_display(),
        "status": vote.status,
        "status_label": vote.get_status_display(),
        "secret": vote.secret,
        "open": is_open,
        "opened_at": vote.opened_at,
        "expires_at": vote.expires_at if is_open else None,
        "closed_at": vote.closed_at,
        "closed_why": vote.get_closed_why_display() if vote.closed_why else "",
        "phase_number": vote.phase_number,
        "proposed_by_me": proposed_by_me,
        "proposed_by": None if hidden else vote.seat_number,
        "proposer": None if hidden else name(vote.seat_number, vote.proposed_by,
                                             vote.opened_at),
        "voters": len(voters),
        "yes": sum(1 for b in counted if b.yes),
        "no": sum(1 for b in counted if not b.yes),
        "waiting": len(voters) - len(counted),
        "my_ballot": None if mine is None else ("yes" if mine.yes else "no"),
        "ballots": None if hidden else [
            {"seat": b.seat_number, "name": name(b.seat_number, b.user, b.cast_at),
             "vote": "yes" if b.yes else "no"} for b in ballots],
        # (open: who has still to vote; closed: who never did)
        "waiting_for": None if hidden else [
            {"seat": n, "name": name(n)} for n in voters
            if n not in {b.seat_number for b in ballots}],
        "standing": None if is_open else [
            {"seat": n, "name": name(n)} for n in vote.standing or []],
    }
    return out


def _latest_votes(match_id: int) -> Any:
    latest_closed = (MatchVote.objects.filter(match_id=match_id)
                     .exclude(status=MatchVote.Status.OPEN)
                     .order_by("-closed_at", "-pk").values("pk")[:CLOSED_SHOWN])
    return (MatchVote.objects.filter(Q(match_id=match_id, status=MatchVote.Status.OPEN)
                                     | Q(pk__in=latest_closed))
            .select_related("proposed_by"))


# (compiled once per connection: building this queryset cost the match page 2 ms a request)
LATEST_VOTES = Prepared(MatchVote, _latest_votes, server_side=True, match_id="int")


def _votes(match: Match, votes: list[MatchVote] | None = None) -> list[MatchVote]:
    """The open votes (oldest first) and the latest closed ones (newest first): one query
    (``votes``: ``LATEST_VOTES``' answer, when read already), and one for their ballots when
    there are any."""
    if votes is None:
        votes = LATEST_VOTES(match_id=match.pk)
    if votes:
        prefetch_related_objects(votes, Prefetch(
            "ballots", queryset=MatchBallot.objects.select_related("user")
            .order_by("cast_at", "pk")))
    open_votes = sorted((v for v in votes if v.status == MatchVote.Status.OPEN),
                        key=lambda v: (v.opened_at, v.pk))
    closed = sorted((v for v in votes if v.status != MatchVote.Status.OPEN),
                    key=lambda v: (v.closed_at, v.pk), reverse=True)
    return open_votes + closed


def match_votes(match: Match, user: AbstractBaseUser | None,
                seats: list[Seat] | None = None, votes: list[MatchVote] | None = None
                ) -> dict[str, Any]:
    """Everything a reader may see of the match's votes, and what they may do: the open
    proposals, the latest closed ones and concessions, whether voting is locked, and for a
    seat still in a match in play which proposals it may make and whether it may concede."""
    game = engine.games().get(match.game)
    if seats is None:
        seats = list(match.seats.select_related("user").order_by("number"))
    votes = _votes(match, votes)
    names = seat_names(match, seats, closed=any(v.status != MatchVote.Status.OPEN
                                                for v in votes))
    mine = next((seat for seat in seats if user is not None and user.is_authenticated
                 and seat.user_id == user.pk), None)
    active = match.status == Match.Status.ACTIVE and game is not None
    standing_seats = seats_standing(match, game, seats) if active else []
    standing = [s.number for s in standing_seats]
    in_play = active and mine is not None and mine.number in standing
    # Said before anyone proposes: a vote that cannot pass is not offered at all.
    no_voter = no_voter_refusal(match, standing_seats) if in_play else None
    shown = [vote_shown(vote, reader=mine.number if mine else None, standing=standing,
                        names=names, reader_user=mine.user_id if mine else None)
             for vote in votes]
    open_votes = [vote for vote in shown if vote["open"]]
    open_kinds = {vote["kind"] for vote in open_votes}
    proposable = [kind for kind in PROPOSALS if kind not in open_kinds] \
        if in_play and not match.votes_locked and not no_voter else []
    return {
        "locked": match.votes_locked,
        "open": open_votes,
        "closed": [vote for vote in shown if not vote["open"]],
        "my_seat": mine.number if mine else None,
        "may_vote": in_play and not match.votes_locked,
        "may_propose": [{"kind": kind, "label": MatchVote.Kind(kind).label}
                        for kind in proposable],
        "may_concede": in_play and match.paused_at is None,
        "no_voter": no_voter or "",
        "standing": [{"seat": n, "name": names.now(n)} for n in standing],
    }
