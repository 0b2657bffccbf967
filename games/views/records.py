"""A finished match's record, to download as JSON or text (games/records.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games import records
from games.models import Match
from games.views.access import match_visible_or_404


def _refused() -> HttpResponse:
    return HttpResponse(_("The record of a match can be downloaded once the match has "
                          "finished: it reveals every sealed sheet and the seed of its "
                          "dice.") + "\n",
                        status=409, content_type="text/plain; charset=utf-8")


def _download(match: Match, body: str, extension: str, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-record.{extension}"'
    return response


@require_safe
def record_json(request: HttpRequest, match_id: int) -> HttpResponse:
    """GET: the record as JSON (409 while the match is not finished)."""
    match = match_visible_or_404(request, match_id)
    if not records.record_available(match):
        return _refused()
    return _download(match, records.record_json(records.match_record(match)), "json",
                     "application/json")


@require_safe
def record_text(request: HttpRequest, match_id: int) -> HttpResponse:
    """GET: the record as text, in the game's order grammar (409 while not finished)."""
    match = match_visible_or_404(request, match_id)
    if not records.record_available(match):
        return _refused()
    return _download(match, records.record_text(match, records.match_record(match)), "txt",
                     "text/plain")
