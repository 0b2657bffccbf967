"""One-click unsubscribe (RFC 8058): every notification carries ``List-Unsubscribe`` (a signed
link for that user and the event the mail is about) and ``List-Unsubscribe-Post``; a POST to
the link turns that event's mail off in the user's notification choices (their profile's table
shows it, and turns it back on). A GET only shows a button: link checkers and mail scanners
fetch links, and must not unsubscribe anybody."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from portal.accounts.models import Event
from portal.accounts.notifications import DIGESTED, mail_set
from portal.mail.models import OutgoingEmail

SALT = "portal.mail.unsubscribe"
Kind = OutgoingEmail.Kind
# A link names what it stops: an event, or the digest (every digested event's mail). Links in
# mails sent before the per-event choices name a kind of mail: "phase_opened" stopped the
# gamedays' mails too, "competition" the tournaments'.
TARGETS: dict[str, frozenset[str]] = {
    **{event: frozenset({event}) for event in Event.values},
    "digest": DIGESTED,
    Kind.PHASE_OPENED: frozenset({Event.YOUR_MOVE, Event.GAMEDAY}),
    Kind.COMPETITION: frozenset({Event.ROUND_STARTED}),
}
# The event of each kind of notification; the answers to a player's own doing (a mailed sheet,
# taking leave) carry no link.
EVENT_OF_KIND = {Kind.PHASE_OPENED: Event.YOUR_MOVE, Kind.REMINDER: Event.REMINDER,
                 Kind.PHASE_RESOLVED: Event.PHASE_RESOLVED, Kind.MATCH_ENDED: Event.MATCH_ENDED,
                 Kind.DIGEST: "digest", Kind.COMPETITION: Event.ROUND_STARTED,
                 Kind.VOTE: Event.VOTE, Kind.SEAT: Event.SEAT, Kind.MESSAGE: Event.MESSAGE}
NOTIFICATIONS = set(EVENT_OF_KIND)


LABELS = {"digest": _("Daily digest"), Kind.PHASE_OPENED: _("Your move and gamedays"),
          Kind.COMPETITION: Event.ROUND_STARTED.label}


def target_label(target: str) -> str:
    return str(LABELS.get(target) or Event(target).label)


def target_of(row: OutgoingEmail) -> str:
    """What a mail's link stops: its event (a gameday's mail is a "phase opened" one)."""
    if row.kind == Kind.PHASE_OPENED and row.dedupe_key.startswith("gameday:"):
        return Event.GAMEDAY
    return EVENT_OF_KIND[row.kind]


@lru_cache(maxsize=4)
def _signer(secret: str) -> signing.Signer:
    return signing.Signer(key=secret, salt=SALT, sep=".")


@lru_cache(maxsize=4)
def _url_pattern(site: str) -> str:
    return site + reverse("mail_unsubscribe", args=["TOKEN"])


def unsubscribe_token(*, user_id: int, target: str) -> str:
    return _signer(settings.SECRET_KEY).sign(f"{user_id}-{target}")


def unsubscribe_url(*, user_id: int, target: str) -> str:
    """The link for one user and target (built for every mail sent: the pattern is cached)."""
    token = unsubscribe_token(user_id=user_id, target=target)
    return _url_pattern(settings.SITE_URL).replace("TOKEN", token)


def unsubscribe_headers(row: OutgoingEmail) -> dict[str, str]:
    """The RFC 8058 headers of an outbox row (none for answers to a player's mail)."""
    if row.user_id is None or row.kind not in NOTIFICATIONS:
        return {}
    url = unsubscribe_url(user_id=row.user_id, target=target_of(row))
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def mail_opt_out(*, user_id: int, target: str) -> bool:
    """Turn the mail of ``target``'s events off for the user; False if it was off already."""
    return mail_set(user_id=user_id, events=TARGETS[target], on=False)


def _read(token: str) -> tuple[int, str] | None:
    try:
        value = _signer(settings.SECRET_KEY).unsign(token)
        user_id, target = value.split("-", 1)
        return (int(user_id), target) if target in TARGETS else None
    except (signing.BadSignature, ValueError):
        return None


@csrf_exempt  # mail providers POST "List-Unsubscribe=One-Click" without a session or token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    target = _read(token)
    from django.contrib.auth import get_user_model

    if target is None or not get_user_model().objects.filter(pk=target[0]).exists():
        return render(request, "mail/unsubscribe.html", {"invalid": True}, status=400)
    user_id, name = target
    context: dict[str, Any] = {"kind": target_label(name), "token": token, "target": name}
    if request.method == "POST":
        mail_opt_out(user_id=user_id, target=name)
        # The undo button, for the player signed in here (others use their profile).
        context.update(done=True, mine=request.user.is_authenticated
                       and request.user.pk == user_id)
    return render(request, "mail/unsubscribe.html", context)


@login_required
@require_POST
def resubscribe(request: HttpRequest, kind: str) -> HttpResponse:
    """Turn a target's mail back on (``kind``: an event, or "digest")."""
    if kind in TARGETS:
        mail_set(user_id=request.user.pk, events=TARGETS[kind], on=True)
    return redirect("accounts_profile")
