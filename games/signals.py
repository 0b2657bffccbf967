"""Signals the turn lifecycle sends. Every one is sent on commit, never inside a transaction."""

from django.dispatch import Signal

# Sent after a phase opened (match start or after a resolution). kwargs: match_id, phase_number.
phase_opened = Signal()

# Sent after a phase's resolution committed. kwargs: match_id, phase_number, finished (bool).
phase_resolved = Signal()

# Sent after a match finished (by the rules, by forfeit or aborted). kwargs: match_id, status.
match_ended = Signal()

# Sent after a continuous match's gameday tick committed (once per gameday).
# kwargs: match_id, gameday (the game's gameday key).
gameday_opened = Signal()
