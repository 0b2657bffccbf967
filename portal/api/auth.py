"""Token authentication and the per-token rate limit of the API."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.security import HttpBearer
from ninja.throttling import AuthRateThrottle

from portal.api.models import ApiToken
from portal.api.services import api_token_check


class TokenAuth(HttpBearer):
    """``Authorization: Bearer tp_…``: a live token of an active user."""

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        row = api_token_check(token=token)
        if row is not None:
            request.user = row.user
        return row


class TokenRateThrottle(AuthRateThrottle):
    """At most ``settings.API_RATE_LIMIT`` requests per token (counted in the shared cache),
    read at each request so that the setting can change without a restart."""

    def __init__(self) -> None:
        super().__init__(settings.API_RATE_LIMIT)

    def allow_request(self, request: Any) -> bool:
        self.rate = settings.API_RATE_LIMIT
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request)
