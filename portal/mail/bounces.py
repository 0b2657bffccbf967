"""Delivery failures: a delivery report (DSN, RFC 3464) that says an address failed for good,
or anymail's bounce / complaint / reject webhook, marks the address as failing
(``FailingAddress``). Nothing more is sent to it (the outbox fails such rows at once, and
notifications skip it), and its player sees a banner on the site until they say it works again
or change it."""

from __future__ import annotations

import logging
import re
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Any

from anymail.signals import tracking
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from portal.mail.models import FailingAddress

logger = logging.getLogger(__name__)
Reason = FailingAddress.Reason
# anymail's tracking events that mean "do not send there any more".
ANYMAIL_EVENTS = {"bounced": Reason.BOUNCE, "complained": Reason.COMPLAINT,
                  "rejected": Reason.REJECTED}


def address_failing(*, address: str, reason: str, detail: str = "", source: str = "") -> bool:
    """Mark ``address`` as failing (again). Returns whether it is newly marked."""
    address = address.strip().lower()
    if "@" not in address:
        return False
    row, created = FailingAddress.objects.get_or_create(
        address=address[:254], defaults={"reason": reason, "detail": detail[:2000],
                                         "source": source[:40]})
    if not created:
        FailingAddress.objects.filter(pk=row.pk).update(
            count=F("count") + 1, reason=reason, detail=detail[:2000], source=source[:40])
    logger.info("mail to %s fails (%s, %s)", address, reason, source)
    return created


def address_resume(*, address: str) -> bool:
    """The player says the address works again: send to it again."""
    deleted, _ = FailingAddress.objects.filter(address=address.strip().lower()).delete()
    return bool(deleted)


def failing_address_of(user: Any) -> FailingAddress | None:
    if not getattr(user, "is_authenticated", False) or not user.email:
        return None
    return FailingAddress.objects.filter(address=user.email.strip().lower()).first()


def _field(block: Any, name: str) -> str:
    value = block.get(name)
    return str(value).strip() if value is not None else ""


def dsn_failures(message: EmailMessage) -> list[tuple[str, str]] | None:
    """(address, diagnosis) of each recipient a delivery report says failed for good (status
    5.x.x); None when ``message`` is not a delivery report. Delays (4.x.x) mark nothing."""
    if message.get_content_type() != "multipart/report":
        return None
    failed: list[tuple[str, str]] = []
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        for block in blocks if isinstance(blocks, list) else []:
            recipient = _field(block, "Final-Recipient") or _field(block, "Original-Recipient")
            action, status = _field(block, "Action").lower(), _field(block, "Status")
            if not recipient or action != "failed" or not status.startswith("5"):
                continue
            address = parseaddr(recipient.split(";", 1)[-1].strip())[1]
            diagnosis = _field(block, "Diagnostic-Code") or status
            failed.append((address, f"{status} {diagnosis}".strip()))
    return failed


_OUTBOX_ID = re.compile(r"<outbox-(\d+)@")


def _returned_outbox_ids(message: EmailMessage) -> set[int]:
    """Ids of our outbox rows whose Message-ID the report returns (in its copy of the original
    headers or message)."""
    ids: set[int] = set()
    for part in message.walk():
        kind = part.get_content_type()
        if kind == "text/rfc822-headers":
            payload = part.get_payload(decode=True)
            text = payload.decode("latin-1") if isinstance(payload, bytes) else str(payload)
        elif kind == "message/rfc822":
            inner = part.get_payload()
            text = "".join(str(m.get("Message-ID", "")) for m in
                           (inner if isinstance(inner, list) else [inner]))
        else:
            continue
        ids |= {int(found) for found in _OUTBOX_ID.findall(text)}
    return ids


def dsn_record(message: EmailMessage) -> list[str] | None:
    """Mark every address a delivery report gives up on; None if it is not one.

    Only a report about a mail we sent to that address counts (it returns the original's
    Message-ID, ``<outbox-N@...>``): anybody can write a delivery report, and a forged one must
    not stop another player's mail."""
    failures = dsn_failures(message)
    if failures is None:
        return None
    from portal.mail.models import OutgoingEmail

    sent_to = {to.strip().lower() for to in OutgoingEmail.objects.filter(
        pk__in=_returned_outbox_ids(message)).values_list("to", flat=True)}
    marked = []
    for address, diagnosis in failures:
        if address.strip().lower() not in sent_to:
            logger.info("delivery report about %s names none of our mails to it", address)
            continue
        address_failing(address=address, reason=Reason.BOUNCE, detail=diagnosis, source="dsn")
        marked.append(address)
    return marked


@receiver(tracking, dispatch_uid="mail_anymail_tracking")
def on_anymail_tracking(sender: Any, event: Any, esp_name: str, **kwargs: Any) -> None:
    """An ESP reports a bounce, a spam complaint or a rejection: stop mailing that address."""
    reason = ANYMAIL_EVENTS.get(event.event_type)
    if reason is None or not event.recipient:
        return
    detail = " ".join(str(x) for x in (event.reject_reason, event.description,
                                        event.mta_response) if x)
    address_failing(address=event.recipient, reason=reason, detail=detail,
                    source=f"anymail:{esp_name}")


def failing_banner(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``mail_failing`` (the user's failing address row) for the banner."""
    return {"mail_failing": failing_address_of(getattr(request, "user", None))}


@login_required
@require_POST
def resume(request: HttpRequest) -> HttpResponse:
    """The banner's "it works again" button."""
    address_resume(address=request.user.email)
    # Only a path on this site: neither another site (an open redirect) nor a view's name.
    wanted = request.POST.get("next", "")
    if wanted.startswith("/") and url_has_allowed_host_and_scheme(
            wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return redirect(wanted)
    return redirect("accounts_profile")
