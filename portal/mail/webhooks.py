"""django-anymail's ESP webhooks, mounted so that strangers' requests never fail the server.

anymail mounts a webhook for every ESP it knows. One that is not set up here raises a
configuration error on every request, and a payload that is not what the ESP sends (junk JSON,
a missing key) fails in its parser: both were 500s for anyone on the internet. Here the first
answers 404 and the second 400 (``AnymailWebhookValidationFailure``). Only the parsing is
guarded: an error in our own receivers (after parsing) stays a 5xx, so the ESP retries.
"""

from __future__ import annotations

import logging
from functools import wraps
from typing import Any

from anymail import urls as anymail_urls
from anymail.exceptions import AnymailConfigurationError, AnymailWebhookValidationFailure
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern

logger = logging.getLogger(__name__)

# What a parser raises on a payload of the wrong shape.
UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError)


def _guarded_view(callback: Any) -> Any:
    base = callback.view_class

    class Guarded(base):  # type: ignore[misc, valid-type]
        def parse_events(self, request: HttpRequest) -> Any:
            try:
                return super().parse_events(request)
            except UNREADABLE as error:
                raise AnymailWebhookValidationFailure(
                    f"This is not a {self.esp_name} webhook payload.") from error

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    view = Guarded.as_view(**callback.view_initkwargs)

    @wraps(view)
    def webhook(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except AnymailConfigurationError as error:
            logger.warning("Webhook of an ESP that is not set up here: %s", error)
            raise Http404("This site takes no webhooks from that mail service.") from None

    return webhook


urlpatterns = [
    URLPattern(p.pattern, _guarded_view(p.callback), p.default_args, p.name)
    for p in anymail_urls.urlpatterns
]
app_name = anymail_urls.app_name
