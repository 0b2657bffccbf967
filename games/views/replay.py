"""Every game's replay and rules page, through its plug-in (the generic ones: the event list
per phase, the game described from its engine)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_safe

from games import plugins, selectors
from games.models import Match, Phase
from games.views.access import match_url, match_visible_or_404
from games.views.match import resolved_phases


def frame_for(match: Match, seat: int | None, phase_number: int, resolved: list[Phase]
              ) -> dict[str, Any] | None:
    """The replay frame of resolved phase ``phase_number`` for ``seat``, or None if there is
    no such phase. The board after a phase is the state the next phase opened with (or the
    match's state after its last phase)."""
    if phase_number not in {p.number for p in resolved}:
        return None
    rows = {p.number: p for p in Phase.objects.filter(
        match=match, number__in=[phase_number, phase_number + 1]).only(
        "id", "number", "name", "events", "state_before")}
    phase, following = rows.get(phase_number), rows.get(phase_number + 1)
    if phase is None:
        return None
    if following is not None:
        state_after = following.state_before
    elif match.phase_number == phase_number and match.state is not None:
        state_after = match.state
    else:
        return None
    return plugins.plugin_for(match.game).replay_frame(match, seat, phase, resolved,
                                                       state_after)


@require_GET
def replay(request: HttpRequest, match_id: int, phase_number: int) -> HttpResponse:
    """One resolved phase of the match as a replay frame: the HTMX partial, or (without HTMX)
    the match page showing that frame."""
    match = match_visible_or_404(request, match_id)
    plugin = plugins.plugin_for(match.game)
    if not request.htmx:
        return redirect(f"{match_url(match)}?replay={phase_number}#{plugin.replay_anchor}")
    my_seat = selectors.match_seat_for_user(match, request.user)
    frame = frame_for(match, my_seat.number if my_seat else None, phase_number,
                      resolved_phases(match))
    if frame is None:
        raise Http404(_("That phase has not been resolved (yet): nothing to replay."))
    return render(request, plugin.replay_template, {"match": match, "frame": frame})


@require_safe
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: how to play a game on this site, for anyone (no login needed)."""
    if slug not in plugins.installed():
        raise Http404(_("No such game on this site."))
    plugin = plugins.plugin_for(slug)
    context = {"plugin": plugin, "game_name": plugin.name, "slug": slug,
               **plugin.rules_context(request)}
    return render(request, plugin.rules_template, context)
