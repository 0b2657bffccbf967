"""Delivery failures: a delivery report (DSN, RFC 3464) that says an address failed for good,
or anymail's bounce / complaint / reject webhook, marks the address as failing
(``FailingAddress``). Nothing more is sent to it (the outbox fails such rows at once, and
notifications skip it), and its player sees a banner on the site until they say it works again
or change it."""

from __future__ import annotations

import base64
import logging
import re
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Any

from anymail.signals import tracking
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from games.prepared import Prepared
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


# (asked by every page's banner: compiled once per connection)
_FAILING = Prepared(FailingAddress, lambda address: FailingAddress.objects.filter(
    address=address).order_by("pk")[:1], server_side=True, address="text")


def failing_among(addresses: set[str]) -> set[str]:
    """Which of these (lower-case) addresses are failing, in one query (the accounts ask:
    ``portal.accounts.notifications.failing_lookup_register``)."""
    return set(FailingAddress.objects.filter(address__in=addresses)
               .values_list("address", flat=True))


def failing_address_of(user: Any) -> FailingAddress | None:
    if not getattr(user, "is_authenticated", False) or not user.email:
        return None
    return next(iter(_FAILING(address=user.email.strip().lower())), None)


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


# Our Message-IDs: ``<outbox-<row id>.<mac>@<MAIL_REPLY_DOMAIN>>``; the mac (an HMAC of the row
# id and the recipient) makes the reference unforgeable: ids are sequential, and a report that
# listed every id would otherwise name a mail to anyone.
_OUTBOX_ID = re.compile(r"<outbox-(\d{1,18})\.([a-z2-7]{24})@", re.IGNORECASE)
MESSAGE_ID_SALT = "portal.mail.message-id"


def _reference_mac(email_id: int, to: str) -> str:
    digest = salted_hmac(MESSAGE_ID_SALT, f"{email_id}:{to.strip().lower()}",
                         algorithm="sha256").digest()[:15]
    return base64.b32encode(digest).decode().lower()


def outbox_message_id(*, email_id: int, to: str) -> str:
    """The Message-ID of outbox row ``email_id``, sent to ``to``."""
    return f"<outbox-{email_id}.{_reference_mac(email_id, to)}@{settings.MAIL_REPLY_DOMAIN}>"


def _returned_references(message: EmailMessage) -> set[tuple[int, str]]:
    """(outbox row id, mac) of every Message-ID of ours the report returns (in its copy of the
    original headers or message)."""
    found: set[tuple[int, str]] = set()
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
        found |= {(int(pk), mac.lower()) for pk, mac in _OUTBOX_ID.findall(text)}
    return found


def dsn_record(message: EmailMessage) -> list[str] | None:
    """Mark every address a delivery report gives up on; None if it is not one.

    Only a report about a mail we sent to that very address counts: it must return that mail's
    Message-ID, whose mac proves we made it for that recipient, and the outbox row must have
    gone to the address the report says failed. Anybody can write a delivery report, and a
    forged one must not stop another player's mail."""
    failures = dsn_failures(message)
    if failures is None:
        return None
    from portal.mail.models import OutgoingEmail

    references = _returned_references(message)
    rows = dict(OutgoingEmail.objects.filter(
        pk__in={pk for pk, _ in references}).values_list("pk", "to"))
    marked = []
    for address, diagnosis in failures:
        address = address.strip().lower()
        ours = any(constant_time_compare(mac, _reference_mac(pk, address))
                   and rows.get(pk, "").strip().lower() == address for pk, mac in references)
        if not ours:
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
    """Context processor: ``mail_failing`` (the user's failing address row) for the banner,
    read only if the template asks (the page's banner does; a partial never does), once."""
    found: list[FailingAddress | None] = []

    def failing() -> FailingAddress | None:
        if not found:
            found.append(failing_address_of(getattr(request, "user", None)))
        return found[0]

    return {"mail_failing": failing}


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
