"""The round report in words: one sentence per unit that did something, then the rest.

``round_story(events, seat)`` turns the events of one resolution (``resolve`` / the view's
``last_round``; formats in rounds.py, movement.py, fire.py, end_of_round.py and setup.py) into
sentences a person can follow::

    Alpha 1 stayed at d5 and fired at g8 and c7.
    Alpha 2A tried to move to j6 but stayed at i5: Delta 2A also moved there.
    Delta 2A moved f11 → f9 at full throttle and was hit by Alpha C's shell — out.
    Delta laid smoke on e7.

Unit sentences come first, Alpha's then Delta's, each side in the order C 1 1A 1B 2 2A 2B AT1
AT2 R; then tokens, officer loss and the result in the order they happened. With ``seat`` the
viewer's own units read "your C" and its side "you". ``round_headline`` sums a round up in one
line ("Round 4: Alpha lost 1A; Delta lost 1 and 2B."). Events are only read, never changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.base import Phrasebook, Text, ngettext, pgettext
from engine.base import gettext_noop as _
from engine.final_act import end_of_round, fire, movement, rounds
from engine.final_act.board import SEAT_NAMES, SEATS
from engine.final_act.end_of_round import RESULTS
from engine.final_act.movement import BOUNCES
from engine.final_act.setup import DEPLOYED
from engine.final_act.units import ALL_UNITS

Event = dict[str, Any]
Key = tuple[int, str]


@dataclass
class _UnitStory:
    """Everything that happened to one unit this round, gathered from the events."""

    move: Event | None = None
    bounce: Event | None = None
    shells: list[Event] = field(default_factory=list)
    hits: list[Event] = field(default_factory=list)
    run_over: Event | None = None
    wreck: Event | None = None
    breakthrough: Event | None = None
    repair_declared: bool = False
    repair: Event | None = None
    red_cross: Event | None = None
    medic: list[Event] = field(default_factory=list)
    full_throttle: bool = False
    quick_shot: bool = False
    double_shot: bool = False
    paid_air_strike: bool = False


# The English the engine stores that a report reads back (see ``Phrasebook``): results, why a
# unit stayed, and every event's "text" (the board's overlays show them).
PHRASEBOOK = Phrasebook(
    *RESULTS, *BOUNCES, *movement.TEXTS, *fire.TEXTS, *rounds.TEXTS, *end_of_round.TEXTS,
    DEPLOYED, parts=(*BOUNCES, *fire.SHOOTERS, *end_of_round.RED_CROSS_REASONS))


class _Words:
    """How sides and units are named for one reader (``seat`` None: a spectator)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def mine(self, seat: Any) -> bool:
        return self.seat is not None and seat == self.seat

    def unit(self, seat: int, name: str) -> str | Text:
        return Text(_("your %(unit)s"), {"unit": name}) if seat == self.seat else \
            f"{SEAT_NAMES[seat]} {name}"

    def shooter(self, by: dict[str, Any], count: int) -> Text:
        if by.get("unit") is None:
            strike = (Text(_("your air strike")) if by["seat"] == self.seat else
                      Text(_("%(side)s's air strike"), {"side": SEAT_NAMES[by["seat"]]}))
            return strike if count == 1 else Text(_("%(count)s shells of %(strike)s"),
                                                  {"count": count, "strike": strike})
        who = self.unit(by["seat"], by["unit"])
        return Text(_("%(unit)s's shell"), {"unit": who}) if count == 1 else \
            Text(_("%(count)s shells from %(unit)s"), {"count": count, "unit": who})

    def said(self, mine: str, theirs: str, seat: Any, params: dict[str, Any]) -> Text:
        """A sentence about a side: ``mine`` when it is the reader's ("You laid smoke..."),
        else ``theirs`` with the side's name ("Delta laid smoke...")."""
        if self.mine(seat):
            return Text(mine, params, capital=True)
        return Text(theirs, {"side": SEAT_NAMES.get(seat, ""), **params}, capital=True)


def _and(items: list[Any]) -> Any:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Text(_("%(items)s and %(last)s"), {"items": tuple(items[:-1]), "last": items[-1]})


