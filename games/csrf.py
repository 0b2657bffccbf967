"""The request's CSRF token, masked once per request.

Django's ``get_token`` masks the secret anew on every call (64 random choices), and every
rendering asks for it: the page's Django templates once, each Jinja2 part rendered into it
(the messages panel, the seats) once more. One response may carry the same masked token in
all its forms: the masking differs from one response to the next, which is what it is for.
The token is made again if the secret changed during the request (``rotate_token`` at
log-in), so that a page rendered after it never carries the old one."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html


def token(request: HttpRequest) -> str:
    """The request's masked CSRF token (``get_token``'s, made once while the secret stands)."""
    kept = getattr(request, "_csrf_masked", None)
    if kept is not None and kept[0] == request.META.get("CSRF_COOKIE"):
        return kept[1]
    masked = get_token(request)
    request._csrf_masked = (request.META.get("CSRF_COOKIE"), masked)  # type: ignore[attr-defined]
    return masked


def field(request: HttpRequest) -> str:
    """The hidden input of a form, as Django's ``csrf_input``."""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">',
                       token(request))


def once(request: HttpRequest) -> dict[str, Any]:
    """Context processor (both engines; after Django's own, which it replaces): the token,
    and for Jinja2 the field, made when a template first asks and once per request."""
    return {"csrf_token": SimpleLazyObject(lambda: token(request)),
            "csrf_input": SimpleLazyObject(lambda: field(request))}
