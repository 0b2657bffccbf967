"""Submitting a sealed order sheet on the web, and reading back one's own sheet."""

from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from engine import PhaseKind
from games.forms import OrdersForm
from games.models import Match, Submission
from games.services import ServiceError, sheet_submit
from games.views.access import match_url, match_visible_or_404, redirect_to, status_for
from games.views.match import match_page_context, match_template
from games.words import problem_line


@login_required
@require_POST
def orders(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    form = OrdersForm(request.POST)
    if not form.is_valid():
        return _orders_page(request, match, form, status=400)
    cleaned = form.cleaned_data
    as_text = cleaned["format"] == OrdersForm.Format.TEXT
    try:
        receipt = sheet_submit(
            match_id=match.pk,
            seat_number=seat_number,
            user=request.user,
            phase_number=cleaned["phase_number"],
            data=None if as_text else cleaned["data"],
            text=cleaned["orders"] if as_text else None,
            source=Submission.Source.WEB,
        )
    except ServiceError as error:
        match.refresh_from_db()
        if error.code == "stale_phase":
            # Keep the text, but for the phase now open: sending it again is a deliberate act.
            form = OrdersForm({**request.POST.dict(), "phase_number": match.phase_number})
            form.is_valid()
        if error.problems:
            for problem in error.problems:
                form.add_error("orders", problem_line(problem))
        else:
            form.add_error(None, error.message)
        return _orders_page(request, match, form, status=status_for(error))
    # (the receipt is on the panel, folded: shown on demand, not with every seal)
    note = (_("Orders sealed (revision %(revision)s).")
            if match.phase_kind == PhaseKind.SIMULTANEOUS.value
            else _("Orders received (revision %(revision)s).")) % {"revision": receipt.revision}
    match.refresh_from_db()
    if request.htmx:
        context = match_page_context(request, match)
        # (its warnings as the player reads them, in the player's language)
        context.update(just_sealed=replace(receipt, warnings=[
            problem_line(warning) for warning in receipt.warnings]), notice=note)
        return render(request, "games/partials/orders.html", context)
    messages.success(request, note)
    for warning in receipt.warnings:
        messages.warning(request, _("Check: %(warning)s") % {"warning": problem_line(warning)})
    return redirect_to(request, match_url(match))


@login_required
def my_sheet(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """The order panel of one's own seat (sealed sheet, receipt, form); 403 for anyone else."""
    match = match_visible_or_404(request, match_id)
    context = match_page_context(request, match)
    seat = context["my_seat"]
    if seat is None or seat.number != seat_number:
        raise PermissionDenied(_("That is not your seat."))
    return render(request, "games/partials/orders.html", context)


def _orders_page(request: HttpRequest, match: Match, form: OrdersForm, status: int) -> HttpResponse:
    """The refused form again: the order panel for HTMX, else the whole match page."""
    context = match_page_context(request, match, orders_form=form)
    if not request.htmx:
        return render(request, match_template(match), context, status=status)
    if not context.get("must_act"):  # no order panel of one's own to re-draw
        errors = [str(e) for e in form.non_field_errors()] or [_("These orders were refused.")]
        return render(request, "partials/error.html", {"error": " ".join(errors)}, status=status)
    return render(request, "games/partials/orders.html", context, status=status)