def _sentence(text: str) -> str:
    text = text.strip()
    if not text.endswith((".", "!")):
        text += "."
    return text[:1].upper() + text[1:]


def _turned(event: Event) -> bool:
    """Whether a move event includes a change of facing.

    Move events give the facing after the move but not the one before; the engine's own text
    names the turn, so it is read from there when the event has no ``turned`` field."""
    if "turned" in event:
        return bool(event["turned"])
    return " turned to face " in str(event.get("text", ""))


def _unit_key(event: Event) -> Key | None:
    unit = event.get("unit")
    if unit is None or event.get("seat") not in SEATS:
        return None
    return int(event["seat"]), str(unit)


def _gather(events: list[Event]) -> tuple[dict[Key, _UnitStory], list[Event]]:
    """Unit stories by (seat, name), and the events that belong to no single unit."""
    stories: dict[Key, _UnitStory] = {}
    others: list[Event] = []
    declared_repairs = {
        _unit_key(e) for e in events if e["type"] == "declare" and e.get("declare") == "repair"
    }

    def story(key: Key) -> _UnitStory:
        return stories.setdefault(key, _UnitStory())

    for event in events:
        kind = event["type"]
        key = _unit_key(event)
        if kind in ("move", "bounce", "breakthrough", "wreck") and key is not None:
            setattr(story(key), kind, event)
        elif kind == "shell" and key is not None:
            story(key).shells.append(event)
        elif kind == "hit" and key is not None:
            story(key).hits.append(event)
        elif kind == "out" and key is not None and event.get("cause") == "run_over":
            story(key).run_over = event
        elif kind == "declare" and key is not None:
            if event.get("declare") == "repair":
                story(key).repair_declared = True
            else:
                story(key).double_shot = True
        elif kind == "repair" and key is not None:
            if event.get("token") == "red_cross":
                story(key).red_cross = event
            elif key in declared_repairs:
                story(key).repair = event
            else:
                story((key[0], "R")).medic.append(event)
        elif kind == "token" and event.get("token") == "full_throttle" and key is not None:
            story(key).full_throttle = True
        elif kind == "token" and event.get("token") == "quick_shot" and key is not None:
            story(key).quick_shot = True
        else:
            if kind == "token" and event.get("token") == "air_strike":
                for name in event.get("paid_by") or []:
                    story((event["seat"], name)).paid_air_strike = True
            if kind != "shell":  # air strike shells are told with the air strike token
                others.append(event)
    return stories, others


_UNIT_LABEL = re.compile(
    r"\b(Alpha|Delta) (" + "|".join(sorted(ALL_UNITS, key=len, reverse=True)) + r")\b"
)


def _reword(reason: str, words: _Words) -> Any:
    """A bounce's reason as the engine wrote it, its unit labels ("Alpha 2") named for this
    reader ("your 2")."""
    seats = {name: seat for seat, name in SEAT_NAMES.items()}
    text = PHRASEBOOK.read(reason)
    if not isinstance(text, Text):
        return _UNIT_LABEL.sub(lambda m: str(words.unit(seats[m.group(1)], m.group(2))), text)

    def named(value: Any) -> Any:
        labels = [_UNIT_LABEL.fullmatch(item) for item in value.split(", ")] \
            if isinstance(value, str) else [None]
        if not all(labels):
            return value
        units = tuple(words.unit(seats[m.group(1)], m.group(2)) for m in labels if m)
        return units[0] if len(units) == 1 else units

    return text.changed(params={key: named(value) for key, value in text.params.items()})


