"""Orders by email: store every received message first, then read it and answer it.

``inbound_store`` commits the message as received before anything else happens, with an outbox
row that has a worker process it (``durable.outbox``: done once, even if the process that
received it dies), so a failure later loses nothing (the row keeps the error, and an admin
action processes it again).
``inbound_process`` then checks, in this order: sender, mail loops and delivery reports (stored,
never answered), the receiving server's DKIM / DMARC verdict, the reply token, the hourly cap
per token, size, the seat's player against the token's and the sender, the match and phase,
attachments and charset, the text; and submits the orders through
``games.services.sheet_submit`` like every other channel.

A From header proves nothing, so only a message with a valid reply token (one we mailed) is
ever answered: every refusal of such a message is answered with one clear email and changes
nothing else; accepted orders are answered with the sheet as it counts and its receipt. Without
a valid token the message is stored as refused, with the reason, and not answered (no
backscatter to whoever a forger named). Answers to one address are capped per hour.
"""

from __future__ import annotations

import hashlib
import logging
import traceback
from dataclasses import dataclass, field
from datetime import timedelta
from email.utils import parseaddr
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

import engine
from durable.outbox import outbox_write, task_event
from games import plugins
from games.models import Match, Phase, Seat
from games.plans import is_clear_command, plans_offered
from games.services import ServiceError, plan_clear, sheet_submit
from games.services.errors import Code
from games.words import problem_line
from portal.mail import authresults, bodies, bounces
from portal.mail.models import InboundMessage, OutgoingEmail
from portal.mail.services.notify import language_of, match_url, render
from portal.mail.services.outbox import email_queue
from portal.mail.tokens import (
    BadToken,
    MessageTarget,
    ReplyTarget,
    is_message_token,
    message_token_read,
    token_in_address,
    token_read,
)

logger = logging.getLogger(__name__)
Status = InboundMessage.Status


@dataclass
class Refusal(Exception):
    """Answer the sender with ``reason`` (and ``problems``), change nothing. ``answer=False``:
    store the refusal without answering, even a message with a valid token."""

    code: Code
    reason: str
    problems: list[str] = field(default_factory=list)
    hint: str = ""
    answer: bool = True

    def __post_init__(self) -> None:
        self.code = Code(self.code)  # (the site's one vocabulary: games.services.errors)


@dataclass
class Ignore(Exception):
    """Do not answer at all (loops, no sender, flooding)."""

    code: Code
    reason: str

    def __post_init__(self) -> None:
        self.code = Code(self.code)


def _printable(text: str) -> str:
    """A header value fit for a text column: PostgreSQL stores no NUL character."""
    return text.replace("\x00", "\ufffd")


def fingerprint(*, raw: bytes, sender: str, message_id: str) -> str:
    """What makes a message the same message when it arrives again: its sender and Message-ID,
    or, without a Message-ID, its bytes."""
    if message_id:
        return hashlib.sha256(f"mid\0{sender}\0{message_id}".encode()).hexdigest()
    return hashlib.sha256(b"raw\0" + raw).hexdigest()


def inbound_store(*, raw: bytes, source: str, processed_here: bool = False) -> InboundMessage:
    """Commit the message as received (cut at MAIL_MAX_INBOUND_BYTES) before processing, with
    the outbox row that has a worker process it: at once, or, when the caller processes it
    itself (``processed_here``: the MTA pipe, the maildir), only if it is still waiting
    MAIL_INBOUND_BACKSTOP_SECONDS later (that process died), so that the two never race.

    A message that was stored already (same sender and Message-ID, or same bytes) is not stored
    again: its row is returned (with ``deliveries`` counted up), and processing it is a no-op —
    an MTA retry or a re-posted webhook applies nothing twice."""
    cap = settings.MAIL_MAX_INBOUND_BYTES
    kept = raw[:cap]
    try:
        head = bodies.parse_headers(kept)
        sender = bodies.sender_address(head)
        subject = bodies.header(head, "Subject")
        message_id = "".join(bodies.header(head, "Message-ID").split())
    except Exception:  # headers beyond repair: the processing step will say so
        sender = subject = message_id = ""
    key = fingerprint(raw=raw, sender=sender, message_id=message_id)
    for _attempt in range(2):
        seen = InboundMessage.objects.filter(fingerprint=key).first()
        if seen is not None:
            InboundMessage.objects.filter(pk=seen.pk).update(deliveries=F("deliveries") + 1)
            logger.info("inbound message %s arrived again (%s)", seen.pk, source)
            return seen
        try:
            with transaction.atomic():
                row = InboundMessage.objects.create(
                    source=source, raw=kept, size=len(raw), sender=_printable(sender)[:254],
                    subject=_printable(subject)[:255],
                    message_id=_printable(message_id)[:255], fingerprint=key,
                )
                # (its processing promised with it: a worker does it if nobody here does)
                due = timezone.now() + timedelta(
                    seconds=settings.MAIL_INBOUND_BACKSTOP_SECONDS if processed_here else 0)
                outbox_write([task_event("portal.mail.tasks.inbound_process", due=due,
                                         inbound_id=row.pk)])
                return row
        except IntegrityError:  # the same message, stored by a concurrent delivery just now
            continue
    raise RuntimeError("inbound message could not be stored")  # unreachable in practice


