"""Ladders: OpenSkill ratings updated exactly once per finished match, voids with a replay,
challenges between players."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from openskill.models import PlackettLuce

import engine
from competitions.models import (
    Challenge,
    Club,
    Ladder,
    LadderMatch,
    MatchVoid,
    Membership,
    Rating,
    RatingChange,
    RatingUpdate,
)
from competitions.services.clubs import membership_of, require_organiser
from games.endings import ending_of
from games.models import Match, ModerationEntry, Seat
from games.parsing import id_or_none
from games.services import ServiceError, match_create
from games.services.common import game_for

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma


def ladder_lock(ladder_id: Any) -> Ladder:
    try:
        return Ladder.objects.select_for_update().get(pk=id_or_none(ladder_id))
    except (Ladder.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no ladder %(id)s.") % {
            "id": str(ladder_id)[:20]}) from None


def site_ladder(*, game: str) -> Ladder:
    """The site-wide ladder of ``game`` (made on first use)."""
    the_game = game_for(game)
    ladder = Ladder.objects.filter(club__isnull=True, game=the_game.slug).first()
    if ladder is None:
        with transaction.atomic():
            ladder, _ = Ladder.objects.get_or_create(
                club=None, game=the_game.slug, defaults={"name": f"{the_game.name} (site)"})
    return ladder


@transaction.atomic
def ladder_create(*, by: AbstractBaseUser, club_id: Any, game: str, name: str = "",
                  options: dict | None = None, hours_per_phase: Any = 72,
                  challenge_days: int = 7, decay_sigma_per_week: float = 0) -> Ladder:
    """A club's ladder for one game (organisers)."""
    from competitions.services.clubs import club_lock

    club = club_lock(club_id)
    require_organiser(club, by)
    the_game = game_for(game)
    if not the_game.min_seats <= 2 <= the_game.max_seats:
        raise ServiceError("invalid", _("%(game)s is not played by two: no challenges.") % {
            "game": the_game.name})
    try:
        clean = the_game.validate_options(options or {})
    except engine.RuleError as error:
        raise ServiceError("invalid_options", _("The game options are not valid."),
                           error.problems) from None
    if Ladder.objects.filter(club=club, game=the_game.slug).exists():
        raise ServiceError("invalid", _("%(club)s already has a %(game)s ladder.") % {
            "club": club, "game": the_game.name})
    if not isinstance(challenge_days, int) or not 1 <= challenge_days <= 60:
        raise ServiceError("invalid", _("Challenges stay open 1 to 60 days."))
    try:
        decay = float(decay_sigma_per_week)
        hours = float(hours_per_phase)
    except (TypeError, ValueError):
        raise ServiceError("invalid", _("The decay and the hours per phase are numbers.")) from None
    if not (0 <= decay <= DEFAULT_SIGMA and 0.001 <= hours <= 8760):
        raise ServiceError("invalid", _("The decay or the hours per phase are out of range."))
    return Ladder.objects.create(club=club, game=the_game.slug, options=clean,
                                 name=(name or f"{club.name}: {the_game.name}")[:80],
                                 hours_per_phase=hours, challenge_days=challenge_days,
                                 decay_sigma_per_week=decay)


# --- ratings --------------------------------------------------------------------------------


def decayed_sigma(ladder: Ladder, sigma: float, last_active: datetime | None,
                  now: datetime) -> float:
    """Inactivity decay (when the ladder has it): uncertainty grows with idle weeks."""
    if not ladder.decay_sigma_per_week or last_active is None:
        return sigma
    weeks = max(0.0, (now - last_active).total_seconds() / (7 * 86400))
    return min(DEFAULT_SIGMA, math.sqrt(sigma**2 + weeks * ladder.decay_sigma_per_week**2))


