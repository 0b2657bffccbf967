"""Which targets hear of an event: a match's own targets, and the targets of the club the match
belongs to (a club match); a club's targets also hear of its tournaments' rounds. One message
per (target, event): the dedupe key names both, so an event reported twice posts once.

Called from the lifecycle's signals (delivered after the commit, in a worker) and from the
competitions' ``round_started`` (in the round's transaction); never in a request."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import translation

import engine
from games.models import Match, Phase, Seat
from portal.webhooks import messages
from portal.webhooks.formats import Message
from portal.webhooks.models import WebhookTarget
from portal.webhooks.services import webhooks_queue


def targets_of_match(match_id: int) -> QuerySet[WebhookTarget]:
    return WebhookTarget.objects.filter(
        Q(match_id=match_id) | Q(club__club_matches__match_id=match_id),
        disabled_at__isnull=True).order_by("pk")


def with_targets(match_ids: Iterable[Any]) -> set[Any]:
    """Which of the matches ``match_ids`` have a webhook target (their own or their club's),
    in one query: most have none, and nothing more is read for them."""
    match_ids = set(match_ids)
    found = WebhookTarget.objects.filter(
        Q(match_id__in=match_ids) | Q(club__club_matches__match_id__in=match_ids),
        disabled_at__isnull=True).values_list("match_id", "club__club_matches__match_id")
    return {match_id for pair in found for match_id in pair} & match_ids


def phases_opened_webhooks(payloads: list[dict[str, Any]]) -> int:
    """``phase_opened_webhooks`` for the outbox's batch of opened phases."""
    targeted = with_targets(int(p["match_id"]) for p in payloads)
    return sum(phase_opened_webhooks(**p) for p in payloads if int(p["match_id"]) in targeted)


def phases_resolved_webhooks(payloads: list[dict[str, Any]]) -> int:
    """``phase_resolved_webhooks`` for the outbox's batch of resolved phases."""
    targeted = with_targets(int(p["match_id"]) for p in payloads)
    return sum(phase_resolved_webhooks(**p) for p in payloads if int(p["match_id"]) in targeted)


def _send_all(targets: list[WebhookTarget], key: str, build: Any) -> int:
    """Queue the message ``build`` makes (in each target's language) to every target in a
    constant number of queries; a message is built once per language."""
    built: dict[str, Message] = {}
    for target in targets:
        if target.language not in built:
            with translation.override(target.language):
                built[target.language] = build()
    return len(webhooks_queue([(target, built[target.language]) for target in targets],
                              key=key))


def _acting(match: Match, state: Any) -> list[Seat]:
    numbers = set(engine.get(match.game).prompts(state))
    return [seat for seat in Seat.objects.filter(match=match, user__isnull=False)
            .select_related("user__profile").order_by("number") if seat.number in numbers]


def phase_opened_webhooks(*, match_id: int, phase_number: int, **kwargs: Any) -> int:
    """"Your move", naming the players who must act in the phase just opened."""
    targets = list(targets_of_match(match_id))
    if not targets:  # (most matches: nothing more is read)
        return 0
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    phase = Phase.objects.filter(match_id=match_id, number=phase_number).first()
    if match is None or phase is None or phase.status != Phase.Status.OPEN:
        return 0
    seats = _acting(match, phase.state_before)
    if not seats:
        return 0
    return _send_all(targets, f"your_move:m{match_id}:p{phase_number}", lambda: (
        messages.your_move(match=match, seats=seats, phase_number=phase_number,
                           deadline=phase.deadline)))


def gameday_opened_webhooks(*, match_id: int, gameday: str, **kwargs: Any) -> int:
    """"Your move" for a continuous match's new gameday (its players who may act)."""
    targets = list(targets_of_match(match_id))
    if not targets:
        return 0
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None or match.state is None:
        return 0
    seats = _acting(match, match.state)
    if not seats:
        return 0
    return _send_all(targets, f"your_move:m{match_id}:g{gameday}", lambda: (
        messages.your_move(match=match, seats=seats, phase_number=match.phase_number,
                           deadline=match.deadline)))


def phase_resolved_webhooks(*, match_id: int, phase_number: int, **kwargs: Any) -> int:
    targets = list(targets_of_match(match_id))
    if not targets:
        return 0
    phase = Phase.objects.filter(match_id=match_id, number=phase_number,
                                 status=Phase.Status.RESOLVED).select_related("match").first()
    if phase is None:
        return 0
    return _send_all(targets, f"phase_resolved:m{match_id}:p{phase_number}", lambda: (
        messages.phase_resolved(match=phase.match, phase=phase)))


def match_ended_webhooks(*, match_id: int, **kwargs: Any) -> int:
    targets = list(targets_of_match(match_id))
    if not targets:
        return 0
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status not in (Match.Status.FINISHED,
                                                            Match.Status.ABORTED):
        return 0
    return _send_all(targets, f"match_ended:m{match_id}", lambda: (
        messages.match_ended(match=match)))


def round_started_webhooks(*, tournament_id: int, round_number: int) -> int:
    """A club's tournament opened a round: its club's targets hear of it."""
    from competitions.models import Round

    round_ = Round.objects.select_related("tournament").filter(
        tournament_id=tournament_id, number=round_number).first()
    if round_ is None or round_.tournament.club_id is None:
        return 0
    targets = list(WebhookTarget.objects.filter(club_id=round_.tournament.club_id,
                                                disabled_at__isnull=True).order_by("pk"))
    return _send_all(targets, f"round_started:tr{tournament_id}:r{round_number}", lambda: (
        messages.round_started(tournament=round_.tournament, round_=round_)))
