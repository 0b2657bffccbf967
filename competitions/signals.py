"""Signals the competitions send. ``round_started`` is sent inside the transaction that opened
the round: its consumers (``portal.delivery.events``) only write outgoing rows, in that same
transaction, so nothing goes out unless the round committed."""

from django.dispatch import Signal

# A tournament's round was paired and its matches created. kwargs: tournament_id, round_number.
round_started = Signal()
