"""Celery tasks of the messages: they take ids, run acks_late, and do nothing when the work is
done (a notice sent already), so a task delivered twice sends nothing twice."""

from __future__ import annotations

from durable.worker import task
from games.services.queue import Enqueue
from portal.chat import notify
from portal.chat.models import Channel


@task("portal.chat.tasks.messages_notify")
def messages_notify(match_id: int | None = None, channel_id: int | None = None) -> bool:
    """Send the match's gathered notice if it is due (queued for that time by the first
    message since the last one). ``channel_id``: a task queued before notices were gathered
    per match, for that channel's match."""
    if match_id is None and channel_id is not None:
        match_id = (Channel.objects.filter(pk=channel_id).values_list("match_id", flat=True)
                    .first())
    if match_id is None:
        return False
    return notify.notice_send(match_id=match_id)


@task("portal.chat.tasks.notices_sweep")
def notices_sweep() -> int:
    """Beat: queue the notices that are due and were not sent (a task the broker lost, one
    that came early while a message was being written)."""
    return sum(Enqueue("portal.chat.tasks.messages_notify", match_id=pk)()
               for pk in notify.notices_due())
