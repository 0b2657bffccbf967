"""The messages' signal, in the one table of events (``portal.delivery.events``, event
``message``): sent by the notice flush (``portal.chat.notify.notice_send``) inside its
transaction, so the mails and pushes it causes are written with it or not at all.
kwargs: match_id, spans (the messages to tell of: for each channel with news, its
(channel_id, after_id, up_to_id), the messages after_id < id <= up_to_id)."""

from django.dispatch import Signal

messages_due = Signal()
