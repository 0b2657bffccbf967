"""The processing timeline page and the notebook (private notes, sealed commentary): each
checks who asks before reading anything else of the match."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

import engine
from games import selectors as game_selectors
from games.models import Match
from games.services.errors import ServiceError
from games.views.access import match_visible_or_404, status_for
from portal.timeline import services
from portal.timeline.forms import CommentaryForm, NoteForm
from portal.timeline.models import Commentary, Note
from portal.timeline.selectors import match_timeline, timeline_viewer


@require_GET
def timeline(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    viewer = timeline_viewer(match, request.user)
    if viewer is None:
        raise PermissionDenied(_("Only the match's players and moderators see its timeline."))
    context = {"match": match, **match_timeline(match=match, viewer=viewer)}
    template = "timeline/partials/timeline.html" if request.htmx else "timeline/timeline.html"
    return render(request, template, context)


@require_GET
def notebook(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    context = _notebook_context(request, match)
    template = "timeline/partials/notebook.html" if request.htmx else "timeline/notebook.html"
    return render(request, template, context)


@require_POST
def note_save(request: HttpRequest, match_id: int) -> HttpResponse:
    return _save(request, match_id, NoteForm, services.note_save, "note")


@require_POST
def commentary_save(request: HttpRequest, match_id: int) -> HttpResponse:
    return _save(request, match_id, CommentaryForm, services.commentary_save, "commentary")


def _save(request: HttpRequest, match_id: int, form_class: Any, save: Any, what: str
          ) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    if game_selectors.match_seat_for_user(match, request.user) is None:
        raise PermissionDenied(_("Only the match's players keep notes and commentary on it."))
    form = form_class(request.POST)
    status, error, saved = 200, None, False
    if "text" not in request.POST:  # (an empty text deletes; a form without one is wrong)
        status, error = 400, _("The text is missing.")
    elif not form.is_valid():
        status, error = 400, " ".join(message for messages in form.errors.values()
                                      for message in messages)
    else:
        try:
            save(match=match, user=request.user, text=form.cleaned_data["text"])
            saved = True
        except ServiceError as refused:
            status, error = status_for(refused), refused.message
    if not request.htmx and status == 200:
        return redirect("timeline:notebook", match_id=match.pk)
    context = _notebook_context(request, match)
    context.update({f"{what}_error": error, f"{what}_saved": saved})
    if error:  # the text as typed stays in the box, with what is wrong
        context[f"{what}_form"] = form
    template = "timeline/partials/notebook.html" if request.htmx else "timeline/notebook.html"
    return render(request, template, context, status=status)


def _notebook_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """The reader's own notes and commentary (a player), and the commentary of the match's
    players once it has ended (anyone who may see the match). Nothing else: 403."""
    seat = game_selectors.match_seat_for_user(match, request.user)
    ended = services.match_ended(match)
    if seat is None and not ended:
        raise PermissionDenied(_("Only the match's players keep notes and commentary on it; "
                                 "its commentary is shown to all once it has ended."))
    context: dict[str, Any] = {"match": match, "seat": seat, "ended": ended}
    if seat is not None:
        note = Note.objects.filter(match=match, author=request.user).first()
        own = Commentary.objects.filter(match=match, author=request.user).first()
        context.update({
            "note": note, "note_form": NoteForm(initial={"text": note.text if note else ""}),
            "own_commentary": own,
            "commentary_form": CommentaryForm(initial={"text": own.text if own else ""}),
        })
    if ended:
        game = engine.games().get(match.game)
        context["commentaries"] = list(Commentary.objects.filter(match=match)
                                       .select_related("author"))
        for commentary in context["commentaries"]:
            commentary.seat_label = (str(game.seat_name(commentary.seat_number)) if game
                                     else _("Seat %(n)s") % {"n": commentary.seat_number})
    return context
