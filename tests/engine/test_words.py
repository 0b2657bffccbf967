"""The engine's words: ``Text`` is English that the portal can translate, and every sentence a
game stores in English (a result's reason, a logbook line, a bounce's reason) reads back through
the game's ``Phrasebook`` as the ``Text`` it was made from."""

from __future__ import annotations

import json
import pickle
import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import engine
from engine import PhaseKind, Phrasebook, Problem, RuleError, Text, ngettext, pgettext
from engine.base import gettext_noop as _
from engine.ending import by_forfeit, by_nobody


class Shouting:
    """A translator for the tests: every template in capitals (placeholders kept), so that
    what was translated shows, and a plural's and a context's choice too."""

    @staticmethod
    def _up(template: str) -> str:
        pieces = re.split(r"(%\(\w+\)s)", template)
        return "".join(p if p.startswith("%(") else p.upper() for p in pieces)

    def gettext(self, message: str) -> str:
        return self._up(message)

    def ngettext(self, singular: str, plural: str, number: int) -> str:
        return self._up(singular if number == 1 else plural) + "!"

    def pgettext(self, context: str, message: str) -> str:
        return f"{self._up(message)}<{context}>"


def test_a_text_is_its_english_and_carries_its_template():
    text = Text(_("%(unit)s fired at %(squares)s."),
                {"unit": Text(_("your %(name)s"), {"name": "C"}), "squares": ("e7", "f8")})
    assert text == "your C fired at e7, f8."
    assert isinstance(text, str) and json.dumps(text) == '"your C fired at e7, f8."'
    assert text.render(Shouting()) == "YOUR C FIRED AT e7, f8."
    assert pickle.loads(pickle.dumps(text)).render(Shouting()) == text.render(Shouting())
    assert text.upper() == "YOUR C FIRED AT E7, F8." and type(text.upper()) is str


def test_plurals_contexts_capitals_and_blocks_of_lines():
    one = ngettext("%(count)s shell", "%(count)s shells", "count", {"count": 1})
    two = one.changed(params={"count": 2})
    assert (one, two) == ("1 shell", "2 shells")
    assert two.render(Shouting()) == "2 SHELLS!"
    assert pgettext("unit state", "out").render(Shouting()) == "OUT<unit state>"
    assert Text(_("%(who)s won."), {"who": Text(_("you"))}, capital=True) == "You won."
    block = Text.lines(["a1 b1", Text(_("Key: %(mark)s"), {"mark": "#"}), ""])
    assert block == "a1 b1\nKey: #\n" and block.render(Shouting()) == "a1 b1\nKEY: #\n"


def test_a_problem_keeps_its_english_and_its_text():
    problem = Problem("units.C", _("%(unit)s cannot move %(move)s."), {"unit": "C", "move": "X"})
    assert str(problem) == "units.C: C cannot move X."
    assert problem.message == "C cannot move X." and problem.as_dict()["message"] == problem.message
    assert problem.text.render(Shouting()) == "C CANNOT MOVE X."
    assert problem == Problem("units.C", "C cannot move X.")
    assert pickle.loads(pickle.dumps(problem)) == problem
    assert RuleError("Plain words.").problems[0].message == "Plain words."


def test_a_phrasebook_reads_its_sentences_back():
    book = Phrasebook(_("%(who)s — Shot at %(square)s (%(outcome)s)"),
                      parts=[_("hit wall, durability %(left)s"), _("hit"), _("hit, wall down")],
                      names={"armistice": _("The Council wins.")})
    for english in ("Corey — Shot at C5 (hit wall, durability 2)", "A — B — Shot at C5 (hit)",
                    "Dana — Shot at D4 (hit, wall down)"):
        found = book.read(english)
        assert isinstance(found, Text) and found == english
    assert book.read("Corey — Shot at C5 (hit)").render(Shouting()) == "Corey — SHOT AT C5 (HIT)"
    assert book.read("armistice").render(Shouting()) == "THE COUNCIL WINS."
    assert book.read("Something else") == "Something else"
    assert not isinstance(book.read("Something else"), Text)


# -- every stored sentence reads back ----------------------------------------------------------

def _stored_sentences(slug: str, seed: int) -> list[tuple[str, str]]:
    """(what, English) of every sentence a random playout of ``slug`` stored: result reasons,
    logbook lines, bounce reasons."""
    game = engine.get(slug)
    options = game.validate_options(game.default_options())
    if slug == "tank-game":
        options = game.validate_options({**options, "cooldown_minutes": 0,
                                         "armistice_limit": 6})
    seats = range(1, game.min_seats + 1)
    state = game.start(len(seats), options, seed)
    rng = random.Random(seed)
    now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    found: list[tuple[str, str]] = []
    for _step in range(300):
        result = game.result(state)
        if result is not None:
            found.append(("result", result.reason))
            break
        prompts = game.prompts(state)
        events: list[dict[str, Any]] = []
        if any(p.kind == PhaseKind.SIMULTANEOUS for p in prompts.values()):
            sheets = {s: game.validate(state, s, game.bot_submission(state, s, "random", rng))
                      for s in prompts}
            outcome = game.resolve(state, sheets, rng)
        elif any(p.kind == PhaseKind.CONTINUOUS for p in prompts.values()):
            outcome = None
            for seat in prompts:
                try:
                    action = game.bot_submission(state, seat, "random", rng)
                    outcome = game.apply(state, seat, action, now, rng)
                    break
                except RuleError:
                    continue
            if outcome is None:
                now += timedelta(days=1)
                outcome = game.tick(state, game.next_tick_at(state, now) or now, rng)
        else:
            seat = next(iter(prompts))
            outcome = game.apply(state, seat, game.bot_submission(state, seat, "random", rng),
                                 now, rng)
        state, events = outcome.state, outcome.events
        for event in events:
            if slug == "tank-game" and isinstance(event.get("text"), str):
                found.append(("logbook", event["text"]))
            if event.get("type") == "bounce":
                found.append(("bounce", event["reason"]))
    return found


@pytest.mark.parametrize("slug", sorted(s for s, g in engine.games().items()
                                        if type(g).__module__.startswith("engine.")))
def test_every_stored_sentence_reads_back_as_the_text_it_was_made_from(slug):
    game = engine.get(slug)
    sentences = [s for seed in (0, 1) for s in _stored_sentences(slug, seed)]
    assert sentences
    unread = [(what, english) for what, english in sentences
              if not isinstance(game.phrasebook.read(english), Text)]
    assert unread == []
    for _what, english in sentences:
        text = game.phrasebook.read(english)
        assert text == english or english in ("armistice", "last-man-standing")
        assert text.render(Shouting()) != english  # the whole sentence was translatable


def test_the_lifecycles_own_endings_keep_their_english_and_read_back_as_values():
    """A forfeit's and a nobody-left's stored English is what it always was (so records made
    before the ``Ending`` still verify), and it is never what is read: the value is."""
    forfeit = by_forfeit([1, 2], [2]).as_json()
    assert forfeit["reason"] == "seat 2 forfeited after missing too many deadlines in a row"
    assert forfeit["ending"] == {"how": "forfeit", "seats": [2], "reason": None, "params": {}}
    assert by_nobody().as_json()["reason"] == "Nobody has anything left to do."
