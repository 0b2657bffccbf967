"""The daily "gameday opened" email of continuous games (Tank Game V4): the player's situation,
the board as text, and the address to reply to with actions (applied under the same rules as
the page: cooldown, gameday window). Sent once per (match, gameday, player) via the outbox."""

from __future__ import annotations

from typing import Any

import engine
from games.models import Match
from portal.mail.models import OutgoingEmail
from portal.mail.services.notify import (
    _base_context,
    local_time,
    render,
    your_move_recipients,
)
from portal.mail.services.outbox import email_queue
from portal.mail.tokens import reply_address

Kind = OutgoingEmail.Kind


def situation_lines(view: dict[str, Any]) -> list[str]:
    """The player's own tank and Council standing, from their view only."""
    me = view.get("me") or {}
    lines = []
    tank = next((t for t in view.get("tanks") or [] if t.get("seat") == me.get("seat")), None)
    if tank is not None:
        if tank.get("status") == "alive":
            lines.append(f"Your tank {tank.get('name')} is at {tank.get('at')}: "
                         f"{tank.get('lives')} lives, {tank.get('ap')} AP, {tank.get('gold')} "
                         f"gold, range {tank.get('range')}"
                         + (f", bounty {tank.get('bounty')}." if tank.get("bounty") else "."))
        else:
            lines.append(f"Your tank {tank.get('name')} is {tank.get('status')}.")
    council = view.get("council") or {}
    member = next((m for m in council.get("members") or [] if m.get("seat") == me.get("seat")),
                  None)
    if member is not None:
        lines.append(f"You sit on the Council ({member.get('role')}, weight "
                     f"{member.get('weight')}); the coffer holds {council.get('coffer')} gold.")
    open_ballots = [b for b in council.get("ballots") or [] if b.get("status") == "open"]
    if open_ballots:
        lines.append("Open ballots: " + ", ".join(
            f"#{b.get('id')} {str(b.get('decree')).replace('_', ' ')}" for b in open_ballots))
    return lines


def gameday_opened_notify(*, match_id: int, gameday: str) -> int:
    """Mail every player who may act today (and wants "your move" emails). Returns how many
    emails were created; a repeated call creates none."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None or match.state is None:
        return 0
    game = engine.get(match.game)
    prompted = game.prompts(match.state)
    created = 0
    recipients = your_move_recipients(
        match, prompted, lambda seat: f"gameday:m{match.pk}:g{gameday}:u{seat.user_id}"
    )
    for seat, key in recipients:
        view = game.view(match.state, seat.number)
        context = _base_context(match, seat, game)
        address = reply_address(match_id=match.pk, seat_number=seat.number,
                                phase_number=match.phase_number)
        context.update(
            gameday=gameday, situation=situation_lines(view),
            next_gameday=local_time(match.deadline, seat.user),
            board=game.board_text(match.state, seat.number),
            grammar=game.text_help(match.state, seat.number), reply_address=address,
        )
        text, html = render("gameday_opened", context)
        if email_queue(kind=Kind.PHASE_OPENED, dedupe_key=key, to=seat.user.email,
                       user=seat.user, match_id=match.pk, phase_number=match.phase_number,
                       subject=f"Gameday {gameday} has begun: {match}", body_text=text,
                       body_html=html, reply_to=address):
            created += 1
    return created
