"""The report buttons' endpoints: the form of the match page and the profile (parse, file, go
back), and a message's button in the match's messages panel (file, show the panel again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games.services import ServiceError
from games.views.access import match_visible_or_404, status_for
from portal.chat.services import message_readable
from portal.chat.views import acted, message_number
from portal.reports.services import message_report, report_file


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


@login_required
@require_POST
def report_message(request: HttpRequest, match_id: int, message_id: Any) -> HttpResponse:
    """Report a message one reads in the match's messages panel; the panel again, with thanks."""
    match = match_visible_or_404(request, match_id)
    key = request.POST.get("channel", "")
    try:
        message, _reader = message_readable(message_id=message_number(message_id),
                                            user=request.user)
        if message.match_id != match.pk:
            raise ServiceError("not_found", gettext("There is no such message."))
        message_report(message_id=message.pk, reporter=request.user,
                       reason=request.POST.get("reason", ""))
    except ServiceError as error:
        return acted(request, match, key, error=error.message, status=status_for(error))
    return acted(request, match, key, notice=gettext(
        "Thank you: the moderators will read the message you reported."))
