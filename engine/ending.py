"""How a match ended: one value, ``Ending``, built here and nowhere else.

A match ends in one of six ways (``How``): the game's rules ended it, seats forfeited after
missing too many deadlines in a row, nobody had anything left to do, the seats still in agreed
to a draw, the players agreed to cancel it, or a seat conceded. Every way has its builder below
(``by_rules``, ``by_forfeit``, ``by_nobody``, ``by_agreement``, ``by_cancel``,
``by_concession``): the lifecycle calls them when a match ends, and a record's replay calls the
same ones, so the two cannot disagree.

The value is stored as its data (``as_json``: the portal's ``Match.result``, a record's
"result") and read back as the value (``from_json``). The data keeps the keys the records and
the competitions have always read (ranking, scores, winners, is_draw, and "reason", the ending
in English for people), and adds "ending": the way, the seats it concerns, and the game's own
reason as a key (its ``gettext_noop`` template) with its parameters. Readers use the value; no
reader parses the English back: the portal words the value in the reader's language
(``games/endings.py``).

Python-chess's ``Outcome`` (a ``Termination`` and the winner) is the model. Pure: no Django.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.base import Phrasebook, Result, Text
from engine.base import gettext_noop as _


class How(enum.StrEnum):
    """Who (or what) ended the match."""

    RULES = "rules"  # the game's own result
    FORFEIT = "forfeit"  # seats forfeited after missing too many deadlines in a row
    NOBODY = "nobody"  # nobody had anything left to do: no result
    AGREEMENT = "agreement"  # the seats still in agreed to a draw
    CANCEL = "cancel"  # the players agreed to cancel the match: no result
    CONCESSION = "concession"  # a seat gave up, and that ended the match


# The English kept in the stored "reason" for the lifecycle's ways (people read it in old
# clients and in the records; nothing reads it back). The first three are the sentences these
# results have always carried, so that records made before the ``Ending`` still verify.
FORFEITED = _("%(seats)s forfeited after missing too many deadlines in a row")
SEAT = _("seat %(number)s")
NOBODY = _("Nobody has anything left to do.")
AGREED_DRAW = _("Drawn by agreement of %(seats)s.")
CANCELLED = _("Cancelled by agreement of %(seats)s.")
CONCEDED = _("%(seats)s conceded.")


@dataclass(frozen=True)
class Ending:
    """How a finished (or cancelled) match ended.

    ``ranking`` lists groups of seats, best first (empty: no result); ``scores`` maps seat to
    the game's number; ``winners`` and ``is_draw`` are stored as decided by the way it ended
    (a draw by agreement ranks the seats out of the match after the drawn ones). ``seats`` are
    the seats the way concerns: those that forfeited, agreed (to a draw, to cancel) or
    conceded. ``reason`` is the game's own reason (rules, and a concession that the rules
    turned into a result) as a ``Text``, translated where a person reads it; ``written`` the
    reason as the game wrote it (a sentence, or a key such as "armistice"), kept as the stored
    English so that it reads as it always did.
    """

    how: How
    ranking: tuple[tuple[int, ...], ...] = ()
    scores: Mapping[int, float] = field(default_factory=dict)
    winners: tuple[int, ...] = ()
    is_draw: bool = False
    seats: tuple[int, ...] = ()
    reason: Text | None = None
    written: str = field(default="", compare=False)

    @property
    def has_result(self) -> bool:
        """Whether the match has a result to score: not for nobody left to act, a cancel, or
        a concession the rules gave no result. A ladder rates, and a tournament, league or
        team match scores, only a match with a result; one without is scored as a match
        that ended unfinished (docs/lifecycle.md)."""
        return bool(self.ranking) and self.how != How.CANCEL

    def outcome_for(self, seat: int) -> str:
        """``seat``'s outcome: "won", "drawn", "lost", or "none" (no result)."""
        if not self.has_result:
            return "none"
        if self.is_draw:
            return "drawn" if self.ranking and seat in self.ranking[0] else "lost"
        return "won" if seat in self.winners else "lost"

    def english(self) -> str:
        """The ending in one English sentence (the stored "reason")."""
        if self.reason is not None:
            return self.written or str(self.reason)
        names = tuple(Text(SEAT, {"number": n}) for n in self.seats)
        sentence = {How.FORFEIT: Text(FORFEITED, {"seats": names}),
                    How.NOBODY: Text(NOBODY),
                    How.AGREEMENT: Text(AGREED_DRAW, {"seats": names}),
                    How.CANCEL: Text(CANCELLED, {"seats": names}),
                    How.CONCESSION: Text(CONCEDED, {"seats": names}, capital=True)}
        return str(sentence.get(self.how, ""))

    def record_end(self) -> dict[str, Any]:
        """The record's "end" (docs/records.md, version 1: its own words for the ways)."""
        if self.how == How.CONCESSION:
            return {"by": "concession", "seats": list(self.seats)}
        if self.how == How.FORFEIT:
            return {"by": "forfeit", "forfeited": list(self.seats)}
        if self.how == How.AGREEMENT:
            return {"by": "draw", "seats": list(self.seats)}
        return {"by": self.how.value}

    # -- stored as its data ----------------------------------------------------------------
    def as_json(self) -> dict[str, Any]:
        """The ending as the portal stores it (``Match.result``) and a record holds it."""
        ending: dict[str, Any] = {"how": self.how.value, "seats": list(self.seats),
                                  "reason": None, "params": {}}
        if self.reason is not None:
            ending.update(_text_as_json(self.reason))
        return {
            "ranking": [list(group) for group in self.ranking],
            "scores": {str(seat): score for seat, score in self.scores.items()},
            "reason": self.english(),
            "winners": list(self.winners),
            "is_draw": self.is_draw,
            "ending": ending,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any],
                  phrasebook: Phrasebook | None = None) -> Ending:
        """The ending stored as ``data`` (``as_json``). A result stored before endings were
        (no "ending") reads too: the lifecycle's own results are recognised by rebuilding
        them from their ranking and comparing, never by parsing their English, and any other
        is the rules' (its reason read through the game's ``phrasebook`` if given, else kept
        as written)."""
        ranking = tuple(tuple(int(n) for n in group) for group in data.get("ranking") or [])
        scores = {int(seat): score for seat, score in (data.get("scores") or {}).items()}
        winners = tuple(int(n) for n in data.get("winners") or [])
        stored = data.get("ending")
        if isinstance(stored, Mapping):
            reason = (_text_from_json(stored) if isinstance(stored.get("reason"), str)
                      else None)
            return cls(how=How(stored.get("how", How.RULES)), ranking=ranking, scores=scores,
                       winners=winners, is_draw=bool(data.get("is_draw")),
                       seats=tuple(int(n) for n in stored.get("seats") or []), reason=reason,
                       written=str(data.get("reason") or "") if reason is not None else "")
        return _legacy(data, ranking, scores, winners, phrasebook)


