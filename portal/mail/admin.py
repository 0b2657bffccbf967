"""Admin for the outbox (failed emails are visible and can be sent again) and the inbox."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.models import Phase
from portal.delivery import pipeline
from portal.mail import services
from portal.mail.models import FailingAddress, InboundMessage, MailOptOut, OutgoingEmail

SEALED = _("sealed until phase %(number)s resolves")
# Messages between players reach only their channel's readers (docs/messages.md).
CHANNEL_ONLY = _("a message between players: for its channel's readers only, not shown here")


def message_reply(raw: bytes) -> bool:
    """Whether a received mail was sent to a message notice's reply address (its text is a
    message to a channel)."""
    from portal.mail import bodies
    from portal.mail.tokens import is_message_token, token_in_address

    try:
        head = bodies.parse_headers(raw)
    except Exception:  # headers beyond repair: nothing shows it was a message
        return False
    return any(is_message_token(token) for address in bodies.recipient_addresses(head)
               if (token := token_in_address(address)))


def sealed_phase(match_id: int | None, phase_number: int | None) -> bool:
    """An order sheet of this phase is still secret (moderators included)."""
    return bool(match_id and phase_number) and Phase.objects.filter(
        match_id=match_id, number=phase_number, status=Phase.Status.OPEN).exists()


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "to", "subject", "status", "attempts",
                    "next_attempt_at", "sent_at")
    list_filter = ("status", "kind")
    # (never the bodies: a message notice's is for its channel only)
    search_fields = ("to", "subject", "dedupe_key", "last_error")
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in OutgoingEmail._meta.fields
                       if f.name not in ("body_text", "body_html")] + ["body"]
    exclude = ("body_text", "body_html")
    actions = ["send_again"]

    @admin.display(description=_("Text"))
    def body(self, obj: OutgoingEmail) -> str:
        # An answer to emailed orders quotes the sheet: secret while its phase is open.
        if obj.kind == OutgoingEmail.Kind.REPLY and sealed_phase(obj.match_id, obj.phase_number):
            return gettext(SEALED) % {"number": obj.phase_number}
        if obj.kind == OutgoingEmail.Kind.MESSAGE:
            return CHANNEL_ONLY
        return obj.body_text

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description=_("Send the selected failed emails again"))
    def send_again(self, request, queryset) -> None:
        count = pipeline.requeue("mail", queryset.values_list("pk", flat=True))
        self.message_user(request, ngettext(
            "%(count)s failed email queued again.", "%(count)s failed emails queued again.",
            count) % {"count": count}, messages.SUCCESS)


@admin.register(InboundMessage)
class InboundMessageAdmin(admin.ModelAdmin):
    list_display = ("received_at", "sender", "subject", "source", "status", "outcome",
                    "match", "seat_number", "phase_number")
    list_filter = ("status", "outcome", "source")
    search_fields = ("sender", "subject", "message_id", "error")
    date_hierarchy = "received_at"
    readonly_fields = [f.name for f in InboundMessage._meta.fields if f.name != "raw"] + [
        "raw_text"]
    exclude = ("raw",)
    actions = ["process_again"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description=_("Message as received"))
    def raw_text(self, obj: InboundMessage) -> str:
        if sealed_phase(obj.match_id, obj.phase_number):
            return gettext(SEALED) % {"number": obj.phase_number}
        if message_reply(bytes(obj.raw)):
            return CHANNEL_ONLY
        return bytes(obj.raw)[:20000].decode("utf-8", errors="replace")

    @admin.action(description=_("Process the selected failed messages again"))
    def process_again(self, request, queryset) -> None:
        count = services.inbound_retry(inbound_ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, ngettext(
            "%(count)s message processed again.", "%(count)s messages processed again.",
            count) % {"count": count}, messages.SUCCESS)


@admin.register(FailingAddress)
class FailingAddressAdmin(admin.ModelAdmin):
    """Addresses we no longer mail (bounces, complaints); deleting a row resumes mail."""

    list_display = ("address", "reason", "source", "count", "first_at", "last_at")
    list_filter = ("reason",)
    search_fields = ("address", "detail")
    readonly_fields = ("first_at", "last_at")


@admin.register(MailOptOut)
class MailOptOutAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__email")
