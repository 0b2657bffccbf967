from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from portal.feeds.services import calendar_feed, calendar_regenerate, calendar_user


def feed(request: HttpRequest, token: str) -> HttpResponse:
    """The user's iCalendar feed; the secret in the URL is the only credential."""
    user = calendar_user(token=token)
    if user is None:
        raise Http404(_("No such calendar."))
    response = HttpResponse(calendar_feed(user=user), content_type="text/calendar; charset=utf-8")
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_POST
def regenerate(request: HttpRequest) -> HttpResponse:
    calendar_regenerate(user=request.user)
    messages.success(request, _("Your calendar has a new secret address; the old one no "
                                "longer works."))
    return redirect("accounts_profile")
