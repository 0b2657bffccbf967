"""The one table of events and their consumers: for each event (its key, shared with the
notification preferences when it has a choice of its own; the competitions' other news goes by
``round_started``'s, as its "what" says), the signal that reports it and, per channel (mail,
push, webhook), the function that turns it into outgoing rows. ``connect`` connects the
receivers from this table and nowhere else (``tests/portal/delivery/test_events.py`` holds them
equal); an event without a signal is made by a beat task (its consumers are the tasks), and
one without consumers is a slot for a channel to come. docs/delivery.md shows the table
(``as_markdown``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

CHANNELS = ("mail", "push", "webhook")


@dataclass(frozen=True)
class Event:
    key: str
    what: str
    signal: str = ""  # "module.name" of the django Signal; empty: made by beat tasks
    consumers: dict[str, str] = field(default_factory=dict)  # channel -> "module.function"


EVENTS = (
    Event("your_move", "a phase opened and a player must act", "games.signals.phase_opened",
          {"mail": "portal.mail.receivers.on_phase_opened",
           "push": "portal.push.receivers.on_phase_opened",
           "webhook": "portal.webhooks.receivers.on_phase_opened"}),
    Event("phase_resolved", "a phase was resolved (the round report)",
          "games.signals.phase_resolved",
          {"mail": "portal.mail.receivers.on_phase_resolved",
           "webhook": "portal.webhooks.receivers.on_phase_resolved"}),
    Event("match_ended", "a match finished, was forfeited or aborted",
          "games.signals.match_ended",
          {"mail": "portal.mail.receivers.on_match_ended",
           "push": "portal.push.receivers.on_match_ended",
           "webhook": "portal.webhooks.receivers.on_match_ended"}),
    Event("reminder", "a deadline is near and a player has not acted", "",
          {"mail": "portal.mail.tasks.reminders_send",
           "push": "portal.push.tasks.reminders_push"}),
    Event("gameday", "a continuous match's gameday opened", "games.signals.gameday_opened",
          {"mail": "portal.mail.receivers.on_gameday_opened",
           "push": "portal.push.receivers.on_gameday_opened",
           "webhook": "portal.webhooks.receivers.on_gameday_opened"}),
    Event("leave", "a player took leave", "games.signals.leave_taken",
          {"mail": "portal.mail.receivers.on_leave_taken"}),
    Event("round_started", "a tournament round started", "competitions.signals.round_started",
          {"mail": "portal.mail.receivers.on_round_started",
           "webhook": "portal.webhooks.receivers.on_round_started"}),
    Event("tournament_finished", "a tournament ended: its final results (by `round_started`'s "
          "choice)", "competitions.signals.tournament_finished",
          {"mail": "portal.mail.receivers.on_tournament_finished"}),
    Event("season", "a league's season started, reached its last week or ended (by "
          "`round_started`'s choice)", "competitions.signals.season_changed",
          {"mail": "portal.mail.receivers.on_season_changed",
           "push": "portal.push.receivers.on_season_changed"}),
    Event("team_match", "a team match between two clubs was scored (mail by `round_started`'s "
          "choice, push by `match_ended`'s)", "competitions.signals.team_match_finished",
          {"mail": "portal.mail.receivers.on_team_match_finished",
           "push": "portal.push.receivers.on_team_match_finished"}),
    Event("club_invitation", "an organiser invited an e-mail address to a club (no choice: "
          "it goes to that address)", "competitions.signals.club_invited",
          {"mail": "portal.mail.receivers.on_club_invited"}),
    Event("message", "new messages in the channels of a match, gathered (one notice per "
          "reader for all their channels every few minutes)", "portal.chat.signals.messages_due",
          {"mail": "portal.mail.receivers.on_messages_due",
           "push": "portal.push.receivers.on_messages_due"}),
    Event("vote", "a vote to end a match opened, failed, expired or was closed; a seat "
          "conceded (a vote that passes ends the match: `match_ended` tells it)",
          "games.signals.vote_changed",
          {"mail": "portal.mail.receivers.on_vote_changed"}),
    Event("seat", "a seat of a match in play seeks a new commander, or a newcomer took it",
          "games.signals.seat_changed",
          {"mail": "portal.mail.receivers.on_seat_changed"}),
)
BY_KEY = {event.key: event for event in EVENTS}


def resolve(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def dispatch_uid(event: Event, channel: str) -> str:
    return f"delivery:{event.key}:{channel}"


def connect() -> None:
    """Connect every consumer of the table to its event's signal (idempotent)."""
    for event in EVENTS:
        if not event.signal:
            continue
        signal = resolve(event.signal)
        for channel, path in event.consumers.items():
            signal.connect(resolve(path), weak=False, dispatch_uid=dispatch_uid(event, channel))


def as_markdown() -> str:
    """The table as docs/delivery.md shows it."""
    lines = ["| event | what | signal | " + " | ".join(CHANNELS) + " |",
             "|---|---|---|" + "---|" * len(CHANNELS)]
    for event in EVENTS:
        cells = [f"`{event.consumers[c]}`" if c in event.consumers else "" for c in CHANNELS]
        signal = (f"`{event.signal}`" if event.signal else "(beat)" if event.consumers
                  else "(none yet)")
        lines.append(f"| `{event.key}` | {event.what} | {signal} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