def _own_addresses() -> set[str]:
    return {parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower(),
            parseaddr(settings.SERVER_EMAIL)[1].lower()}


def _user_addresses(user: Any) -> set[str]:
    addresses = {user.email.lower()} if user.email else set()
    try:
        from allauth.account.models import EmailAddress

        addresses |= {e.lower() for e in EmailAddress.objects.filter(
            user=user, verified=True).values_list("email", flat=True)}
    except LookupError:  # allauth not installed
        pass
    return addresses


def _token(message: Any) -> str:
    tokens = [t for a in bodies.recipient_addresses(message) if (t := token_in_address(a))]
    if not tokens:
        raise Refusal("no_token", _("it was not sent to the reply address of a phase email."),
                      hint=_("Reply to the phase email itself, so the reply goes to its "
                             "play+... address."))
    return tokens[0]


def _target(row: InboundMessage, token: str) -> tuple[ReplyTarget, Match, Seat, Phase]:
    """What the reply token names; Refusal when there is no valid token (then nobody is
    answered)."""
    try:
        target = token_read(token)
    except BadToken as error:
        raise Refusal("bad_token", _("its reply address is not valid: %(error)s") % {
            "error": error}, hint=_("Reply to the latest phase email of your match.")) from None
    match = Match.objects.filter(pk=target.match_id).first()
    seat = Seat.objects.filter(match=match, number=target.seat_number).select_related(
        "user").first() if match else None
    phase = Phase.objects.filter(match=match, number=target.phase_number).first() \
        if match else None
    if match is None or seat is None or phase is None:
        raise Refusal("bad_token", _("its reply address names a match that does not exist."))
    row.match, row.seat_number, row.phase_number = match, seat.number, phase.number
    return target, match, seat, phase


def _message_target(row: InboundMessage, token: str) -> tuple[MessageTarget, Match, Seat,
                                                               Any]:
    """What a message notice's reply token names (its channel); Refusal as ``_target``."""
    from portal.chat.models import Channel

    try:
        target = message_token_read(token)
    except BadToken as error:
        raise Refusal("bad_token", f"its reply address is not valid: {error}",
                      hint="Reply to the latest message e-mail of your match.") from None
    match = Match.objects.filter(pk=target.match_id).first()
    seat = Seat.objects.filter(match=match, number=target.seat_number).select_related(
        "user").first() if match else None
    channel = Channel.objects.filter(pk=target.channel_id, match=match).first() \
        if match else None
    if match is None or seat is None or channel is None:
        raise Refusal("bad_token", "its reply address names a match that does not exist.")
    row.match, row.seat_number, row.phase_number = match, seat.number, None
    return target, match, seat, channel


def _check_holder(target: ReplyTarget | MessageTarget, seat: Seat) -> None:
    """The player the token was mailed to still holds the seat."""
    if seat.user_id is None or seat.user_id != target.user_id:
        raise Refusal("not_your_seat", _("its reply address was given to the seat's previous "
                                         "player; the seat has changed hands since."),
                      hint=_("Only the seat's current player can send its orders."))


