"""Web push: subscriptions, the push channel and what each lifecycle event pushes."""

from portal.push.services.notify import (
    gameday_opened_push,
    match_ended_push,
    messages_push,
    phase_opened_push,
    phases_opened_push,
    push_test,
    reminders_push,
)
from portal.push.services.outbox import push_queue
from portal.push.services.subscriptions import (
    subscription_check,
    subscription_delete,
    subscription_save,
    subscription_unsubscribe,
    subscription_update,
    unsubscribe_url,
)

__all__ = [
    "gameday_opened_push", "match_ended_push", "messages_push", "phase_opened_push",
    "phases_opened_push", "push_queue", "push_test", "reminders_push", "subscription_check",
    "subscription_delete", "subscription_save",
    "subscription_unsubscribe", "subscription_update", "unsubscribe_url",
]
