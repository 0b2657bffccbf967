"""Requests carrying a NUL character, or a JSON body past the site's bounds, are refused at the
edge, before any view runs.

No page, form or API field of this site has a use for NUL, and PostgreSQL cannot store it in
text (it raises DataError): refused here, it is one clear 400 instead of a failure wherever the
value happens to reach the database. Looked at: the path, the query string, form fields (names
and values; not uploaded files' contents) and JSON bodies (raw, or written as ``\\u0000``).

Any body that is not a form is read as JSON (django-ninja reads it so whatever its declared
type), through ``engine.jsontext.read_json``: one larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``,
nested deeper than ``engine.jsontext.MAX_DEPTH`` or holding a number that is not finite is
refused here with a sentence, on every URL, before CSRF and log-in (a few thousand ``[`` made
every recursive reader of it fail). A body that is not JSON at all is left to the view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
    QueryDict,
)
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _

from engine.jsontext import MAX_DEPTH, JSONLimitError, read_json
from games.words import sentence

NUL = "\x00"


class BodyRefused(Exception):
    """A body refused before any view reads it; ``message`` says why, for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _in_querydict(data: QueryDict) -> bool:
    return any(NUL in key or any(NUL in value for value in values)
               for key, values in data.lists())


def _in_json(value: Any) -> bool:
    """True if a string of ``value`` (a key or a value, at any depth) holds a NUL."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            if any(NUL in key for key in item):
                return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _body_small_enough(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit is None or length <= limit


def request_has_nul(request: HttpRequest) -> bool:
    """True if the path, query string, form fields or JSON body hold a NUL character;
    BodyRefused for a body that is not a form and is too large, or JSON past the bounds."""
    if NUL in request.path_info or NUL in request.META.get("QUERY_STRING", ""):
        return True
    if _in_querydict(request.GET):  # %00 in the query string
        return True
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        if _body_small_enough(request):
            request.body  # noqa: B018  (read first, so a view may still read the raw body)
        return _in_querydict(request.POST)
    if not _body_small_enough(request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raise BodyRefused(_("The request is too large: at most %(size)s bytes are accepted.")
                          % {"size": limit})
    # Any other body is JSON (django-ninja reads it as JSON whatever its declared type).
    body = request.body
    if b"\x00" in body:
        return True
    if not body.strip():
        return False
    try:
        data = read_json(body, max_depth=MAX_DEPTH, max_bytes=len(body))
    except JSONLimitError as error:
        raise BodyRefused(sentence(error.text)) from None
    except ValueError:
        return False  # not JSON: the view says so
    return b"\\u0000" in body and _in_json(data)


def _refusal(request: HttpRequest, message: str) -> HttpResponse:
    """A 400 in the shape the client reads: the API's error object for JSON, else text."""
    wants_json = (request.content_type == "application/json"
                  or "application/json" in request.headers.get("Accept", "")
                  or request.path_info.startswith("/api/"))
    if wants_json:
        return JsonResponse({"code": "invalid", "message": message, "problems": []}, status=400)
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class RefuseNulMiddleware:
    """Answer 400 with a sentence to any request holding a NUL character or a JSON body past
    the bounds (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            refused = request_has_nul(request)
        except MultiPartParserError:
            return _refusal(request, _("The form's data could not be read."))
        except BodyRefused as refusal:
            return _refusal(request, refusal.message)
        if refused:
            return _refusal(request, _(
                "This request contains a NUL character (\\0 or %00), which no address, form "
                "field or API field of this site accepts. Remove it and try again."))
        return self.get_response(request)
