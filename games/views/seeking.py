"""A seat seeking a new commander (``games.services.seeking``): the page its link opens, which
shows the match only as a spectator sees it, and taking command of the seat, confirmed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

import engine
from games import plugins, selectors
from games.models import Match, Seat
from games.services import ServiceError
from games.services.seeking import held_before, seat_offered, seat_take
from games.views.access import match_url, redirect_to, status_for
from games.views.match import history_entries

TEMPLATE = "games/seat_offer.html"
HISTORY_SHOWN = 3


class TakeSeatForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("I take command of this seat as it stands now; what happened before is not "
                "mine, and from now on its deadlines are."),
        error_messages={"required": _("Tick the box to confirm that you take the seat.")})


def seat_offer(request: HttpRequest, seat_token: str) -> HttpResponse:
    """The seat's link: the match as a spectator sees it (never the seat's hidden side), and
    the form to take it. The link is the permission to look, private match or not."""
    seat = seat_offered(token=seat_token)
    if seat is None or seat.match.status != Match.Status.ACTIVE:
        return render(request, TEMPLATE, {"gone": True}, status=404)
    return render(request, TEMPLATE, offer_context(request, seat, TakeSeatForm()))


@login_required
@require_POST
def take(request: HttpRequest, seat_token: str) -> HttpResponse:
    seat = seat_offered(token=seat_token)
    if seat is None or seat.match.status != Match.Status.ACTIVE:
        return render(request, TEMPLATE, {"gone": True}, status=404)
    form = TakeSeatForm(request.POST)
    if not form.is_valid():
        return _refused(request, seat, form, form.errors["confirm"][0], 400)
    try:
        taken = seat_take(token=seat_token, user=request.user)
    except ServiceError as error:
        return _refused(request, seat, form, error.message, status_for(error))
    messages.success(request, gettext("You are in command of seat %(seat)s now. Good luck!")
                     % {"seat": taken.number})
    return redirect_to(request, match_url(taken.match))


def _refused(request: HttpRequest, seat: Seat, form: TakeSeatForm, message: str,
             status: int) -> HttpResponse:
    if request.htmx:
        return render(request, "partials/error.html", {"error": message}, status=status)
    context = offer_context(request, seat, form)
    context["error"] = message
    return render(request, TEMPLATE, context, status=status)


def offer_context(request: HttpRequest, seat: Seat, form: TakeSeatForm) -> dict[str, Any]:
    """What a candidate sees: the seat, the match's terms and players, and the board and the
    latest phases exactly as a spectator sees them (``view(state, None)``: no hidden side of
    the seat, no sheet it has sealed)."""
    match = Match.objects.get(pk=seat.match_id)
    game = engine.games().get(match.game)
    plugin = plugins.plugin_for(match.game)
    seats = selectors.match_seats(match)
    user = request.user
    seated = user.is_authenticated and any(s.user_id == user.pk for s in seats)
    # Who held a seat of the match before knows its secrets: never offered another.
    held = user.is_authenticated and not seated and held_before(match=match, user=user,
                                                                seat_number=seat.number)
    return {
        "match": match, "seat": seat, "game_name": game.name if game else match.game,
        "seat_name": plugin.seat_name(seat.number),
        "seats": [{"seat": s, "name": plugin.seat_name(s.number)}
                  for s in seats],
        "board": plugin.board_html(match, match.state, None)
        if game is not None and match.state is not None else "",
        "history": history_entries(match, latest=HISTORY_SHOWN),
        "form": form, "seated": seated, "held_before": held, "token": seat.offer_token,
    }
