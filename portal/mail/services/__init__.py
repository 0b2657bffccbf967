"""Play by email: the mail channel, notifications, and orders received by email."""

from portal.mail.services.inbound import (
    inbound_process,
    inbound_receive,
    inbound_retry,
    inbound_store,
)
from portal.mail.services.notify import (
    digests_send,
    match_ended_notify,
    phase_opened_notify,
    phase_resolved_notify,
    phases_opened_notify,
    phases_resolved_notify,
    reminders_send,
)
from portal.mail.services.outbox import email_queue

__all__ = [
    "digests_send",
    "email_queue",
    "inbound_process",
    "inbound_receive",
    "inbound_retry",
    "inbound_store",
    "match_ended_notify",
    "phase_opened_notify",
    "phase_resolved_notify",
    "phases_opened_notify",
    "phases_resolved_notify",
    "reminders_send",
]