def _legacy(data: Mapping[str, Any], ranking: tuple[tuple[int, ...], ...],
            scores: Mapping[int, float], winners: tuple[int, ...],
            phrasebook: Phrasebook | None) -> Ending:
    """A result stored without its "ending" (see ``Ending.from_json``)."""
    english = str(data.get("reason") or "")
    seats = sorted(scores)
    candidates = [by_nobody()]
    if ranking:
        candidates += [by_forfeit(seats, list(ranking[-1])),
                       by_agreement(seats, list(ranking[0]))]
    for candidate in candidates:
        if candidate.english() == english and candidate.ranking == ranking:
            return candidate
    read = phrasebook.read(english) if phrasebook is not None else english
    return Ending(how=How.RULES, ranking=ranking, scores=scores, winners=winners,
                  is_draw=bool(data.get("is_draw")),
                  reason=read if isinstance(read, Text) else Text(english), written=english)


# -- the builders: one per way -------------------------------------------------------------

def _reason(result: Result, phrasebook: Phrasebook) -> Text:
    """The game's reason as a ``Text``: as the game gave it, or read once, here, through its
    phrasebook from the English a game keeps in its (JSON) state."""
    if isinstance(result.reason, Text):
        return result.reason
    found = phrasebook.read(str(result.reason))
    return found if isinstance(found, Text) else Text(str(result.reason))


