"""How a match ended, in the reader's language: the one wording of ``engine.ending.Ending``.

Every surface that tells how a match ended (home, the match page, mail, push, webhooks, the
API, a record's text, the feeds) reads the match's ending here and says it with these
functions, so they all say the same thing: ``ending_status`` (who won, a draw, no result, a
cancel), ``ending_sentence`` (how it ended: the game's reason worded by its plug-in, or what
the lifecycle or the players did) and ``ending_words``, the two together. "Nobody had
anything left to do" is no result, like a cancel: neither won, lost nor drawn, and the
competitions score it as a match that ended without a result (docs/lifecycle.md).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from engine.ending import Ending, How
from games import plugins


def ending_of(match: Any) -> Ending | None:
    """The match's ending (``Match.result`` read back as the value), or None: still in play,
    or aborted or voided by a moderator (no result)."""
    if not isinstance(match.result, dict) or not match.result:
        return None
    game = engine.games().get(match.game)
    return Ending.from_json(match.result, game.phrasebook if game is not None else None)


def _names(slug: str, seats: Any) -> str:
    return ", ".join(plugins.seat_name(slug, int(n)) for n in seats)


def ending_status(slug: str, ending: Ending) -> str:
    """Who won, in a few words: "Winner: Bravo.", "A draw.", "No result.", "Cancelled."."""
    if ending.how == How.CANCEL:
        return _("Cancelled.")
    if not ending.has_result:
        return _("No result.")
    if ending.is_draw:
        return _("A draw.")
    return ngettext("Winner: %(seats)s.", "Winners: %(seats)s.", len(ending.winners)) % {
        "seats": _names(slug, ending.winners)}


def ending_sentence(slug: str, ending: Ending) -> str:
    """How the match ended, in one sentence: the game's reason (worded by its plug-in) for
    the rules, else what the lifecycle or the players did."""
    names = _names(slug, ending.seats)
    if ending.how == How.FORFEIT:
        return _("%(seats)s forfeited after missing too many deadlines in a row.") % {
            "seats": names}
    if ending.how == How.NOBODY:
        return _("Nobody had anything left to do.")
    if ending.how == How.AGREEMENT:
        return _("Drawn by agreement of %(seats)s.") % {"seats": names}
    if ending.how == How.CANCEL:
        return _("Cancelled by agreement of the players: no result, no rating.")
    if ending.how == How.CONCESSION:
        return _("Conceded by %(seats)s.") % {"seats": names}
    return plugins.plugin_for(slug).ending_reason(ending)


def ending_words(match: Any, ending: Ending | None = None) -> str:
    """How ``match`` ended, status and sentence ("" while it is in play)."""
    ending = ending if ending is not None else ending_of(match)
    if ending is None:
        from games.models import Match

        if match.status == Match.Status.ABORTED:
            return _("The match was aborted.")
        if match.status == Match.Status.VOIDED:
            return _("A moderator voided the match: it has no result.")
        return ""
    return f"{ending_status(match.game, ending)} {ending_sentence(match.game, ending)}"


def ending_for_seat(ending: Ending | None, seat: int, *, aborted: bool = False) -> str:
    """How it ended for the player of ``seat``, in a few words (the home page's list)."""
    if ending is None:
        return _("Aborted") if aborted else _("Finished")
    if ending.how == How.CANCEL:
        return _("Cancelled by agreement")
    outcome = ending.outcome_for(seat)
    if outcome == "none":
        return _("No result")
    if outcome == "drawn":
        return _("Draw")
    if ending.how == How.CONCESSION and seat in ending.seats:
        return _("You conceded")
    return _("You won") if outcome == "won" else _("You lost")


def ending_data(ending: Ending | None) -> dict[str, Any] | None:
    """The ending for machines (the API, webhooks): how, the seats it concerns, and the
    game's reason as a key with its parameters (None for the lifecycle's ways)."""
    if ending is None:
        return None
    return ending.as_json()["ending"]