def _movement(story: _UnitStory, words: _Words) -> tuple[Any, Any]:
    """The clause about where the unit went, and a bounce reason to tell after it."""
    if story.move is not None:
        move = story.move
        turned = _turned(move)
        if story.full_throttle:
            template = (_("moved %(from)s → %(to)s at full throttle, turning to face %(facing)s")
                        if turned else _("moved %(from)s → %(to)s at full throttle"))
        else:
            template = (_("moved %(from)s → %(to)s, turning to face %(facing)s") if turned
                        else _("moved %(from)s → %(to)s"))
        return Text(template, {"from": move["from"], "to": move["to"],
                               "facing": move["facing"]}), ""
    if story.bounce is not None:
        bounce = story.bounce
        template = (_("tried to move at full throttle to %(to)s but stayed at %(from)s")
                    if story.full_throttle else _("tried to move to %(to)s but stayed at %(from)s"))
        return (Text(template, {"to": bounce["to"], "from": bounce["from"]}),
                _reword(str(bounce.get("reason") or ""), words))
    if story.repair_declared and story.repair is not None:
        return Text(_("stayed behind its berm at %(square)s to repair"),
                    {"square": story.repair["at"]}), ""
    if story.shells:
        return Text(_("stayed at %(square)s"), {"square": story.shells[0]["from"]}), ""
    return "", ""


def _fire(story: _UnitStory) -> Any:
    if story.paid_air_strike and not story.shells:
        return Text(_("held its fire to pay for the air strike"))
    if not story.shells:
        return ""
    targets = _and([s["at"] for s in story.shells])
    stopped = [s["at"] for s in story.shells if s.get("blocked")]
    template = (_("fired at %(targets)s (quick shot)") if story.quick_shot else
                _("fired at %(targets)s (double shot)") if story.double_shot else
                _("fired at %(targets)s"))
    text = Text(template, {"targets": targets})
    if stopped and len(stopped) == len(story.shells):
        return ngettext("%(fire)s, but smoke stopped the shell",
                        "%(fire)s, but smoke stopped the shells", "count",
                        {"fire": text, "count": len(stopped)})
    if stopped:
        return ngettext("%(fire)s, but smoke stopped the shell at %(squares)s",
                        "%(fire)s, but smoke stopped the shells at %(squares)s", "count",
                        {"fire": text, "count": len(stopped), "squares": _and(stopped)})
    return text


def _damage(story: _UnitStory, words: _Words, first: bool) -> Any:
    """The clause about hits taken (``first``: no earlier clause said where the unit stood)."""
    if story.run_over is not None:
        by = story.run_over["by"]
        template = (_("was run over at %(square)s by %(unit)s — out") if first else
                    _("was run over by %(unit)s — out"))
        return Text(template, {"square": story.run_over["at"],
                               "unit": words.unit(by["seat"], by["unit"])})
    if not story.hits:
        return ""
    counts: dict[tuple[int, str | None], int] = {}
    for hit in story.hits:
        by = hit["by"]
        counts[(by["seat"], by.get("unit"))] = counts.get((by["seat"], by.get("unit")), 0) + 1
    shooters = [
        words.shooter({"seat": seat, "unit": unit}, n) for (seat, unit), n in counts.items()
    ]
    outcome = (pgettext("unit state", "out") if any(h.get("out") for h in story.hits)
               else pgettext("unit state", "damaged"))
    if story.wreck is not None:
        outcome = Text(_("%(outcome)s, left as a wreck on %(square)s"),
                       {"outcome": outcome, "square": story.wreck["at"]})
    template = (_("was hit at %(square)s by %(shooters)s — %(outcome)s") if first else
                _("was hit by %(shooters)s — %(outcome)s"))
    return Text(template, {"square": story.hits[0]["at"], "shooters": _and(shooters),
                           "outcome": outcome})


def _after(story: _UnitStory) -> list[Text]:
    clauses = []
    for medic in story.medic:
        if medic.get("starts"):
            clauses.append(Text(_("started repairing %(unit)s at %(square)s"),
                                {"unit": medic["unit"], "square": medic["at"]}))
        else:
            clauses.append(Text(_("finished repairing %(unit)s"), {"unit": medic["unit"]}))
    if story.repair is not None and not story.repair.get("failed"):
        clauses.append(Text(_("had its damage repaired")))
    if story.red_cross is not None:
        template = (_("was brought back damaged by the Red Cross at %(square)s")
                    if any(h.get("out") for h in story.hits) else
                    _("was patched up by the Red Cross at %(square)s"))
        clauses.append(Text(template, {"square": story.red_cross["at"]}))
    if story.breakthrough is not None:
        clauses.append(Text(_("broke through at %(square)s"),
                            {"square": story.breakthrough["at"]}))
    return clauses


