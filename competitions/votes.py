"""The competitions' rule on the players' votes to end a match (``games.services.votes``): a
tournament board cannot be cancelled, since its round needs a result (the players may still
agree to a draw, which the board scores as one, or concede)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from competitions.models import Pairing
from games.models import Match, MatchVote


def tournament_boards_are_not_cancelled(match: Match, kind: str) -> str | None:
    if kind == MatchVote.Kind.CANCEL and Pairing.objects.filter(match=match).exists():
        return _("This match is a tournament board and its round needs a result: it cannot "
                 "be cancelled. Propose a draw or concede instead.")
    return None
