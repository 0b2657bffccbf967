"""Makes the request reachable from the submission receivers (``traces.current_request``)
and sets the device cookie a login or a submission made."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from portal.signals.traces import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_DAYS,
    current_request,
    new_device,
)


class ClientTraceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = current_request.set(request)
        try:
            response = self.get_response(request)
        finally:
            current_request.reset(token)
        device = new_device(request)
        if device:
            response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_COOKIE_DAYS * 86400,
                                httponly=True, samesite="Lax",
                                secure=settings.SESSION_COOKIE_SECURE)
        return response
