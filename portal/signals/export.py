"""What the site keeps about a player, as one JSON document they may download from their
profile: their account and profile, the networks and devices recorded (kept 90 days), the
relationships they declared, their seats, reliability, reports they filed and their player
page choice. Moderators' records about them (signals, reports by others, notes) are not part
of it: they are the moderators' working notes, described in the privacy text."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.models import Reliability, SeatTenure
from portal.accounts.models import Profile
from portal.players.models import PagePrivacy
from portal.reports.models import Report
from portal.signals.models import ClientTrace, Relationship
from portal.signals.traces import retention


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def personal_data(*, user: Any) -> dict[str, Any]:
    profile = Profile.objects.filter(user_id=user.pk).first()
    reliability = Reliability.objects.filter(user_id=user.pk).first()
    privacy = PagePrivacy.objects.filter(user_id=user.pk).first()
    return {
        "account": {"username": user.get_username(), "email": user.email,
                    "date_joined": _iso(user.date_joined), "last_login": _iso(user.last_login)},
        "profile": None if profile is None else {
            "time_zone": profile.time_zone, "language": profile.language,
            "mail_delivery": profile.mail_delivery, "reminder_hours": profile.reminder_hours,
            "channels": profile.channels, "chat_handle": profile.chat_handle,
            "chat_mentions": profile.chat_mentions},
        "player_page": {"members_only": bool(privacy and privacy.members_only)},
        "networks_and_devices": {
            "kept_days": retention().days,
            "records": [{"at": _iso(t.at), "kind": t.kind, "network": t.network,
                         "device": t.device, "match_id": t.match_id}
                        for t in ClientTrace.objects.filter(user_id=user.pk).order_by("at")]},
        "relationships_declared": [
            {"with": (r.second if r.first_id == user.pk else r.first).get_username(),
             "kind": r.kind, "declared_at": _iso(r.declared_at),
             "declared_by_me": r.declared_by_id == user.pk}
            for r in Relationship.objects.filter(Q(first_id=user.pk) | Q(second_id=user.pk))
            .select_related("first", "second")],
        "seats": [{"match_id": t.match_id, "seat": t.seat_number, "from": _iso(t.started_at),
                   "to": _iso(t.ended_at), "ending": t.ending}
                  for t in SeatTenure.objects.filter(user_id=user.pk).order_by("started_at")],
        "reliability": None if reliability is None else {
            "score": reliability.score, "matches_finished": reliability.matches_finished,
            "matches_abandoned": reliability.matches_abandoned,
            "deadlines": reliability.deadlines,
            "deadlines_missed": reliability.deadlines_missed},
        "reports_filed": [{"at": _iso(r.created_at), "match_id": r.match_id,
                           "about": r.reported_user.get_username() if r.reported_user else None,
                           "reason": r.reason, "status": r.status}
                          for r in Report.objects.filter(reporter_id=user.pk)
                          .select_related("reported_user").order_by("created_at")],
    }
