"""Requests carrying a NUL character are refused at the edge, before any view runs.

No page, form or API field of this site has a use for NUL, and PostgreSQL cannot store it in
text (it raises DataError): refused here, it is one clear 400 instead of a failure wherever the
value happens to reach the database. Looked at: the path, the query string, form fields (names
and values; not uploaded files' contents) and JSON bodies (raw, or written as ``\\u0000``).
"""

from __future__ import annotations

import json
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

NUL = "\x00"


def _in_querydict(data: QueryDict) -> bool:
    return any(NUL in key or any(NUL in value for value in values)
               for key, values in data.lists())


def _in_json(value: Any) -> bool:
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(NUL in key or _in_json(item) for key, item in value.items())
    if isinstance(value, list):
        return any(_in_json(item) for item in value)
    return False


def _body_small_enough(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit is None or length <= limit


def request_has_nul(request: HttpRequest) -> bool:
    """True if the path, query string, form fields or JSON body hold a NUL character."""
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
        return False  # the view's own read refuses it (RequestDataTooBig)
    # Any other body is JSON (django-ninja reads it as JSON whatever its declared type).
    body = request.body
    if b"\x00" in body:
        return True
    if b"\\u0000" not in body:
        return False
    try:
        return _in_json(json.loads(body))
    except ValueError:
        return False  # not JSON: the view says so


def _refusal(request: HttpRequest, message: str) -> HttpResponse:
    """A 400 in the shape the client reads: the API's error object for JSON, else text."""
    wants_json = (request.content_type == "application/json"
                  or "application/json" in request.headers.get("Accept", "")
                  or request.path_info.startswith("/api/"))
    if wants_json:
        return JsonResponse({"code": "invalid", "message": message, "problems": []}, status=400)
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


class RefuseNulMiddleware:
    """Answer 400 with a sentence to any request holding a NUL character (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            refused = request_has_nul(request)
        except MultiPartParserError:
            return _refusal(request, _("The form's data could not be read."))
        if refused:
            return _refusal(request, _(
                "This request contains a NUL character (\\0 or %00), which no address, form "
                "field or API field of this site accepts. Remove it and try again."))
        return self.get_response(request)
