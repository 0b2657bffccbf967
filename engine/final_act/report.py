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

from engine.final_act.board import SEAT_NAMES, SEATS
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


class _Words:
    """How sides and units are named for one reader (``seat`` None: a spectator)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def side(self, seat: int) -> str:
        return "you" if seat == self.seat else SEAT_NAMES[seat]

    def side_owner(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{SEAT_NAMES[seat]}'s"

    def unit(self, seat: int, name: str) -> str:
        return f"your {name}" if seat == self.seat else f"{SEAT_NAMES[seat]} {name}"

    def shooter(self, by: dict[str, Any], count: int) -> str:
        if by.get("unit") is None:
            strike = f"{self.side_owner(by['seat'])} air strike"
            return strike if count == 1 else f"{count} shells of {strike}"
        who = self.unit(by["seat"], by["unit"])
        return f"{who}'s shell" if count == 1 else f"{count} shells from {who}"


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


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


def _reword(text: str, words: _Words) -> str:
    """The engine's text with its unit labels ("Alpha 2") named for this reader ("your 2")."""
    seats = {name: seat for seat, name in SEAT_NAMES.items()}
    return _UNIT_LABEL.sub(lambda m: words.unit(seats[m.group(1)], m.group(2)), text)


def _movement(story: _UnitStory, words: _Words) -> tuple[str, str]:
    """The clause about where the unit went, and a bounce reason to tell after it."""
    throttle = " at full throttle" if story.full_throttle else ""
    if story.move is not None:
        move = story.move
        turn = f", turning to face {move['facing']}," if _turned(move) else ""
        text = f"moved {move['from']} → {move['to']}{throttle}{turn}"
        return text.rstrip(","), ""
    if story.bounce is not None:
        bounce = story.bounce
        return (
            f"tried to move{throttle} to {bounce['to']} but stayed at {bounce['from']}",
            _reword(str(bounce.get("reason") or ""), words),
        )
    if story.repair_declared and story.repair is not None:
        return f"stayed behind its berm at {story.repair['at']} to repair", ""
    if story.shells:
        return f"stayed at {story.shells[0]['from']}", ""
    return "", ""


def _fire(story: _UnitStory) -> str:
    if story.paid_air_strike and not story.shells:
        return "held its fire to pay for the air strike"
    if not story.shells:
        return ""
    how = " (quick shot)" if story.quick_shot else " (double shot)" if story.double_shot else ""
    targets = [s["at"] for s in story.shells]
    stopped = [s["at"] for s in story.shells if s.get("blocked")]
    text = f"fired at {_and(targets)}{how}"
    shell = "shells" if len(stopped) > 1 else "shell"
    if stopped and len(stopped) == len(targets):
        text += f", but smoke stopped the {shell}"
    elif stopped:
        text += f", but smoke stopped the {shell} at {_and(stopped)}"
    return text


def _damage(story: _UnitStory, words: _Words, first: bool) -> str:
    """The clause about hits taken (``first``: no earlier clause said where the unit stood)."""
    if story.run_over is not None:
        by = story.run_over["by"]
        where = f" at {story.run_over['at']}" if first else ""
        return f"was run over{where} by {words.unit(by['seat'], by['unit'])} — out"
    if not story.hits:
        return ""
    counts: dict[tuple[int, str | None], int] = {}
    for hit in story.hits:
        by = hit["by"]
        counts[(by["seat"], by.get("unit"))] = counts.get((by["seat"], by.get("unit")), 0) + 1
    shooters = [
        words.shooter({"seat": seat, "unit": unit}, n) for (seat, unit), n in counts.items()
    ]
    where = f" at {story.hits[0]['at']}" if first else ""
    outcome = "out" if any(h.get("out") for h in story.hits) else "damaged"
    if story.wreck is not None:
        outcome += f", left as a wreck on {story.wreck['at']}"
    return f"was hit{where} by {_and(shooters)} — {outcome}"


def _after(story: _UnitStory) -> list[str]:
    clauses = []
    for medic in story.medic:
        if medic.get("starts"):
            clauses.append(f"started repairing {medic['unit']} at {medic['at']}")
        else:
            clauses.append(f"finished repairing {medic['unit']}")
    if story.repair is not None and not story.repair.get("failed"):
        clauses.append("had its damage repaired")
    if story.red_cross is not None:
        back = "brought back damaged" if any(h.get("out") for h in story.hits) else "patched up"
        clauses.append(f"was {back} by the Red Cross at {story.red_cross['at']}")
    if story.breakthrough is not None:
        clauses.append(f"broke through at {story.breakthrough['at']}")
    return clauses


def _unit_sentence(key: Key, story: _UnitStory, words: _Words) -> str | None:
    movement, reason = _movement(story, words)
    clauses = [c for c in (movement, _fire(story)) if c]
    damage = _damage(story, words, first=not clauses)
    clauses += [c for c in (damage, *_after(story)) if c]
    if not clauses:
        return None
    if reason:
        # The reason follows the bounce: after a colon at the end, in brackets mid-sentence.
        at = clauses.index(movement)
        if at == len(clauses) - 1:
            clauses[at] += f": {reason}"
        else:
            clauses[at] += f" ({reason})"
    return _sentence(f"{words.unit(*key)} {_and(clauses)}")