def _unit_sentence(key: Key, story: _UnitStory, words: _Words) -> Text | None:
    movement, reason = _movement(story, words)
    clauses = [c for c in (movement, _fire(story)) if c]
    damage = _damage(story, words, first=not clauses)
    clauses += [c for c in (damage, *_after(story)) if c]
    if not clauses:
        return None
    if reason:
        # The reason follows the bounce: after a colon at the end, in brackets mid-sentence.
        at = clauses.index(movement)
        template = (_("%(clause)s: %(reason)s") if at == len(clauses) - 1 else
                    _("%(clause)s (%(reason)s)"))
        clauses[at] = Text(template, {"clause": movement, "reason": reason})
    return Text(_("%(unit)s %(actions)s."), {"unit": words.unit(*key), "actions": _and(clauses)},
                capital=True)


def _other_sentence(event: Event, words: _Words) -> Text | str | None:
    kind = event["type"]
    seat = event.get("seat")
    token = event.get("token")
    at = {"square": event.get("at")}
    if kind == "token" and token == "quick_sand":
        return words.said(
            _("You dropped quick sand on %(square)s: nobody may enter it this round and the "
              "next."),
            _("%(side)s dropped quick sand on %(square)s: nobody may enter it this round and "
              "the next."), seat, at)
    if kind == "token" and token == "mine_clearing":
        return words.said(
            _("You cleared a way through the minefield at %(square)s for this round and the "
              "next."),
            _("%(side)s cleared a way through the minefield at %(square)s for this round and "
              "the next."), seat, at)
    if kind == "token" and token == "smoke":
        return words.said(_("You laid smoke on %(square)s."),
                          _("%(side)s laid smoke on %(square)s."), seat, at)
    if kind == "token" and token == "air_strike":
        strike = {**at, "targets": _and(list(event.get("fire") or [])),
                  "paid": _and(list(event.get("paid_by") or []))}
        if event.get("paid_by"):
            return words.said(
                _("You called an air strike from %(square)s on %(targets)s, paid for by "
                  "%(paid)s."),
                _("%(side)s called an air strike from %(square)s on %(targets)s, paid for by "
                  "%(paid)s."), seat, strike)
        return words.said(_("You called an air strike from %(square)s on %(targets)s."),
                          _("%(side)s called an air strike from %(square)s on %(targets)s."),
                          seat, strike)
    if kind == "token" and token == "red_cross":
        if event.get("failed") and "unit" in event:
            return words.said(
                _("Your Red Cross at %(square)s could not repair %(unit)s."),
                _("%(side)s's Red Cross at %(square)s could not repair %(unit)s."), seat,
                {**at, "unit": event["unit"]})
        if event.get("failed"):
            return words.said(_("Your Red Cross could not go on %(square)s: it is occupied."),
                              _("%(side)s's Red Cross could not go on %(square)s: it is "
                                "occupied."), seat, at)
        return words.said(_("You placed the Red Cross on %(square)s."),
                          _("%(side)s placed the Red Cross on %(square)s."), seat, at)
    if kind == "officer_loss":
        return words.said(
            _("You lost officer %(unit)s: one shell fewer next round while you have 3 or more "
              "tanks."),
            _("%(side)s lost officer %(unit)s: one shell fewer next round while it has 3 or "
              "more tanks."), seat, {"unit": event["unit"]})
    if kind == "result":
        reason = PHRASEBOOK.read(str(event.get("text", "")))
        winner = event.get("winner")
        if winner in SEATS:
            return words.said(_("You win the match. %(reason)s"),
                              _("%(side)s wins the match. %(reason)s"), winner,
                              {"reason": reason})
        if isinstance(reason, Text):
            return reason.changed(capital=True)
        return _sentence(reason or "The match is over.")
    if kind == "setup":
        return _setup_sentence(event, words)
    text = event.get("text")
    if not isinstance(text, str) or not text:
        return None
    found = PHRASEBOOK.read(text)
    return found.changed(capital=True) if isinstance(found, Text) else _sentence(found)


