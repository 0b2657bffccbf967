"""A player's page: their record, ratings, reliability, current matches, clubs, and what
other apps add (``portal.players.sections``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.services import ServiceError
from games.views.access import status_for
from portal.players import selectors
from portal.players.sections import sections
from portal.players.services import page_privacy_set


def player(request: HttpRequest, username: str) -> HttpResponse:
    found = selectors.player_by_username(username)
    if found is None:
        raise Http404(_("There is no player “%(name)s”.") % {"name": username[:150]})
    reader = selectors.page_reader(player=found, viewer=request.user)
    if not selectors.page_open_to(reader):
        return render(request, "players/closed.html", {"player": found}, status=403)
    parts = []
    for section in sections():
        context = section.context(reader)
        if context is not None:
            parts.append({"key": section.key, "template": section.template,
                          "context": context})
    return render(request, "players/page.html", {
        "page": selectors.player_page(reader), "player": found, "sections": parts,
        "own": reader.viewer is not None and reader.viewer.pk == found.pk,
        "members_only": selectors.members_only(found),
        "privacy_form": PrivacyForm(initial={"members_only": selectors.members_only(found)}),
    })


class PrivacyForm(forms.Form):
    members_only = forms.BooleanField(
        required=False, label=gettext_lazy("Show my page only to members of my clubs"),
        help_text=gettext_lazy("Moderators can always read it."))


@login_required
@require_POST
def privacy(request: HttpRequest) -> HttpResponse:
    form = PrivacyForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Say yes or no."), status=400)
    try:
        page_privacy_set(user=request.user, members_only=form.cleaned_data["members_only"])
    except ServiceError as error:
        return HttpResponse(error.message, status=status_for(error))
    messages.success(request, _("Your choice is saved."))
    return redirect(reverse("players:page", args=[request.user.get_username()]) + "#privacy")
