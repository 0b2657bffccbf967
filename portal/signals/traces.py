"""Recording a login's or a submission's network and device (``ClientTrace``), and deleting
the rows past their retention.

The network is the client's address cut to its /24 (IPv4) or /48 (IPv6): enough to tell that
two accounts play from one home or office, not which machine. The device is a random id kept
in a long-lived cookie (``DEVICE_COOKIE``), made on the first login or submission of a
browser; it holds nothing else and says nothing about the browser. Nothing more is recorded
(no full address, no browser name, no fingerprint).
"""

from __future__ import annotations

import contextvars
import ipaddress
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest
from django.utils import timezone

from portal.signals.models import ClientTrace

DEVICE_COOKIE = "tp_device"
DEVICE_COOKIE_DAYS = 400  # the longest a browser keeps a cookie (Chrome caps at 400 days)
_NEW_DEVICE = "_trace_new_device"

# The request being served (set by ClientTraceMiddleware): a submission's receiver reads its
# network and device here; a submission outside a request (e-mail, a bot, a worker) has none.
current_request: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar(
    "current_request", default=None)


def retention() -> timedelta:
    return timedelta(days=settings.TRACE_RETENTION_DAYS)


def network_of(address: str | None) -> str:
    """``"203.0.113.7"`` → ``"203.0.113.0/24"``; IPv6 → its /48; "" for no or a bad address."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 48
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def client_network(request: HttpRequest) -> str:
    from allauth.account.adapter import get_adapter

    try:  # (X-Forwarded-For only behind TRUSTED_PROXY_COUNT proxies, as for log-in limits)
        return network_of(get_adapter(request).get_client_ip(request))
    except (PermissionDenied, ImproperlyConfigured):
        return ""


def device_of(request: HttpRequest) -> str:
    """The browser's device id; a new one (set on the response by the middleware) if none."""
    known = request.COOKIES.get(DEVICE_COOKIE, "")
    if len(known) == 32 and all(c in "0123456789abcdef" for c in known):
        return known
    new = getattr(request, _NEW_DEVICE, "")
    if not new:
        new = secrets.token_hex(16)
        setattr(request, _NEW_DEVICE, new)
    return new


def new_device(request: HttpRequest) -> str:
    """The device id made during this request ("" if none): the cookie to set."""
    return getattr(request, _NEW_DEVICE, "")


def trace_record(*, request: HttpRequest, user: Any, kind: str, match_id: int | None = None
                 ) -> ClientTrace | None:
    """Record one login or submission of ``user`` from ``request`` (None without an address:
    a request made inside the server)."""
    if user is None or not user.is_authenticated:
        return None
    network = client_network(request)
    if not network:
        return None
    return ClientTrace.objects.create(user_id=user.pk, kind=kind, network=network,
                                      device=device_of(request), match_id=match_id,
                                      at=timezone.now())


def traces_prune(*, now: Any = None) -> int:
    """Delete the traces older than the retention (beat, daily); the number deleted."""
    cutoff = (now or timezone.now()) - retention()
    deleted, _by_model = ClientTrace.objects.filter(at__lt=cutoff).delete()
    return deleted