def _setup_sentence(event: Event, words: _Words) -> Text:
    t = event["terrain"]
    mine = t["minefield"]
    # In unit order: the stored event's key order depends on the database (jsonb sorts keys).
    placed = sorted(event["units"].items(), key=lambda item: _order((0, item[0])))
    return words.said(
        _("You deployed %(units)s, with berms on %(berms)s, a swamp on %(swamp)s and a "
          "minefield on %(minefield)s (passage %(passage)s heading %(arrow)s)."),
        _("%(side)s deployed %(units)s, with berms on %(berms)s, a swamp on %(swamp)s and a "
          "minefield on %(minefield)s (passage %(passage)s heading %(arrow)s)."),
        event["seat"],
        {"units": ", ".join(f"{name} {spec['at']}" for name, spec in placed),
         "berms": _and([*t["large_berm"], *t["small_berms"]]), "swamp": " ".join(t["swamp"]),
         "minefield": " ".join(mine["squares"]), "passage": mine["passage"],
         "arrow": mine["arrow"]})


def _order(key: Key) -> tuple[int, int]:
    seat, name = key
    return seat, ALL_UNITS.index(name) if name in ALL_UNITS else len(ALL_UNITS)


def round_story(events: list[Event], seat: int | None = None) -> list[str]:
    """The round report in sentences (see the module docstring), each a ``Text`` the portal
    translates; ``seat`` is the reader."""
    words = _Words(seat)
    stories, others = _gather(events)
    sentences: list[str] = []
    for key in sorted(stories, key=_order):
        sentence = _unit_sentence(key, stories[key], words)
        if sentence:
            sentences.append(sentence)
    for event in others:
        found = _other_sentence(event, words)
        if found:
            sentences.append(found)
    return sentences


def lost_units(events: list[Event]) -> dict[int, list[str]]:
    """Units each side lost in these events (put out and not brought back by the Red Cross)."""
    out: set[Key] = set()
    for event in events:
        key = _unit_key(event)
        if key is None:
            continue
        if (event["type"] == "hit" and event.get("out")) or event["type"] == "out":
            out.add(key)
        elif event["type"] == "repair" and event.get("token") == "red_cross":
            out.discard(key)
    return {s: [name for seat, name in sorted(out, key=_order) if seat == s] for s in SEATS}


def round_headline(events: list[Event], round_no: int | None = None) -> Text:
    """One line for the round: losses, breakthroughs and the result ("Round 4: ..." with
    ``round_no``; the setup reveal is "Both sides deployed.")."""
    if any(e["type"] == "setup" for e in events):
        return Text(_("Both sides deployed."))
    parts: list[Text] = []
    lost = lost_units(events)
    for seat in SEATS:
        if lost[seat]:
            parts.append(Text(_("%(side)s lost %(units)s"),
                              {"side": SEAT_NAMES[seat], "units": _and(lost[seat])}))
    for seat in SEATS:
        through = [
            e["unit"] for e in events if e["type"] == "breakthrough" and e.get("seat") == seat
        ]
        if through:
            parts.append(Text(_("%(side)s broke through with %(units)s"),
                              {"side": SEAT_NAMES[seat], "units": _and(through)}))
    line: Text = parts[0] if parts else Text(_("no losses"))
    for part in parts[1:]:
        line = Text(_("%(first)s; %(then)s"), {"first": line, "then": part})
    text = (Text(_("Round %(round)s: %(line)s."), {"round": round_no, "line": line})
            if round_no is not None else Text(_("%(line)s."), {"line": line}, capital=True))
    result = next((e for e in events if e["type"] == "result"), None)
    if result is None:
        return text
    winner = result.get("winner")
    if winner in SEATS:
        return Text(_("%(headline)s %(side)s wins."), {"headline": text,
                                                        "side": SEAT_NAMES[winner]})
    return Text(_("%(headline)s Draw."), {"headline": text})
