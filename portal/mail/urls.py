"""/mail/: the ESP webhooks (django-anymail: inbound, and tracking for bounces and complaints),
one-click unsubscribe links, and the failing-address banner's button.

Received messages arrive through anymail's ``inbound`` signal (see receivers.py). The webhooks
answer 404 while settings.INBOUND_WEBHOOKS is off (checks.py: with DEBUG off they must be off
or authenticated)."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, include, path

from portal.mail import bounces, unsubscribe, webhooks


def webhook_switch(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view``, answering 404 while the ESP webhooks are turned off."""

    @wraps(view)  # keeps anymail's csrf_exempt
    def switched(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.INBOUND_WEBHOOKS:
            raise Http404("The ESP webhooks are turned off (INBOUND_WEBHOOKS).")
        return view(request, *args, **kwargs)

    return switched


# anymail's webhooks, guarded against strangers' junk (webhooks.py), behind the switch.
anymail_patterns = [
    URLPattern(p.pattern, webhook_switch(p.callback), p.default_args, p.name)
    for p in webhooks.urlpatterns
]

urlpatterns = [
    path("anymail/", include((anymail_patterns, webhooks.app_name))),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="mail_unsubscribe"),
    path("address/resume/", bounces.resume, name="mail_address_resume"),
    path("resubscribe/<str:kind>/", unsubscribe.resubscribe, name="mail_resubscribe"),
]