def by_rules(result: Result, phrasebook: Phrasebook) -> Ending:
    """The game's rules ended the match with ``result``."""
    return Ending(how=How.RULES, ranking=tuple(tuple(g) for g in result.ranking),
                  scores=dict(result.scores), winners=tuple(result.winners),
                  is_draw=result.is_draw, reason=_reason(result, phrasebook),
                  written=str(result.reason))


def by_concession(result: Result | None, conceded: Iterable[int],
                  phrasebook: Phrasebook) -> Ending:
    """``conceded`` gave up and that ended the match: the rules' ``result`` (the game's
    ``resign`` made it), or no result when the rules give none."""
    seats = tuple(sorted(conceded))
    if result is None:
        return Ending(how=How.CONCESSION, seats=seats)
    return Ending(how=How.CONCESSION, ranking=tuple(tuple(g) for g in result.ranking),
                  scores=dict(result.scores), winners=tuple(result.winners),
                  is_draw=result.is_draw, seats=seats, reason=_reason(result, phrasebook),
                  written=str(result.reason))


def by_forfeit(seats: Iterable[int], forfeits: Iterable[int]) -> Ending:
    """``forfeits`` lost by missing deadlines; the others win (all forfeited: shared)."""
    seats, forfeits = sorted(seats), sorted(forfeits)
    others = [n for n in seats if n not in forfeits]
    ranking = (tuple(others), tuple(forfeits)) if others else (tuple(forfeits),)
    return Ending(how=How.FORFEIT, ranking=ranking,
                  scores={n: (0 if n in forfeits else 1) for n in seats},
                  winners=tuple(others), is_draw=not others, seats=tuple(forfeits))


def by_nobody() -> Ending:
    """Nobody had anything left to do: the match ends without a result."""
    return Ending(how=How.NOBODY)


def by_agreement(seats: Iterable[int], standing: Iterable[int]) -> Ending:
    """The seats ``standing`` (still in) agreed to a draw: they share the first place, every
    other seat (out of the match already) comes after them. Ladders rate it and tournaments
    score it as a draw, like a game's own draw."""
    seats, standing = sorted(seats), sorted(standing)
    out = tuple(n for n in seats if n not in standing)
    return Ending(how=How.AGREEMENT,
                  ranking=(tuple(standing), out) if out else (tuple(standing),),
                  scores={n: (round(1 / len(standing), 6) if n in standing else 0)
                          for n in seats},
                  is_draw=True, seats=tuple(standing))


def by_cancel(standing: Iterable[int]) -> Ending:
    """The seats ``standing`` agreed to cancel the match: no result, no rating."""
    return Ending(how=How.CANCEL, seats=tuple(sorted(standing)))


# -- a Text as data ---------------------------------------------------------------------------

def _text_as_json(text: Text) -> dict[str, Any]:
    """{"reason": template, "params": {...}} and the forms a template may have (plural,
    context, capital), each value as data (another text is {"reason", "params"} in turn)."""
    out: dict[str, Any] = {"reason": text.template,
                           "params": {key: _value_as_json(value)
                                      for key, value in text.params.items()}}
    if text.plural:
        out["plural"], out["number"] = text.plural, text.number
    if text.context:
        out["context"] = text.context
    if text.capital:
        out["capital"] = True
    return out


def _value_as_json(value: Any) -> Any:
    if isinstance(value, Text):
        return _text_as_json(value)
    if isinstance(value, (tuple, list)):
        return [_value_as_json(item) for item in value]
    return value


def _text_from_json(data: Mapping[str, Any]) -> Text:
    return Text(str(data["reason"]),
                {str(key): _value_from_json(value)
                 for key, value in (data.get("params") or {}).items()},
                plural=str(data.get("plural") or ""), number=str(data.get("number") or ""),
                context=str(data.get("context") or ""), capital=bool(data.get("capital")))


def _value_from_json(value: Any) -> Any:
    if isinstance(value, Mapping) and isinstance(value.get("reason"), str):
        return _text_from_json(value)
    if isinstance(value, list):
        return tuple(_value_from_json(item) for item in value)
    return value
