"""The "gameday opened" email of continuous games: the player's situation (the game plug-in's
``your_move_context``), the board as text, and the address to reply to with actions (applied
under the same rules as the page: cooldown, gameday window). Sent once per (match, gameday,
player) via the outbox."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _

import engine
from games import plugins
from games.models import Match
from portal.accounts.models import Event
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import (
    SeatViewRenderer,
    _base_context,
    language_of,
    local_time,
    your_move_recipients,
)
from portal.mail.services.outbox import emails_queue
from portal.mail.tokens import reply_address

Kind = OutgoingEmail.Kind


def _mailed_recently(match: Match) -> set[int]:
    """The players mailed a gameday of ``match`` within settings.GAMEDAY_MAIL_MIN_HOURS: a
    match whose gamedays come every few minutes (a quick game against the bot) mails its
    players once in that time, not at every gameday; a daily schedule mails every day."""
    since = timezone.now() - timedelta(hours=settings.GAMEDAY_MAIL_MIN_HOURS)
    return set(OutgoingEmail.objects.filter(
        match_id=match.pk, dedupe_key__startswith=f"gameday:m{match.pk}:",
        created_at__gte=since).values_list("user_id", flat=True))


def gameday_opened_notify(*, match_id: int, gameday: str) -> int:
    """Mail every player who may act today (and wants gameday mails). Returns how many
    emails were created; a repeated call creates none."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None or match.state is None:
        return 0
    game = engine.get(match.game)
    plugin = plugins.plugin_for(match.game)
    prompted = game.prompts(match.state)
    renderer = SeatViewRenderer(match.game)
    recipients = your_move_recipients(
        match, prompted, lambda seat: f"gameday:m{match.pk}:g{gameday}:u{seat.user_id}",
        Event.GAMEDAY)
    recently = _mailed_recently(match)
    recipients = [(seat, key) for seat, key in recipients if seat.user_id not in recently]
    emails = []
    for seat, key in recipients:
        with translation.override(language_of(seat.user)):
            emails.append(_gameday_email(match, seat, key, gameday, game, plugin, renderer))
    return len(emails_queue(emails))


def _gameday_email(match: Match, seat: Any, key: str, gameday: str, game: Any, plugin: Any,
                   renderer: SeatViewRenderer) -> dict[str, Any]:
    """The gameday mail of ``seat``'s player, in the active language."""
    name = plugin.gameday_name(match, gameday)
    context = _base_context(match, seat, game)
    address = reply_address(match_id=match.pk, seat_number=seat.number,
                            phase_number=match.phase_number, user_id=seat.user_id)
    context.update(
        gameday=gameday, gameday_name=name, next_gameday=local_time(match.deadline, seat.user),
        board=plugin.board_text(match.state, seat.number),
        grammar=plugin.orders_help(match.state, seat.number), reply_address=address,
        **plugin.your_move_context(match, seat, match.state),
    )
    text, html = renderer.render("gameday_opened", context)
    return {"kind": Kind.PHASE_OPENED, "dedupe_key": key, "to": seat.user.email,
            "user": seat.user, "match_id": match.pk, "phase_number": match.phase_number,
            "subject": _("%(gameday)s has begun: %(match)s") % {
                "gameday": capfirst(name), "match": match},
            "body_text": text, "body_html": html, "reply_to": address}
