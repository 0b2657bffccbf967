"""The Final Act setup panel's requests: the live check of a draft and sealing it.

Both take the whole form (see ``games.final_act.setup_panel`` for its fields) and answer with
the panel's pieces for HTMX, or the whole match page for a browser without JavaScript. Only the
requester's own draft and own sealed setup are ever shown.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

import engine
from games import selectors
from games.final_act.setup_panel import (
    FILLS,
    fields_from_post,
    setup_from_fields,
    setup_panel_context,
)
from games.models import Match, Seat
from games.services import ServiceError
from games.views.access import (
    PhaseClosed,
    match_visible_or_404,
    own_prompted_seat,
    seal_posted,
    status_for,
)

PANEL = "games/final-act/setup_panel.html"
CHECK = "games/final-act/setup_check.html"


def _login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous requests: the login page for a browser, a plain 403 for HTMX (a login form
    swapped into the panel would help nobody)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                raise PermissionDenied(_("Log in to place your setup."))
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapper


def _setup_request(request: HttpRequest, match_id: int, seat_number: int) -> tuple[Match, Seat]:
    match = match_visible_or_404(request, match_id)  # (the plug-in's guard checked the game)
    seat = own_prompted_seat(request, match, seat_number, phase="setup")
    return match, seat


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "partials/error.html", {"error": message}, status=status)


def _page(request: HttpRequest, match: Match, panel: dict[str, Any], status: int = 200
          ) -> HttpResponse:
    """The whole match page with this panel (for a browser without JavaScript)."""
    from games.views.match import match_page_context, match_template

    context = match_page_context(request, match)
    context.update(panel)
    return render(request, match_template(match), context, status=status)


@_login_required
@require_POST
def validate(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """The live check of the posted draft: its problems and the board showing it. With
    ``fill=default`` or ``fill=clear`` the whole panel comes back refilled. Stores nothing."""
    try:
        match, seat = _setup_request(request, match_id, seat_number)
    except PhaseClosed as closed:
        return _refused(request, str(closed), 409)
    fill = request.POST.get("fill", "").strip() or None
    if fill is not None and fill not in FILLS:
        return _refused(request, _("Unknown action: the buttons fill the form with the default "
                                   "layout or clear it."), 400)
    sheet = selectors.submission_for_author(match, seat, request.user)
    # "Check" asks for every problem, pieces not placed yet included.
    panel = setup_panel_context(request, match, seat, sheet, posted=request.POST, fill=fill,
                                insist=request.POST.get("check") == "all")
    if not request.htmx:
        return _page(request, match, panel)
    context = {"match": match, "my_seat": seat, "fa_oob": True, **panel}
    return render(request, PANEL if fill else CHECK, context)


@_login_required
@require_POST
def submit(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """Seal the setup the form describes, or refuse it keeping every field as typed."""
    try:
        match, seat = _setup_request(request, match_id, seat_number)
    except PhaseClosed as closed:
        return _refused(request, str(closed), 409)
    game = engine.games()[match.game]
    legal = game.legal_actions(match.state, seat.number)
    setup = setup_from_fields(fields_from_post(request.POST, legal), legal)
    try:
        sealed = seal_posted(
            request, match, seat, setup, prompt_phase="setup",
            notice=_("Setup sealed (revision %(revision)s)."))
    except ServiceError as error:
        return _setup_refused(request, match, seat, error)
    if sealed.response is not None:
        return sealed.response
    sheet = sealed.sheet()
    context: dict[str, Any] = {"match": match, "my_seat": seat, "fa_oob": True,
                               "fa_setup_receipt": sealed.receipt}
    context.update(setup_panel_context(request, match, seat, sheet))
    return render(request, PANEL, context)


def _setup_refused(request: HttpRequest, match: Match, seat: Seat,
                   error: ServiceError) -> HttpResponse:
    """A refused setup: the panel again with the fields as typed and the reason (the whole
    page without HTMX). Once the setup phase is over, only the message (the page must reload)."""
    status = status_for(error)
    match.refresh_from_db()
    game = engine.games()[match.game]
    prompt = game.prompts(match.state).get(seat.number) if match.state else None
    if match.status != Match.Status.ACTIVE or prompt is None or prompt.phase != "setup":
        return _refused(request, error.message, status)
    sheet = selectors.submission_for_author(match, seat, request.user)
    panel = setup_panel_context(request, match, seat, sheet, posted=request.POST, insist=True)
    message = error.message
    if error.code == "invalid" and error.problems:
        count = len(error.problems)
        message = ngettext(
            "This setup was refused: %(count)s problem, listed below next to the pieces. "
            "Nothing you typed was lost.",
            "This setup was refused: %(count)s problems, listed below next to the pieces. "
            "Nothing you typed was lost.", count) % {"count": count}
    panel["fa_setup_error"] = message
    if not request.htmx:
        return _page(request, match, panel, status=status)
    context = {"match": match, "my_seat": seat, "fa_oob": True, **panel}
    return render(request, PANEL, context, status=status)