def match_ranking_users(match: Match) -> list[list[int]] | None:
    """The finished match's ranking as groups of user ids, best first; None if it cannot be
    rated (not finished, no result, a bot seat, fewer than two players). Each seat is rated
    for the player holding it at the end (the tenure that played the ending, docs/
    competitions.md); a seat nobody held at the end (it sought a new commander, or was never
    filled) is left out, and its earlier players are not rated for it."""
    ending = ending_of(match)
    if match.status != Match.Status.FINISHED or ending is None or not ending.has_result:
        return None
    from competitions.services.leagues import adjudicated_league_match

    if adjudicated_league_match(match.pk):  # scored at its season's end: it plays on unrated
        return None
    seats = {s.number: s for s in Seat.objects.filter(match=match)}
    # (a bot that stood in for a seat seeking a commander is not a bot seat: left out below)
    if not seats or any(s.bot and not s.on_autopilot for s in seats.values()):
        return None
    holders = {number: seat.user_id for number, seat in seats.items()
               if seat.user_id is not None}
    ranking = []
    seen: set[int] = set()
    for group in ending.ranking:
        users = [holders[n] for n in group if n in holders]
        if users:
            ranking.append(sorted(users))
            seen.update(users)
    if len(seen) != len(holders) or len(seen) < 2:
        return None
    return ranking


def ladders_for_match(match: Match) -> list[Ladder]:
    """The site-wide ladder of the match's game, and any ladder the match was made for."""
    linked = list(Ladder.objects.filter(ladder_matches__match=match))
    return [site_ladder(game=match.game), *[ladder for ladder in linked if ladder.club_id]]


def _apply(ladder: Ladder, update: RatingUpdate, table: dict[int, dict[str, Any]]) -> list:
    """Rate one update from ``table`` (user id -> mu, sigma, games, last) and move it on."""
    teams, ranks, order = [], [], []
    for place, group in enumerate(update.ranking, start=1):
        for user_id in group:
            row = table.get(user_id) or {"mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA,
                                         "games": 0, "last": None}
            sigma = decayed_sigma(ladder, row["sigma"], row["last"], update.played_at)
            teams.append([MODEL.rating(mu=row["mu"], sigma=sigma)])
            ranks.append(place)
            order.append((user_id, row, sigma))
    rated = MODEL.rate(teams, ranks=ranks)
    changes = []
    for (user_id, row, sigma), team in zip(order, rated, strict=True):
        new = team[0]
        changes.append(RatingChange(update=update, user_id=user_id, mu_before=row["mu"],
                                    sigma_before=sigma, mu_after=new.mu, sigma_after=new.sigma))
        table[user_id] = {"mu": new.mu, "sigma": new.sigma, "games": row["games"] + 1,
                          "last": update.played_at}
    return changes


def _table(ladder: Ladder, user_ids: list[int]) -> dict[int, dict[str, Any]]:
    return {r.user_id: {"mu": r.mu, "sigma": r.sigma, "games": r.games_played,
                        "last": r.last_active}
            for r in Rating.objects.filter(ladder=ladder, user_id__in=user_ids)}


def _save_table(ladder: Ladder, table: dict[int, dict[str, Any]]) -> None:
    for user_id, row in table.items():
        Rating.objects.update_or_create(
            ladder=ladder, user_id=user_id,
            defaults={"mu": row["mu"], "sigma": row["sigma"], "games_played": row["games"],
                      "last_active": row["last"]})


@transaction.atomic
def ladder_match_record(*, ladder_id: Any, match_id: Any) -> RatingUpdate | None:
    """Rate a finished match on a ladder exactly once (locks the ladder row; a second call,
    a re-delivered signal or a concurrent worker finds the unique row and changes nothing)."""
    ladder = ladder_lock(ladder_id)
    if RatingUpdate.objects.filter(ladder=ladder, match_id=match_id).exists():
        return None
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.game != ladder.game:
        return None
    ranking = match_ranking_users(match)
    if ranking is None:
        return None
    update = RatingUpdate.objects.create(ladder=ladder, match=match, ranking=ranking,
                                         played_at=match.finished_at or timezone.now())
    table = _table(ladder, [u for group in ranking for u in group])
    RatingChange.objects.bulk_create(_apply(ladder, update, table))
    _save_table(ladder, table)
    return update


