"""The player's side of the signals: declaring a relationship with another player (or
withdrawing it), and downloading what the site keeps about them (a JSON export)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.services import ServiceError
from games.views.access import status_for
from portal.signals.export import personal_data
from portal.signals.models import Relationship
from portal.signals.services import relationship_declare, relationship_withdraw

BACK = "relationships"


class RelationshipForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Player (user name)"), max_length=150)
    kind = forms.ChoiceField(label=gettext_lazy("Relationship"),
                             choices=Relationship.Kind.choices)


def _back() -> HttpResponse:
    return redirect(reverse("accounts_profile") + f"#{BACK}")


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "signals/refused.html", {"error": message}, status=status)


@login_required
@require_POST
def declare(request: HttpRequest) -> HttpResponse:
    form = RelationshipForm(request.POST)
    if not form.is_valid():
        return _refused(request, "; ".join(
            f"{form.fields[name].label}: {' '.join(errors)}" if name in form.fields
            else " ".join(errors) for name, errors in form.errors.items()), 400)
    try:
        relationship_declare(by=request.user, username=form.cleaned_data["username"],
                             kind=form.cleaned_data["kind"])
    except ServiceError as error:
        return _refused(request, error.message, status_for(error))
    messages.success(request, _("Relationship declared."))
    return _back()


@login_required
@require_POST
def withdraw(request: HttpRequest, relationship_id: int) -> HttpResponse:
    try:
        relationship_withdraw(by=request.user, relationship_id=relationship_id)
    except ServiceError as error:
        return _refused(request, error.message, status_for(error))
    messages.success(request, _("Relationship withdrawn."))
    return _back()


@login_required
@require_GET
def export(request: HttpRequest) -> HttpResponse:
    response = JsonResponse(personal_data(user=request.user),
                            json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = (
        f'attachment; filename="tank-portal-{request.user.pk}.json"')
    response["Cache-Control"] = "no-store"
    return response


def privacy(request: HttpRequest) -> HttpResponse:
    """What the site records, why and for how long (templates/privacy.html)."""
    from django.conf import settings

    return render(request, "privacy.html", {"trace_days": settings.TRACE_RETENTION_DAYS})
