"""The player pages in the JSON API (read-only): ``GET /api/v1/players/{username}``, what the
token's user would see on the page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from games.services import ServiceError
from portal.players import selectors
from portal.players.sections import sections


def player_data(request: HttpRequest, username: str) -> dict[str, Any]:
    found = selectors.player_by_username(username)
    if found is None:
        raise ServiceError("not_found", _("There is no player “%(name)s”.") % {
            "name": username[:150]})
    reader = selectors.page_reader(player=found, viewer=request.user)
    if not selectors.page_open_to(reader):
        raise ServiceError("not_allowed", _("This player shows their page only to the members "
                                            "of their clubs."))
    page = selectors.player_page(reader)
    record = page.reliability
    extra = {}
    for section in sections():
        context = section.context(reader) if section.data is not None else None
        if context is not None:
            extra[section.key] = section.data(context)
    return {
        "username": found.get_username(),
        "records": [{"game": r.game, "name": r.name, "played": r.played, "won": r.won,
                     "drawn": r.drawn, "lost": r.lost, "abandoned": r.abandoned}
                    for r in page.records],
        "reliability": None if record is None or record.score is None else {
            "score": record.score, "matches_finished": record.matches_finished,
            "matches_abandoned": record.matches_abandoned, "deadlines": record.deadlines,
            "deadlines_missed": record.deadlines_missed},
        "reliability_history": [{"match_id": row.update.match_id, "outcome": row.outcome,
                                 "deadlines": row.deadlines,
                                 "at": row.update.created_at.isoformat()}
                                for row in page.reliability_history],
        "current_matches": [{"id": m.pk, "game": m.game, "title": str(m), "status": m.status}
                            for m in page.current],
        "sections": extra,
    }