def _check_target(match: Match, seat: Seat, phase: Phase, sender: str) -> None:
    """The seat's player sent the message, and the phase is open."""
    if sender not in _user_addresses(seat.user):
        raise Refusal("wrong_sender", _("it was sent from %(sender)s, which is not the address "
                                        "of the player of this seat.") % {"sender": sender},
                      hint=_("Send your orders from the address your account uses."))
    if match.status != Match.Status.ACTIVE:
        raise Refusal("match_over", _("%(match)s is over (%(status)s); it takes no more "
                                      "orders.") % {
            "match": match, "status": match.get_status_display().lower()})
    if phase.status != Phase.Status.OPEN or match.phase_number != phase.number:
        raise Refusal("phase_resolved", _("phase %(number)s of %(match)s has already been "
                                          "resolved.") % {"number": phase.number, "match": match},
                      hint=_("Reply to the email of the current phase instead."))


def _check_rate(row: InboundMessage) -> None:
    """At most MAIL_SEAT_HOURLY_CAP messages an hour per reply token: counted against what the
    token names, so a forged From never uses up a player's allowance."""
    hour_ago = timezone.now() - timedelta(hours=1)
    # A seat's previous player's mails (refused as not_your_seat) do not count against its
    # current player.
    recent = InboundMessage.objects.filter(
        match_id=row.match_id, seat_number=row.seat_number, phase_number=row.phase_number,
        received_at__gte=hour_ago).exclude(pk=row.pk).exclude(outcome="not_your_seat").count()
    if recent >= settings.MAIL_SEAT_HOURLY_CAP:
        raise Ignore("rate_limited", f"{recent} messages to this reply address in the last "
                     "hour")


def _read(row: InboundMessage, reading: dict[str, Any]) -> dict[str, Any]:
    """Everything up to the submission; raises Refusal or Ignore. Sets
    ``reading["answerable"]`` once the message has shown a valid reply token."""
    raw = bytes(row.raw)
    too_large = row.size > settings.MAIL_MAX_INBOUND_BYTES
    # A message cut at the size limit is read by its headers only.
    message = bodies.parse_headers(raw) if too_large else bodies.parse(raw)
    sender = bodies.sender_address(message)
    if not sender:
        raise Ignore("no_sender", "no From address (garbage or not an email)")
    if not too_large and (failed := bounces.dsn_record(message)) is not None:
        raise Ignore("bounce", "a delivery report; failing: " + (", ".join(failed) or "none"))
    if reason := bodies.loop_reason(message, _own_addresses()):
        raise Ignore("loop", reason)
    verdict = authresults.verdict(message)
    row.authentication = _printable(str(verdict))[:200]
    if verdict.failed:
        raise Refusal("not_authentic", f"the receiving mail server says {verdict.failed} "
                      f"({verdict}).", answer=False)
    token = _token(message)
    if is_message_token(token):
        return _read_message(row, reading, message, sender, too_large, token)
    target, match, seat, phase = _target(row, token)
    reading["answerable"] = True
    _check_holder(target, seat)
    _check_rate(row)
    if too_large:
        raise Refusal("too_large", _("it is %(size)s KB; order emails may be at most %(most)s "
                                     "KB.") % {"size": row.size // 1024,
                                               "most": settings.MAIL_MAX_INBOUND_BYTES // 1024},
                      hint=_("Send the orders as plain text, without attachments."))
    if "\x00" in bodies.header(message, "Subject") + bodies.header(message, "From"):
        raise Refusal("nul", _("its header has a NUL character, which no mail may carry."),
                      hint=_("Send the orders from an ordinary mail program."))
    _check_target(match, seat, phase, sender)
    attachments = bodies.attachment_names(message)
    if attachments:
        raise Refusal("attachments", _("it has attachments (%(names)s); orders are read from "
                                       "the text only.") % {"names": ", ".join(attachments[:5])},
                      hint=_("Send the orders as plain text in the email itself."))
    try:
        text = bodies.strip_reply(bodies.body_text(message), bodies.sender_name(message))
    except bodies.BodyError as error:
        raise Refusal(error.code, error.reason) from None
    if not text.strip():
        raise Refusal("empty", _("there are no orders in it (the text above the quoted email "
                                 "is empty)."),
                      hint=_("Write your orders at the top of your reply."))
    return {"message": message, "sender": sender, "match": match, "seat": seat,
            "phase": phase, "text": text}


def _read_message(row: InboundMessage, reading: dict[str, Any], message: Any, sender: str,
                  too_large: bool, token: str) -> dict[str, Any]:
    """A reply to a message notice, up to the posting: the same checks as orders (the token,
    the seat's player, the hourly cap, the size, the sender, attachments), then the text the
    player wrote above the quoted notice."""
    target, match, seat, channel = _message_target(row, token)
    reading["answerable"] = True
    _check_holder(target, seat)
    _check_rate(row)
    if too_large:
        raise Refusal("too_large", f"it is {row.size // 1024} KB; messages by e-mail may be at "
                      f"most {settings.MAIL_MAX_INBOUND_BYTES // 1024} KB.",
                      hint="Send the message as plain text, without attachments.")
    if "\x00" in bodies.header(message, "Subject") + bodies.header(message, "From"):
        raise Refusal("nul", "its header has a NUL character, which no mail may carry.",
                      hint="Send the message from an ordinary mail program.")
    if sender not in _user_addresses(seat.user):
        raise Refusal("wrong_sender", f"it was sent from {sender}, which is not the address "
                      "of the player of this seat.",
                      hint="Send your message from the address your account uses.")
    attachments = bodies.attachment_names(message)
    if attachments:
        raise Refusal("attachments", "it has attachments (" + ", ".join(attachments[:5]) +
                      "); messages are plain text.",
                      hint="Write the message in the e-mail itself.")
    try:
        text = bodies.strip_reply(bodies.body_text(message), bodies.sender_name(message))
    except bodies.BodyError as error:
        raise Refusal(error.code, error.reason) from None
    if not text.strip():
        raise Refusal("empty", "there is no message in it (the text above the quoted e-mail "
                      "is empty).", hint="Write your message at the top of your reply.")
    return {"kind": "message", "sender": sender, "match": match, "seat": seat,
            "channel": channel, "text": text}


def _post_message(row: InboundMessage, read: dict[str, Any]) -> dict[str, Any]:
    """Post the reply's text to its channel, once (the inbound row is its dedupe key);
    Refusal with the service's reason when it is refused. The answer's context."""
    from portal.chat.access import Reader
    from portal.chat.services import message_post

    match, seat, channel = read["match"], read["seat"], read["channel"]
    try:
        message_post(match_id=match.pk, user=seat.user, channel=channel.key, text=read["text"],
                     source="email", dedupe_key=f"mail:{row.pk}")
    except ServiceError as error:
        raise Refusal(error.code, error.message[0].lower() + error.message[1:]) from None
    label = Reader(match, seat.user).label(channel.kind, channel.key, channel.seats)
    return {"posted": True, "match_title": str(match), "channel": label,
            "match_url": match_url(match) + "#messages"}


def _answers_left(address: str) -> int:
    hour_ago = timezone.now() - timedelta(hours=1)
    sent = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.REPLY, to=address.lower(),
                                        created_at__gte=hour_ago).count()
    return settings.MAIL_ANSWERS_PER_ADDRESS_HOURLY - sent


