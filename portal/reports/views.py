"""The report button's endpoint (match page and profile): parse, file, go back."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games.services import ServiceError
from games.views.access import status_for
from portal.reports.services import report_file


class ReportForm(forms.Form):
    match = forms.IntegerField(label=_("Match"), required=False, min_value=1)
    username = forms.CharField(required=False, max_length=150,
                               label=_("Player (user name)"))
    reason = forms.CharField(label=_("What is wrong?"),
                             widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)
    next = forms.CharField(label=_("Page to go back to"), required=False, max_length=500)


@login_required
@require_POST
def report(request: HttpRequest) -> HttpResponse:
    form = ReportForm(request.POST)
    if not form.is_valid():
        return _refused(request, form, "; ".join(
            f"{form.fields[field].label}: {' '.join(errors)}" if field in form.fields
            else " ".join(errors) for field, errors in form.errors.items()), 400)
    data = form.cleaned_data
    reported = None
    if data["username"].strip():
        reported = get_user_model().objects.filter(username=data["username"].strip()).first()
        if reported is None:
            return _refused(request, form, _("There is no player “%(name)s”.") % {
                "name": data["username"].strip()}, 400)
    try:
        report_file(reporter=request.user, reason=data["reason"], match_id=data["match"],
                    reported_user=reported)
    except ServiceError as error:
        return _refused(request, form, error.message, status_for(error))
    messages.success(request, _("Thank you: the moderators will look at your report."))
    target = data["next"]
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target or "/")


def _refused(request: HttpRequest, form: ReportForm, error: str, status: int) -> HttpResponse:
    return render(request, "reports/refused.html", {"form": form, "error": error},
                  status=status)
