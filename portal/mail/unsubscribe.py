"""One-click unsubscribe (RFC 8058): every notification carries ``List-Unsubscribe`` (a signed
link for that user and kind of mail) and ``List-Unsubscribe-Post``; a POST to the link turns
that kind of mail off for the user (a ``MailOptOut`` row). A GET only shows a button: link
checkers and mail scanners fetch links, and must not unsubscribe anybody."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from portal.mail.models import MailOptOut, OutgoingEmail

SALT = "portal.mail.unsubscribe"
# Every kind but the answers to a player's own doing (a mailed sheet, taking leave) can be
# turned off.
NOTIFICATIONS = {kind for kind in OutgoingEmail.Kind.values
                 if kind not in (OutgoingEmail.Kind.REPLY, OutgoingEmail.Kind.LEAVE)}


@lru_cache(maxsize=4)
def _signer(secret: str) -> signing.Signer:
    return signing.Signer(key=secret, salt=SALT, sep=".")


@lru_cache(maxsize=4)
def _url_pattern(site: str) -> str:
    return site + reverse("mail_unsubscribe", args=["TOKEN"])


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return _signer(settings.SECRET_KEY).sign(f"{user_id}-{kind}")


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    """The link for one user and kind (built for every mail sent: the pattern is cached)."""
    token = unsubscribe_token(user_id=user_id, kind=kind)
    return _url_pattern(settings.SITE_URL).replace("TOKEN", token)


def unsubscribe_headers(row: OutgoingEmail) -> dict[str, str]:
    """The RFC 8058 headers of an outbox row (none for answers to a player's mail)."""
    if row.user_id is None or row.kind not in NOTIFICATIONS:
        return {}
    url = unsubscribe_url(user_id=row.user_id, kind=row.kind)
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def mail_opt_out(*, user_id: int, kind: str) -> bool:
    """Turn mail ``kind`` off for the user; False if it was off already."""
    _, created = MailOptOut.objects.get_or_create(user_id=user_id, kind=kind)
    return created


def _read(token: str) -> tuple[int, str] | None:
    try:
        value = _signer(settings.SECRET_KEY).unsign(token)
        user_id, kind = value.split("-", 1)
        return (int(user_id), kind) if kind in NOTIFICATIONS else None
    except (signing.BadSignature, ValueError):
        return None


@csrf_exempt  # mail providers POST "List-Unsubscribe=One-Click" without a session or token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    target = _read(token)
    from django.contrib.auth import get_user_model

    if target is None or not get_user_model().objects.filter(pk=target[0]).exists():
        return render(request, "mail/unsubscribe.html", {"invalid": True}, status=400)
    user_id, kind = target
    context: dict[str, Any] = {"kind": OutgoingEmail.Kind(kind).label, "token": token}
    if request.method == "POST":
        mail_opt_out(user_id=user_id, kind=kind)
        context["done"] = True
    return render(request, "mail/unsubscribe.html", context)


def mail_opt_in(*, user_id: int, kind: str) -> bool:
    """Turn mail ``kind`` back on for the user; False if it was on."""
    deleted, _ = MailOptOut.objects.filter(user_id=user_id, kind=kind).delete()
    return bool(deleted)


def opted_out(user: Any) -> list[dict[str, str]]:
    """The kinds of mail ``user`` turned off, for the profile page."""
    kinds = MailOptOut.objects.filter(user=user).values_list("kind", flat=True)
    return [{"kind": kind, "label": OutgoingEmail.Kind(kind).label} for kind in sorted(kinds)]


@login_required
@require_POST
def resubscribe(request: HttpRequest, kind: str) -> HttpResponse:
    """The profile page's "turn back on" button."""
    if kind in NOTIFICATIONS:
        mail_opt_in(user_id=request.user.pk, kind=kind)
    return redirect("accounts_profile")