def _reply(row: InboundMessage, sender: str, context: dict[str, Any]) -> None:
    """Queue the answer to ``sender``, unless it had its hourly share of answers already."""
    if _answers_left(sender) <= 0:
        note = (f"Not answered: {sender} had {settings.MAIL_ANSWERS_PER_ADDRESS_HOURLY} "
                "answers in the last hour.")
        row.error = f"{row.error}\n{note}".strip()
        logger.info("inbound %s: %s", row.pk, note)
        return
    text, html = render("reply", context)
    # Header values from a stranger's email: one line, bounded, or the answer could not be sent.
    subject = " ".join(row.subject.split())[:200] or _("your orders")
    message_id = "".join(row.message_id.split())[:250]
    headers = {"In-Reply-To": message_id, "References": message_id} if message_id else {}
    email_queue(
        kind=OutgoingEmail.Kind.REPLY, dedupe_key=f"reply:in{row.pk}", to=sender.lower(),
        subject=subject if subject.lower().startswith("re:") else f"Re: {subject}",
        body_text=text, body_html=html, match_id=row.match_id,
        phase_number=row.phase_number, headers=headers,
    )


def _reader_language(row: InboundMessage) -> str:
    """The language of the player the message's reply token was mailed to (the only person
    ever answered): the refusal or receipt is written in it. The site's without a valid
    token."""
    try:
        head = bodies.parse_headers(bytes(row.raw))
        target = token_read(_token(head))
    except Exception:  # no token, a bad one, headers beyond repair: nobody is answered
        return settings.LANGUAGE_CODE
    user = get_user_model().objects.select_related("profile").filter(
        pk=target.user_id).first()
    return language_of(user) if user is not None else settings.LANGUAGE_CODE