def match_rate(*, match_id: Any) -> int:
    """Rate a finished match on every ladder it counts for; returns how many were updated."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match_ranking_users(match) is None:
        return 0
    return sum(ladder_match_record(ladder_id=ladder.pk, match_id=match.pk) is not None
               for ladder in ladders_for_match(match))


def _replay(ladder: Ladder) -> int:
    """Recompute the whole ladder from its remaining (not voided) updates, in play order."""
    RatingChange.objects.filter(update__ladder=ladder).delete()
    table: dict[int, dict[str, Any]] = {}
    changes: list[RatingChange] = []
    updates = list(RatingUpdate.objects.filter(ladder=ladder, voided=False)
                   .order_by("played_at", "pk"))
    for update in updates:
        changes += _apply(ladder, update, table)
    RatingChange.objects.bulk_create(changes)
    Rating.objects.filter(ladder=ladder).exclude(user_id__in=list(table)).delete()
    _save_table(ladder, table)
    return len(updates)


@transaction.atomic
def ladder_match_void(*, ladder_id: Any, match_id: Any, by: AbstractBaseUser,
                      reason: str) -> MatchVoid:
    """An admin voids a match on a ladder: the ladder is replayed without it (audited).
    Voiding a voided match again changes nothing and returns the first audit row."""
    if by is None or not getattr(by, "is_staff", False):
        raise ServiceError("not_allowed", _("Only an admin may void a rated match."))
    if not (reason or "").strip():
        raise ServiceError("invalid", _("Say why the match is voided."))
    ladder = ladder_lock(ladder_id)
    existing = MatchVoid.objects.filter(ladder=ladder, match_id=match_id).first()
    if existing is not None:
        return existing
    update = RatingUpdate.objects.filter(ladder=ladder, match_id=match_id).first()
    if update is None:
        raise ServiceError("not_found", _("That match is not rated on this ladder."))
    update.voided = True
    update.save(update_fields=["voided"])
    replayed = _replay(ladder)
    return MatchVoid.objects.create(ladder=ladder, match_id=match_id, by=by,
                                    reason=reason.strip()[:255], updates_replayed=replayed)


def match_voided_unrate(*, match_id: Any) -> int:
    """A moderator voided the match (``games.services.match_void``): every ladder that rated it
    is replayed without it, with an audit row naming the moderator and the reason. Once: a
    second call finds the rating voided and changes nothing. Returns the ladders replayed."""
    entry = (ModerationEntry.objects.filter(match_id=match_id, kind=ModerationEntry.Kind.VOID)
             .order_by("-at").first())
    replayed = 0
    for ladder_id in list(RatingUpdate.objects.filter(match_id=match_id, voided=False)
                          .values_list("ladder_id", flat=True)):
        with transaction.atomic():
            ladder = ladder_lock(ladder_id)
            update = RatingUpdate.objects.filter(ladder=ladder, match_id=match_id,
                                                 voided=False).first()
            if update is None:
                continue
            update.voided = True
            update.save(update_fields=["voided"])
            count = _replay(ladder)
            MatchVoid.objects.get_or_create(ladder=ladder, match_id=match_id, defaults={
                "by": entry.by if entry else None, "updates_replayed": count,
                "reason": (entry.reason if entry else "match voided")[:255]})
            replayed += 1
    return replayed


def ladder_rating_of(ladder: Ladder, user_id: int, now: datetime | None = None) -> float:
    """A player's conservative rating (mu - 3 sigma, with decay) on ``ladder``."""
    rating = Rating.objects.filter(ladder=ladder, user_id=user_id).first()
    if rating is None:
        return DEFAULT_MU - 3 * DEFAULT_SIGMA
    sigma = decayed_sigma(ladder, rating.sigma, rating.last_active, now or timezone.now())
    return rating.mu - 3 * sigma


# --- challenges -----------------------------------------------------------------------------


def _may_play(ladder: Ladder, user: Any) -> bool:
    if ladder.club_id is None:
        return True
    club = Club.objects.get(pk=ladder.club_id)
    return membership_of(club, user) is not None


def _open_between(ladder: Ladder, a: int, b: int) -> bool:
    return Challenge.objects.filter(ladder=ladder, status=Challenge.Status.OPEN,
                                    challenger_id__in=[a, b], challenged_id__in=[a, b]).exists()


def _nearest_opponent(ladder: Ladder, user: Any) -> Any:
    """The player whose conservative rating is nearest the challenger's (members of the
    club, or rated players on a site-wide ladder), without an open challenge between them."""
    now = timezone.now()
    mine = ladder_rating_of(ladder, user.pk, now)
    if ladder.club_id:
        ids = set(Membership.objects.filter(club_id=ladder.club_id)
                  .values_list("user_id", flat=True))
    else:
        ids = set(Rating.objects.filter(ladder=ladder).values_list("user_id", flat=True))
    ids.discard(user.pk)
    ratings = {r.user_id: r.mu - 3 * decayed_sigma(ladder, r.sigma, r.last_active, now)
               for r in Rating.objects.filter(ladder=ladder, user_id__in=ids)}
    default = DEFAULT_MU - 3 * DEFAULT_SIGMA
    candidates = sorted((abs(ratings.get(uid, default) - mine), uid) for uid in ids
                        if not _open_between(ladder, user.pk, uid))
    if not candidates:
        raise ServiceError("not_found", _("Nobody is free to be challenged on this ladder."))
    return get_user_model().objects.get(pk=candidates[0][1])


