"""Reading an uploaded match record (``/matches/<id>/record.json``) and replaying it with the
pure engine, one position per step, for the analysis board.

A record downloaded from this site (``"record": "tank-games-match-record"``) is replayed by
the engine's own replay, phase by phase (its settings and logbooks included). A hand-made
record may give only: ``game`` (slug), ``options``, ``seats`` (a count or a list), ``seed``,
``phases`` (in order: ``number``, ``kind``, ``submissions`` {seat: sheet, or {"data": sheet}},
``resolved_at``), ``entries`` (a logbook game's actions and ticks, as ``Game.replay`` takes
them) and ``state_sha256`` (checked when present). Anything else is ignored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from engine import Game, OptionsError, PhaseKind, RuleError, rng_for
from engine.jsontext import JSONLimitError, read_json
from engine.record import (
    PHASE_KINDS,
    RECORD_KIND,
    RECORD_VERSION,
    check_phase_kind,
    check_record,
    phase_replay,
)
from engine.record import RecordError as EngineRecordError
from games.words import sentence

# The largest record accepted (bytes): a long finished match's record is well under it.
MAX_BYTES = 2_000_000


class RecordError(ValueError):
    """The upload is not a record this site can replay; the message says what is wrong."""


@dataclass
class Record:
    game: str
    options: dict[str, Any]
    seats: int
    seed: int | str
    phases: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    state_sha256: str = ""
    # A record as this site writes it (``games/records.py``): replayed phase by phase by the
    # engine's own replay (``engine.record.phase_replay``), settings and logbooks included.
    site_record: bool = False


@dataclass
class Step:
    state: Any
    at: str
    label: str
    events: list[dict[str, Any]] = field(default_factory=list)
    moves: dict[str, str] = field(default_factory=dict)


def state_sha256(state: Any) -> str:
    """The record's fingerprint of a state (the match-record format's definition)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def too_large() -> str:
    return _("The record is too large (at most %(size)s MB).") % {"size": MAX_BYTES // 1_000_000}


def read(raw: bytes) -> Record:
    """The record in ``raw`` (a JSON upload), or RecordError saying what is wrong."""
    if len(raw) > MAX_BYTES:
        raise RecordError(too_large())
    try:
        data = read_json(raw, max_bytes=MAX_BYTES)
    except JSONLimitError as error:
        raise RecordError(sentence(error.text)) from None
    except ValueError:
        raise RecordError(_("The file is not a JSON match record.")) from None
    if not isinstance(data, dict):
        raise RecordError(_("The file is not a JSON match record."))
    if data.get("record") == RECORD_KIND:
        return _site_record(data)
    game, options, seed = data.get("game"), data.get("options", {}), data.get("seed")
    seats = data.get("seats")
    if isinstance(seats, list):
        seats = len(seats)
    phases, entries = data.get("phases", []), data.get("entries", [])
    problems = []
    if not isinstance(game, str) or not game:
        problems.append(_("“game” must name the game."))
    if not isinstance(options, dict):
        problems.append(_("“options” must be an object."))
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= 1000:
        problems.append(_("“seats” must be the list of seats (or their number)."))
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        problems.append(_("“seed” must be the match's seed."))
    if not isinstance(phases, list) or not all(isinstance(p, dict) for p in phases):
        problems.append(_("“phases” must be a list of phases."))
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        problems.append(_("“entries” must be a list of logbook entries."))
    if problems:
        raise RecordError(" ".join(str(p) for p in problems))
    sha = data.get("state_sha256")
    return Record(game=game, options=options, seats=seats, seed=seed, phases=phases,
                  entries=entries, state_sha256=sha if isinstance(sha, str) else "")


def _site_record(data: dict[str, Any]) -> Record:
    """A record downloaded from a finished match of this site (its own format, checked as the
    engine's replay reads it)."""
    if data.get("version") != RECORD_VERSION:
        raise RecordError(_("This record's version is not one this site reads."))
    dice, seats, phases = data.get("dice"), data.get("seats"), data.get("phases")
    if (not isinstance(dice, dict) or not isinstance(dice.get("seed"), int | str)
            or not isinstance(seats, list) or not seats or not isinstance(phases, list)
            or not all(isinstance(p, dict) for p in phases)
            or not isinstance(data.get("game"), str) or not isinstance(data.get("options"), dict)):
        raise RecordError(_("The record is incomplete: it needs its game, options, seats, "
                            "dice and phases."))
    try:
        check_record(data)
    except EngineRecordError as error:
        raise RecordError(_("The record cannot be replayed: %(why)s") % {"why": error}) from None
    sha = data.get("state_sha256")
    return Record(game=data["game"], options=data["options"], seats=len(seats),
                  seed=dice["seed"], phases=phases, entries=[],
                  state_sha256=sha if isinstance(sha, str) else "", site_record=True)


def _site_steps(game: Game, record: Record, state: Any) -> Iterator[Step]:
    """One position per phase of a site record, replayed as the lifecycle played it."""
    from games.plugins import sheet_text

    at = _start_time(record)
    for phase in record.phases:
        number = phase.get("number")
        moves = {}
        if phase.get("kind") != PhaseKind.CONTINUOUS.value:
            moves = {str(sheet["seat"]): sheet_text(game, state, int(sheet["seat"]),
                                                    sheet["data"])
                     for sheet in phase.get("submissions") or []}
        try:
            state, events = phase_replay(game, state, record.seed, phase)
        except EngineRecordError as error:
            raise RecordError(_("The record does not replay: %(why)s") % {"why": error}) from None
        at = _time(phase.get("resolved_at"), at).isoformat()
        yield Step(state, at, _("Phase %(number)s") % {"number": number},
                   [event for step in events for event in step], moves)


def _sheet(value: Any) -> Any:
    """A submission as a record holds it: the sheet, or {"data": sheet, ...}."""
    return value["data"] if isinstance(value, Mapping) and "data" in value else value


def _time(value: Any, fallback: str) -> datetime:
    try:
        return datetime.fromisoformat(value if isinstance(value, str) else fallback)
    except ValueError:
        raise RecordError(_("A time in the record is not a date and time: %(value)s")
                          % {"value": str(value)[:40]}) from None


def replay(game: Game, record: Record, limit: int) -> list[Step]:
    """Every position the record goes through, from the start; RecordError when it does not
    replay (a sheet the engine refuses, a different final state) or has over ``limit``."""
    steps: list[Step] = []
    try:
        options = game.validate_options(record.options)
        if not game.min_seats <= record.seats <= game.max_seats:
            raise RecordError(_("The record's number of seats does not fit this game."))
        state = game.start(record.seats, options, record.seed)
        steps.append(Step(state, _start_time(record), _("Start")))
        for step in _steps(game, record, state):
            steps.append(step)
            if len(steps) > limit:
                raise RecordError(_("The record is too long to analyse here (over %(limit)s "
                                    "positions).") % {"limit": limit})
    except OptionsError as error:
        raise RecordError(_("The record's options are not valid: %(why)s")
                          % {"why": error}) from None
    except EngineRecordError as error:
        raise RecordError(_("The record cannot be replayed: %(why)s") % {"why": error}) from None
    except NotImplementedError:  # an input of a kind the game does not take
        raise RecordError(_("The record cannot be replayed: it holds an input this game does "
                            "not take (its rules have no such phase or setting).")) from None
    except (ArithmeticError, RecursionError):
        raise RecordError(_("The record does not replay: it is not in the format of this "
                            "site's records.")) from None
    except RuleError as error:
        raise RecordError(_("The record does not replay: %(why)s") % {"why": error}) from None
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(_("The record does not replay: it is not in the format of this "
                            "site's records.")) from None
    if record.state_sha256 and state_sha256(steps[-1].state) != record.state_sha256:
        raise RecordError(_("The record does not replay to the final state it names "
                            "(state_sha256 differs): it was changed or is for another "
                            "version of the game."))
    return steps


def _start_time(record: Record) -> str:
    for phase in record.phases:
        for key in ("opened_at", "resolved_at"):
            if isinstance(phase.get(key), str):
                return _time(phase[key], "").isoformat()
    for entry in record.entries:
        if isinstance(entry.get("at"), str):
            return _time(entry["at"], "").isoformat()
    return "2000-01-01T00:00:00+00:00"


def _steps(game: Game, record: Record, state: Any) -> Iterator[Step]:
    from games.plugins import sheet_text

    if record.site_record:
        yield from _site_steps(game, record, state)
        return
    at = _start_time(record)
    for phase in record.phases:
        number, kind = phase.get("number"), phase.get("kind")
        if kind == PhaseKind.CONTINUOUS.value:
            continue  # its actions are the logbook entries
        if not isinstance(number, int) or isinstance(number, bool):
            raise RecordError(_("Each phase needs its number."))
        if kind not in PHASE_KINDS:
            raise RecordError(_("Phase %(number)s: its kind must be simultaneous, sequential or "
                                "continuous.") % {"number": number})
        check_phase_kind(game, state, number, kind)  # (EngineRecordError: see replay)
        subs = phase.get("submissions") or {}
        if not isinstance(subs, Mapping):
            raise RecordError(_("Phase %(number)s: “submissions” must be an object.")
                              % {"number": number})
        sheets = {int(seat): game.validate(state, int(seat), _sheet(value))
                  for seat, value in subs.items()}
        when = _time(phase.get("resolved_at"), at)
        rng = rng_for(record.seed, number)
        moves = {str(s): sheet_text(game, state, s, d) for s, d in sorted(sheets.items())}
        if kind == PhaseKind.SIMULTANEOUS.value:
            outcome = game.resolve(state, sheets, rng)
            state, events = outcome.state, list(outcome.events)
        else:
            events = []
            for seat, data in sorted(sheets.items()):
                step = game.apply(state, seat, data, when, rng)
                state, events = step.state, events + list(step.events)
        at = when.isoformat()
        yield Step(state, at, _("Phase %(number)s") % {"number": number}, events, moves)
    if record.entries:
        for entry, after, events in game.replay_steps(state, record.seed, record.entries):
            if events is None:
                raise RecordError(_("The record does not replay: the engine refuses its "
                                    "logbook entry %(seq)s.") % {"seq": entry.get("seq")})
            seat = entry.get("seat")
            label = (_("Scheduled event") if entry.get("kind") == "tick" else
                     _("%(seat)s acts") % {"seat": game.seat_name(seat)})
            moves = {} if entry.get("kind") == "tick" else {
                str(seat): sheet_text(game, state, seat, entry.get("action"))}
            state = after
            yield Step(state, str(entry.get("at")), label, events, moves)
