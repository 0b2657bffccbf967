"""Looking for signals in a match (``signals_scan``) — things a moderator may want to look at,
never a verdict and never a penalty. Each is found once (its ``key``); found again while open,
its evidence is brought up to date; one a moderator closed stays closed.

The four kinds and their thresholds:

- **shared network / shared device**: two accounts that played in the match (held a seat in
  it) were traced (``ClientTrace``: logins and submissions, kept 90 days) on one network
  (/24, /48) or one device cookie. A pair that declared a relationship (``Relationship``) is
  never flagged for a network; a device they share is still shown, apart ("declared pair").
- **synchronised sheets**: in a match's resolved phases, two seats' sheets (as last sent, by
  web, API or e-mail) arrived within ``SYNC_SECONDS`` (10 s) of each other in at least
  ``SYNC_MIN_TIMES`` (3) phases and in at least ``SYNC_MIN_SHARE`` (half) of the phases both
  sent one. Players who answer the same "your move" mail within a minute are common; within
  ten seconds, phase after phase, is rare.
- **a seat that always spares another** (games of three seats or more whose plug-in can tell,
  ``GamePlugin.seat_hostility``; Tank Game's counts each action of a tank): seat a could
  attack seat b's units at least ``SUPPORT_MIN_CHANCES`` (5) times and never did, while it
  attacked other seats. A game that cannot tell is skipped.
- **a new account took a seat**: an account made at most ``NEW_ACCOUNT_HOURS`` (48) before it
  took command of a seat of a match already in play (a seat seeking a commander).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import plugins
from games.models import Match, Phase, Seat, SeatTenure, Submission
from portal.signals.models import ClientTrace, Relationship, Signal

SYNC_SECONDS = 10
SYNC_MIN_TIMES = 3
SYNC_MIN_SHARE = 0.5
SUPPORT_MIN_CHANCES = 5
NEW_ACCOUNT_HOURS = 48
# Beat looks at the matches in play and those that ended this recently.
RECENT_DAYS = 7

Kind = Signal.Kind


def declared_pairs(user_ids: set[int]) -> dict[tuple[int, int], str]:
    """(smaller id, larger id) → the relationship they declared."""
    return {(r.first_id, r.second_id): r.kind for r in Relationship.objects.filter(
        first_id__in=user_ids, second_id__in=user_ids)}


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _players(match: Match) -> set[int]:
    ids = set(SeatTenure.objects.filter(match=match).values_list("user_id", flat=True))
    ids |= set(Seat.objects.filter(match=match, user__isnull=False)
               .values_list("user_id", flat=True))
    return ids


def _raise(kind: str, match: Match, first: int, second: int | None, evidence: dict[str, Any],
           declared: bool = False) -> Signal:
    key = f"{kind}:{match.pk}:{first}:{second or 0}"
    signal, created = Signal.objects.get_or_create(key=key, defaults={
        "kind": kind, "match": match, "first_id": first, "second_id": second,
        "evidence": evidence, "declared": declared, "found_at": timezone.now()})
    if not created and signal.status == Signal.Status.OPEN and (
            signal.evidence != evidence or signal.declared != declared):
        signal.evidence, signal.declared = evidence, declared
        signal.save(update_fields=["evidence", "declared"])
    return signal


def shared_traces(match: Match) -> list[Signal]:
    players = _players(match)
    networks: dict[int, set[str]] = defaultdict(set)
    devices: dict[int, set[str]] = defaultdict(set)
    for user_id, network, device in ClientTrace.objects.filter(user_id__in=players) \
            .values_list("user_id", "network", "device"):
        if network:
            networks[user_id].add(network)
        if device:
            devices[user_id].add(device)
    declared = declared_pairs(players)
    found = []
    for a, b in combinations(sorted(players), 2):
        relation = declared.get((a, b), "")
        common_networks = sorted(networks[a] & networks[b])
        if common_networks and not relation:
            found.append(_raise(Kind.SHARED_NETWORK, match, a, b, {"networks": common_networks}))
        common_devices = sorted(devices[a] & devices[b])
        if common_devices:
            evidence = {"devices": [d[:8] + "…" for d in common_devices]}
            if relation:
                evidence["declared"] = relation
            found.append(_raise(Kind.SHARED_DEVICE, match, a, b, evidence,
                                declared=bool(relation)))
    return found


def synchronised_sheets(match: Match) -> list[Signal]:
    arrivals: dict[int, dict[int, Any]] = defaultdict(dict)  # phase → seat → arrival
    users: dict[int, int] = {}
    rows = Submission.objects.filter(
        phase__match=match, phase__status=Phase.Status.RESOLVED,
        source__in=[Submission.Source.WEB, Submission.Source.API, Submission.Source.EMAIL],
        seat__user__isnull=False).values_list("phase__number", "seat__number", "seat__user_id",
                                              "updated_at")
    for phase, seat, user_id, at in rows:
        arrivals[phase][seat] = at
        users[seat] = user_id
    found = []
    for a, b in combinations(sorted(users), 2):
        if users[a] == users[b]:
            continue
        both = [(phase, seats[a], seats[b]) for phase, seats in sorted(arrivals.items())
                if a in seats and b in seats]
        close = [(phase, abs((x - y).total_seconds())) for phase, x, y in both
                 if abs((x - y).total_seconds()) <= SYNC_SECONDS]
        if len(close) >= SYNC_MIN_TIMES and len(close) >= SYNC_MIN_SHARE * len(both):
            first, second = _pair(users[a], users[b])
            found.append(_raise(Kind.SYNCHRONISED, match, first, second, {
                "seats": [a, b], "phases_both_sent": len(both),
                "within_seconds": SYNC_SECONDS,
                "close": [{"phase": phase, "seconds": round(gap, 1)} for phase, gap in close]}))
    return found


def spared_seats(match: Match) -> list[Signal]:
    seats = {s.number: s.user_id for s in Seat.objects.filter(match=match)}
    if len(seats) < 3:
        return []
    hostility = plugins.plugin_for(match.game).seat_hostility(match)
    if hostility is None:
        return []
    found = []
    for (a, b), (could, did) in sorted(hostility.items()):
        elsewhere = sum(d for (x, y), (_c, d) in hostility.items() if x == a and y != b)
        if could >= SUPPORT_MIN_CHANCES and did == 0 and elsewhere > 0 and \
                seats.get(a) and seats.get(b) and seats[a] != seats[b]:
            found.append(_raise(Kind.SUPPORT, match, seats[a], seats[b], {
                "seat": a, "spared_seat": b, "could_attack": could, "attacked": did,
                "attacks_on_others": elsewhere}))
    return found


def new_accounts(match: Match) -> list[Signal]:
    if match.started_at is None:
        return []
    found = []
    for tenure in SeatTenure.objects.filter(match=match, started_at__gt=match.started_at) \
            .select_related("user"):
        age = tenure.started_at - tenure.user.date_joined
        if timedelta(0) <= age <= timedelta(hours=NEW_ACCOUNT_HOURS):
            found.append(_raise(Kind.NEW_ACCOUNT, match, tenure.user_id, None, {
                "seat": tenure.seat_number,
                "account_made": tenure.user.date_joined.isoformat(),
                "seat_taken": tenure.started_at.isoformat(),
                "hours_between": round(age.total_seconds() / 3600, 1)}))
    return found


DETECTORS = (shared_traces, synchronised_sheets, spared_seats, new_accounts)


@transaction.atomic
def signals_scan(*, match_id: int) -> list[Signal]:
    """Look for every kind of signal in one match; the signals found (new or known)."""
    match = Match.objects.defer("state").filter(pk=match_id).first()
    if match is None:
        return []
    return [signal for detector in DETECTORS for signal in detector(match)]


def signals_scan_recent(*, now: Any = None) -> int:
    """Beat: scan the matches in play and those that ended in the last ``RECENT_DAYS``."""
    since = (now or timezone.now()) - timedelta(days=RECENT_DAYS)
    ids = Match.objects.filter(Q(status=Match.Status.ACTIVE) | Q(finished_at__gte=since)) \
        .values_list("pk", flat=True)
    return sum(len(signals_scan(match_id=pk)) for pk in ids)