@transaction.atomic
def challenge_create(*, ladder_id: Any, by: AbstractBaseUser, opponent: Any = None,
                     nearest: bool = False) -> Challenge:
    """Challenge ``opponent`` (a user), or with ``nearest`` the player nearest one's rating."""
    if by is None or not by.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to challenge someone."))
    ladder = ladder_lock(ladder_id)
    if not _may_play(ladder, by):
        raise ServiceError("not_allowed", _("Only the club's members play on its ladder."))
    if nearest:
        opponent = _nearest_opponent(ladder, by)
    if opponent is None or not getattr(opponent, "pk", None):
        raise ServiceError("invalid", _("Choose whom to challenge."))
    if opponent.pk == by.pk:
        raise ServiceError("invalid", _("You cannot challenge yourself."))
    if not _may_play(ladder, opponent):
        raise ServiceError("invalid", _("%(player)s is not a member of the club.") % {
            "player": opponent})
    if _open_between(ladder, by.pk, opponent.pk):
        raise ServiceError("invalid", _("There is already an open challenge with %(player)s.") % {
            "player": opponent})
    return Challenge.objects.create(
        ladder=ladder, challenger=by, challenged=opponent,
        expires_at=timezone.now() + timedelta(days=ladder.challenge_days))


def _challenge_lock(challenge_id: Any) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=id_or_none(challenge_id))
    except (Challenge.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no such challenge.")) from None


def _decide(challenge: Challenge, status: str) -> Challenge:
    challenge.status = status
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "decided_at", "match"])
    return challenge


@transaction.atomic
def challenge_accept(*, challenge_id: Any, by: AbstractBaseUser) -> Challenge:
    """The challenged player accepts: the ladder match starts at once."""
    challenge = _challenge_lock(challenge_id)
    if by is None or challenge.challenged_id != by.pk:
        raise ServiceError("not_allowed", _("Only the challenged player may accept."))
    if challenge.status != Challenge.Status.OPEN:
        raise ServiceError("not_open", _("This challenge is %(status)s.") % {
            "status": challenge.get_status_display().lower()})
    if challenge.expires_at <= timezone.now():
        _decide(challenge, Challenge.Status.EXPIRED)
        raise ServiceError("not_open", _("This challenge has expired."))
    ladder = challenge.ladder
    match = match_create(
        creator=challenge.challenger, game=ladder.game, options=ladder.options,
        seats=[{"kind": "human", "user": challenge.challenger},
               {"kind": "human", "user": by}],
        hours_per_phase=ladder.hours_per_phase, is_public=True,
        title=f"{ladder.name}: {challenge.challenger} – {by}"[:120])
    LadderMatch.objects.create(ladder=ladder, match=match)
    challenge.match = match
    return _decide(challenge, Challenge.Status.ACCEPTED)


@transaction.atomic
def challenge_decline(*, challenge_id: Any, by: AbstractBaseUser) -> Challenge:
    """The challenged player declines, or the challenger withdraws; both are recorded."""
    challenge = _challenge_lock(challenge_id)
    if challenge.status != Challenge.Status.OPEN:
        raise ServiceError("not_open", _("This challenge is %(status)s.") % {
            "status": challenge.get_status_display().lower()})
    if by is not None and challenge.challenged_id == by.pk:
        return _decide(challenge, Challenge.Status.DECLINED)
    if by is not None and challenge.challenger_id == by.pk:
        return _decide(challenge, Challenge.Status.WITHDRAWN)
    raise ServiceError("not_allowed", _("This challenge is not yours."))


def challenges_expire(*, now: datetime | None = None) -> int:
    """Mark open challenges past their time as expired (the sweeper)."""
    return Challenge.objects.filter(status=Challenge.Status.OPEN,
                                    expires_at__lte=now or timezone.now()).update(
        status=Challenge.Status.EXPIRED, decided_at=now or timezone.now())