def _other_sentence(event: Event, words: _Words) -> str | None:
    kind = event["type"]
    seat = event.get("seat")
    side = words.side(seat) if seat in SEATS else ""
    token = event.get("token")
    if kind == "token" and token == "quick_sand":
        return _sentence(
            f"{side} dropped quick sand on {event['at']}: nobody may enter it this round "
            "and the next"
        )
    if kind == "token" and token == "mine_clearing":
        return _sentence(
            f"{side} cleared a way through the minefield at {event['at']} for this round "
            "and the next"
        )
    if kind == "token" and token == "smoke":
        return _sentence(f"{side} laid smoke on {event['at']}")
    if kind == "token" and token == "air_strike":
        fire = _and(list(event.get("fire") or []))
        paid = list(event.get("paid_by") or [])
        by = f", paid for by {_and(paid)}" if paid else ""
        return _sentence(f"{side} called an air strike from {event['at']} on {fire}{by}")
    if kind == "token" and token == "red_cross":
        owner = words.side_owner(seat) if seat in SEATS else ""
        if event.get("failed") and "unit" in event:
            return _sentence(f"{owner} Red Cross at {event['at']} could not repair {event['unit']}")
        if event.get("failed"):
            return _sentence(f"{owner} Red Cross could not go on {event['at']}: it is occupied")
        return _sentence(f"{side} placed the Red Cross on {event['at']}")
    if kind == "officer_loss":
        return _sentence(
            f"{side} lost officer {event['unit']}: one shell fewer next round while "
            f"{'you have' if seat == words.seat else 'it has'} 3 or more tanks"
        )
    if kind == "result":
        winner = event.get("winner")
        if winner in SEATS:
            win = "win" if winner == words.seat else "wins"
            return f"{_sentence(f'{words.side(winner)} {win} the match')} {event['text']}"
        return _sentence(str(event.get("text", "The match is over.")))
    if kind == "setup":
        return _setup_sentence(event, words)
    text = event.get("text")
    return _sentence(text) if isinstance(text, str) and text else None


def _setup_sentence(event: Event, words: _Words) -> str:
    t = event["terrain"]
    mine = t["minefield"]
    # In unit order: the stored event's key order depends on the database (jsonb sorts keys).
    placed = sorted(event["units"].items(), key=lambda item: _order((0, item[0])))
    units = ", ".join(f"{name} {spec['at']}" for name, spec in placed)
    berms = _and([*t["large_berm"], *t["small_berms"]])
    return _sentence(
        f"{words.side(event['seat'])} deployed {units}, with berms on {berms}, a swamp on "
        f"{' '.join(t['swamp'])} and a minefield on {' '.join(mine['squares'])} (passage "
        f"{mine['passage']} heading {mine['arrow']})"
    )


def _order(key: Key) -> tuple[int, int]:
    seat, name = key
    return seat, ALL_UNITS.index(name) if name in ALL_UNITS else len(ALL_UNITS)


def round_story(events: list[Event], seat: int | None = None) -> list[str]:
    """The round report in sentences (see the module docstring); ``seat`` is the reader."""
    words = _Words(seat)
    stories, others = _gather(events)
    sentences = []
    for key in sorted(stories, key=_order):
        sentence = _unit_sentence(key, stories[key], words)
        if sentence:
            sentences.append(sentence)
    for event in others:
        sentence = _other_sentence(event, words)
        if sentence:
            sentences.append(sentence)
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


def round_headline(events: list[Event], round_no: int | None = None) -> str:
    """One line for the round: losses, breakthroughs and the result ("Round 4: ..." with
    ``round_no``; the setup reveal is "Both sides deployed.")."""
    if any(e["type"] == "setup" for e in events):
        return "Both sides deployed."
    prefix = f"Round {round_no}: " if round_no is not None else ""
    parts = []
    lost = lost_units(events)
    for seat in SEATS:
        if lost[seat]:
            parts.append(f"{SEAT_NAMES[seat]} lost {_and(lost[seat])}")
    for seat in SEATS:
        through = [
            e["unit"] for e in events if e["type"] == "breakthrough" and e.get("seat") == seat
        ]
        if through:
            parts.append(f"{SEAT_NAMES[seat]} broke through with {_and(through)}")
    line = "; ".join(parts) if parts else "no losses"
    result = next((e for e in events if e["type"] == "result"), None)
    ending = ""
    if result is not None:
        winner = result.get("winner")
        ending = f" {SEAT_NAMES[winner]} wins." if winner in SEATS else " Draw."
    text = f"{prefix}{line}."
    if not prefix:
        text = text[:1].upper() + text[1:]
    return text + ending
