"""The competitions listen to the match lifecycle's ``match_ended`` (delivered by the lifecycle's
outbox after the commit).

The receiver does the work in its own transactions (rating once per ladder, the tournament
result once per board); a re-delivered signal finds the rows and changes nothing, and the
sweeper catches up on anything a crash left behind.
"""

from __future__ import annotations

from django.dispatch import receiver

from games.signals import match_ended


@receiver(match_ended, dispatch_uid="competitions_match_ended")
def on_match_ended(sender, match_id: int, status: str, **kwargs) -> None:
    from competitions.services import match_ended_record
    from competitions.services.ladders import match_voided_unrate

    if status == "voided":
        match_voided_unrate(match_id=match_id)
    match_ended_record(match_id=match_id)
