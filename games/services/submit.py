"""One sheet from a channel that takes every kind of phase (e-mail replies, the API, the text
form, bots): a sealed or sequential phase's sheet goes to ``orders.orders_submit``, a continuous
phase's actions to ``continuous.actions_submit``. Both stay the one entry point for their kind."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from engine import PhaseKind
from games.models import Match
from games.services.common import Receipt
from games.services.continuous import actions_submit
from games.services.errors import ServiceError
from games.services.orders import orders_submit


def sheet_submit(
    *,
    match_id: Any,
    seat_number: Any,
    user: AbstractBaseUser | None,
    phase_number: Any,
    source: str,
    data: Any = None,
    text: str | None = None,
) -> Receipt:
    """Submit a sheet for the phase ``phase_number`` of the match, whatever its kind."""
    try:
        row = Match.objects.filter(pk=match_id).values("phase_kind", "phase_number").first()
    except (TypeError, ValueError, OverflowError):
        row = None
    if row is not None and row["phase_kind"] == PhaseKind.CONTINUOUS.value:
        if str(phase_number) != str(row["phase_number"]):
            raise ServiceError("stale_phase", _("This phase is over."))
        return actions_submit(match_id=match_id, seat_number=seat_number, user=user,
                              source=source, data=data, text=text)
    return orders_submit(match_id=match_id, seat_number=seat_number, user=user,
                         phase_number=phase_number, data=data, source=source, text=text)
