"""What a chat is told about an event, in the target's language. Only what a spectator of the
match may see: who must act, that a phase was resolved, the result, a round's start; never
anybody's orders, sheet or hidden pieces."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

import engine
from engine.ending import Ending
from games.endings import ending_data, ending_of, ending_sentence, ending_status
from games.models import Match, Phase, Seat
from portal.webhooks.formats import Message, Player


def _url(name: str, *args: Any) -> str:
    return settings.SITE_URL + reverse(name, args=args)


def _when(moment: datetime | None) -> str:
    if moment is None:
        return _("no deadline")
    utc = timezone.localtime(moment, timezone.get_fixed_timezone(0))
    return formats.date_format(utc, "DATETIME_FORMAT") + " UTC"


def _player(seat: Seat) -> Player:
    """The seat's player by name, with their chat handle only if they allowed mentions."""
    profile = getattr(seat.user, "profile", None)
    allowed = profile is not None and profile.chat_mentions
    return Player(name=seat.user.get_username(), handle=profile.chat_handle if allowed else "")


def _title(match: Match) -> str:
    """The match's title, or the game's name and number (never the game's key)."""
    return match.title or f"{engine.get(match.game).name or match.game} #{match.pk}"


def _match_data(match: Match) -> dict[str, Any]:
    return {"match": {"id": match.pk, "title": _title(match), "game": match.game}}


def your_move(*, match: Match, seats: list[Seat], phase_number: int,
              deadline: datetime | None) -> Message:
    """The players who must act now, by name (and chat handle), and the deadline."""
    return Message(
        event="your_move", url=_url("games:match", match.pk),
        text=_("Your move in %(match)s: %(players)s. Phase %(phase)s, deadline %(deadline)s."),
        values={"match": _title(match), "phase": str(phase_number), "deadline": _when(deadline)},
        players=tuple(_player(seat) for seat in seats),
        data={**_match_data(match), "phase": phase_number,
              "deadline": deadline.isoformat() if deadline else None})


def phase_resolved(*, match: Match, phase: Phase) -> Message:
    return Message(
        event="phase_resolved", url=_url("games:match", match.pk),
        text=_("%(match)s: phase %(phase)s is resolved."),
        values={"match": _title(match), "phase": str(phase.number)},
        data={**_match_data(match), "phase": phase.number})


def _result(match: Match, ending: Ending | None, seats: list[Seat]
            ) -> tuple[str, dict[str, str], list[Seat]]:
    """The result's text, its values and the winning seats: the status and the sentence
    every surface says (``games.endings``), the winners by name."""
    if ending is None:  # aborted by a moderator: no ending
        return _("%(match)s was aborted."), {}, []
    how = ending_sentence(match.game, ending)
    if ending.has_result and not ending.is_draw and ending.winners:
        return _("%(match)s is over. Winner: %(players)s. %(how)s"), {"how": how}, [
            seat for seat in seats if seat.number in ending.winners]
    return (_("%(match)s is over. %(status)s %(how)s"),
            {"status": ending_status(match.game, ending), "how": how}, [])


def match_ended(*, match: Match) -> Message:
    """The result: who won (players by name, bots by the game's seat name), or a draw, or no
    result, and how it ended; ``ending`` in the data says it for machines."""
    seats = list(Seat.objects.filter(match=match).select_related("user__profile"))
    ending = ending_of(match)
    text, values, winners = _result(match, ending, seats)
    game = engine.get(match.game)
    players = tuple(_player(seat) if seat.user_id else Player(name=game.seat_name(seat.number))
                    for seat in winners)
    return Message(
        event="match_ended", url=_url("games:match", match.pk), text=text,
        values={"match": _title(match), **values}, players=players,
        data={**_match_data(match), "status": match.status,
              "winners": [p.name for p in players], "ending": ending_data(ending)})


def round_started(*, tournament: Any, round_: Any) -> Message:
    return Message(
        event="round_started", url=_url("competitions:tournament", tournament.pk),
        text=_("%(tournament)s: round %(round)s has started. It ends %(ends)s."),
        values={"tournament": tournament.name, "round": str(round_.number),
                "ends": _when(round_.ends_at)},
        data={"tournament": {"id": tournament.pk, "name": tournament.name},
              "round": round_.number, "ends_at": round_.ends_at.isoformat()})


def test(*, target: Any) -> Message:
    return Message(
        event="test", url=settings.SITE_URL + "/",
        text=_("Test message for the webhook %(name)s: it works."),
        values={"name": target.name}, data={})
