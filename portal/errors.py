"""Site-wide error pages: a whole page for a browser, a small fragment for an HTMX request."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

MESSAGES = {
    400: _("That request was not understood."),
    403: _("You are not allowed to do that."),
    404: _("There is nothing here."),
    429: _("Too many attempts from here: wait a few minutes and try again."),
}
# Refusals of Django's own that carry a message in English whatever the reader's language:
# the page says ours instead.
DJANGO_DETAILS = ("The requested admin page does not exist.",)


def _error(request: HttpRequest, status: int, exception: Exception | None) -> HttpResponse:
    # Our own refusals carry a message meant for the player; Django's internal ones do not.
    detail = str(exception) if exception is not None and exception.args else ""
    if (detail.startswith(("Resolver404", "{'")) or "\n" in detail or len(detail) > 200
            or detail in DJANGO_DETAILS):
        detail = ""
    context = {"status": status, "error": detail or MESSAGES[status]}
    if getattr(request, "htmx", False):
        return render(request, "partials/error.html", context, status=status)
    return render(request, "error.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error(request, 400, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error(request, 403, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error(request, 404, exception)


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Log-in and sign-up throttling (django-allauth's rate limits) answer with this."""
    return _error(request, 429, None)