def _handle(row: InboundMessage) -> None:
    """Process a locked row in its reader's language (``_reader_language``)."""
    with translation.override(_reader_language(row)):
        _handle_in_language(row)


def _handle_in_language(row: InboundMessage) -> None:
    """Process a locked row; sets its status and outcome and queues the answer."""
    reading = {"answerable": False}
    try:
        read = _read(row, reading)
        if read.get("kind") == "message":
            answer = _post_message(row, read)
            row.status, row.outcome = Status.ACCEPTED, "message_posted"
            _reply(row, read["sender"], answer)
            return
        match, seat, phase, text = read["match"], read["seat"], read["phase"], read["text"]
        if is_clear_command(text) and plans_offered(engine.get(match.game)):
            had = plan_clear(match_id=match.pk, seat_number=seat.number, user=seat.user)
            row.status, row.outcome = Status.ACCEPTED, "plan_cleared"
            _reply(row, read["sender"], {"plan_cleared": True, "had_plan": had,
                                         "match_title": str(match),
                                         "match_url": match_url(match)})
            return
        try:
            receipt = sheet_submit(match_id=match.pk, seat_number=seat.number, user=seat.user,
                                   phase_number=phase.number, source="email", text=text)
        except ServiceError as error:
            if error.code == "invalid" and error.problems:
                lines = plugins.plugin_for(match.game).problem_lines(error.problems, text)
                raise Refusal("invalid", _("the orders are not valid:"), lines,
                              hint=_("Correct them and reply again.")) from None
            raise Refusal(error.code, error.message[0].lower() + error.message[1:]) from None
    except Ignore as ignore:
        row.status, row.outcome, row.error = Status.IGNORED, ignore.code, _printable(ignore.reason)
        return
    except Refusal as refusal:
        # Reasons may quote the mail (a file name, a header): no NUL may reach the database.
        reason, problems = _printable(refusal.reason), [_printable(p) for p in refusal.problems]
        row.status, row.outcome = Status.REFUSED, refusal.code
        row.error = "\n".join([reason, *problems])
        if not (refusal.answer and reading["answerable"]):
            return  # no valid reply token: whoever the From names may not have written it
        _reply(row, row.sender or bodies.sender_address(bodies.parse_headers(bytes(row.raw))), {
            "accepted": False, "reason": reason, "problems": problems,
            "retry_hint": refusal.hint,
            "match_url": match_url(row.match) if row.match_id else "",
        })
        return
    game = engine.get(match.game)
    sheet = plugins.sheet_text(game, phase.state_before, seat.number, receipt.data)
    row.status, row.outcome, row.receipt = Status.ACCEPTED, "accepted", receipt.receipt
    _reply(row, read["sender"], {
        "accepted": True, "match_title": str(match), "seat_name": game.seat_name(seat.number),
        "phase_number": phase.number, "sheet": sheet, "receipt": receipt.receipt,
        "revision": receipt.revision, "warnings": [problem_line(w) for w in receipt.warnings],
        "match_url": match_url(match),
    })


def inbound_process(*, inbound_id: int) -> InboundMessage | None:
    """Read and answer one stored message, once (a no-op if it was processed already)."""
    try:
        with transaction.atomic():
            row = (InboundMessage.objects.select_for_update(skip_locked=True)
                   .filter(pk=inbound_id, status=Status.RECEIVED).first())
            if row is None:
                return InboundMessage.objects.filter(pk=inbound_id).first()
            _handle(row)
            row.processed_at = timezone.now()
            row.save()
            return row
    except Exception:
        logger.exception("processing inbound message %s failed", inbound_id)
        InboundMessage.objects.filter(pk=inbound_id, status=Status.RECEIVED).update(
            status=Status.ERROR, error=traceback.format_exc()[-4000:],
            processed_at=timezone.now())
        return InboundMessage.objects.filter(pk=inbound_id).first()


def inbound_receive(*, raw: bytes, source: str) -> InboundMessage:
    """Store, then process (the MTA pipe and maildir path)."""
    row = inbound_store(raw=raw, source=source, processed_here=True)
    return inbound_process(inbound_id=row.pk) or row


def inbound_retry(*, inbound_ids: list[int]) -> int:
    """Admin: process failed rows again."""
    count = InboundMessage.objects.filter(pk__in=inbound_ids, status=Status.ERROR).update(
        status=Status.RECEIVED, error="")
    for inbound_id in inbound_ids:
        inbound_process(inbound_id=inbound_id)
    return count
