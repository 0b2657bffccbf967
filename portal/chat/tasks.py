"""Celery tasks of the messages: they take ids, run acks_late, and do nothing when the work is
done (a notice sent already), so a task delivered twice sends nothing twice."""

from __future__ import annotations

from durable.worker import task
from portal.chat import notify
from portal.chat.models import Channel


@task("portal.chat.tasks.messages_notify")
def messages_notify(match_id: int | None = None, channel_id: int | None = None) -> bool:
    """Send the match's gathered notice if it is due (an outbox row due then, written by the
    first message since the last one). ``channel_id``: a task queued before notices were gathered
    per match, for that channel's match."""
    if match_id is None and channel_id is not None:
        match_id = (Channel.objects.filter(pk=channel_id).values_list("match_id", flat=True)
                    .first())
    if match_id is None:
        return False
    return notify.notice_send(match_id=match_id)
