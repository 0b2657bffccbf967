"""Signals the competitions send, each inside the transaction that made the news: its consumers
(``portal.delivery.events``: the mails, pushes and webhook posts, in the portal, which sits
above the competitions) only write outgoing rows, in that same transaction, so nothing goes out
unless the news committed. The competitions import nothing of the portal: they say what
happened; the portal's channels decide who hears it and in which words."""

from django.dispatch import Signal

# A tournament's round was paired and its matches created. kwargs: tournament_id, round_number.
round_started = Signal()
# A tournament's last round ended: its final results. kwargs: tournament (a Tournament).
tournament_finished = Signal()
# An organiser invited an address to a club. kwargs: invitation (a ClubInvitation).
club_invited = Signal()
# A league's season started, reached its last week or ended. kwargs: season (a Season), stage
# (one of SEASON_STAGES).
season_changed = Signal()
SEASON_STAGES = ("started", "last_week", "ended")
# A team match was scored (every board over). kwargs: team_match (a TeamMatch).
team_match_finished = Signal()
