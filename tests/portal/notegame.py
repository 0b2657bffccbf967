"""Sealed Notes: a tiny engine game whose sheets are free text, so a test can plant a
recognisable marker in a sealed sheet and look for it on every page.

Two seats (Crowd Notes: up to 30), simultaneous sealed rounds; each seat writes a note (1–200
characters). Resolving reveals the notes in events; the match ends after ``rounds`` rounds
(default 3), a draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import engine
from engine import Game, OptionsError, Outcome, PhaseKind, Problem, Prompt, Result, RuleError
from engine.base import State, Submission
from games import plugins


class SealedNotes(Game):
    slug = "sealed-notes"
    name = "Sealed Notes"
    min_seats = 2
    max_seats = 2
    seat_names = {1: "Left", 2: "Right"}
    bots = ("parrot",)

    def default_options(self) -> dict[str, Any]:
        return {"rounds": 3}

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = [Problem(str(k), f"Unknown option {k!r}.") for k in options if k != "rounds"]
        rounds = options.get("rounds", 3)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 10:
            unknown.append(Problem("rounds", "Rounds must be a whole number from 1 to 10."))
        if unknown:
            raise OptionsError(unknown)
        return {"rounds": rounds}

    def start(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        return {"round": 1, "rounds": self.validate_options(options)["rounds"], "seats": seats}

    def prompts(self, state: State) -> dict[int, Prompt]:
        if state["round"] > state["rounds"]:
            return {}
        return {seat: Prompt(PhaseKind.SIMULTANEOUS, "notes")
                for seat in range(1, state["seats"] + 1)}

    def validate(self, state: State, seat: int, submission: Any) -> Submission:
        note = submission.get("note") if isinstance(submission, Mapping) else None
        if not isinstance(note, str) or not 1 <= len(note.strip()) <= 200:
            raise RuleError([Problem("note", "Write a note of 1 to 200 characters.")])
        return {"note": note.strip()}

    def default_submission(self, state: State, seat: int) -> Submission:
        return {"note": "(silence)"}

    def resolve(self, state: State, submissions: Mapping[int, Submission],
                rng: random.Random) -> Outcome:
        events = [{"type": "notes", "text": f"Round {state['round']}: {self.seat_name(seat)} "
                   f"wrote {sheet['note']!r}."} for seat, sheet in sorted(submissions.items())]
        return Outcome({**state, "round": state["round"] + 1}, events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"round": state["round"], "rounds": state["rounds"]}

    def board_text(self, state: State, seat: int | None) -> str:
        return f"+------+\n| ROUND {state['round']}/{state['rounds']} |\n+------+"

    def text_help(self, state: State, seat: int) -> str:
        return "Write your note as plain text (1 to 200 characters)."

    def result(self, state: State) -> Result | None:
        if state["round"] <= state["rounds"]:
            return None
        seats = tuple(range(1, state["seats"] + 1))
        return Result((seats,), dict.fromkeys(seats, 0), "All notes were written.")

    def legal_actions(self, state: State, seat: int) -> list[Submission]:
        return [{"note": "hello"}]

    def bot_submission(self, state: State, seat: int, bot: str,
                       rng: random.Random) -> Submission:
        return {"note": f"parrot says {rng.randint(1, 99)}"}

    def parse_text(self, state: State, seat: int, text: str) -> Submission:
        return self.validate(state, seat, {"note": text})

    def format_text(self, state: State, seat: int, submission: Submission) -> str:
        return submission["note"]


class CrowdNotes(SealedNotes):
    """The same with up to 30 seats, for forms and pages of big matches."""

    slug = "crowd-notes"
    name = "Crowd Notes"
    max_seats = 30


SEALED_NOTES = engine.register(SealedNotes())
CROWD_NOTES = engine.register(CrowdNotes())

# Offered on the site like an installed game.
for _notes in (SEALED_NOTES, CROWD_NOTES):
    plugins.install(_notes.slug)
