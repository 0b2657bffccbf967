"""Match records: replaying a finished match offline, and checking its dice.

A record (built by the portal, ``games/records.py``; its format in docs/records.md) holds a
match's options, seats, seed and every input in order. ``replay_record`` plays it again with
the pure engine, the way the lifecycle played it: a simultaneous phase resolves its sheets with
``rng_for(seed, phase)``, a sequential one applies its sheet at the time it was resolved, an
out-of-turn setting is applied where it came in, and a continuous phase replays its logbook
(struck entries left out); a seat's concession is applied where it came in (a phase's
setting of kind "resign", a logbook entry of kind "resign"), and a seat the match's
missed-turn policy took out after a phase's sheets (the phase's ``removed``) leaves the game
as the game's ``remove_seats`` says. How the lifecycle ended a match that the rules did not
end (a forfeit after missed deadlines, nobody left to act, a draw the players agreed to) is
the record's ``end`` and is computed here by the same functions the
lifecycle uses.

Nothing here reads a file or a clock: ``engine/__main__.py`` is the command line around it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from engine import get, rng_for
from engine.base import Outcome, PhaseKind, RuleError
from engine.ending import Ending, by_agreement, by_concession, by_forfeit, by_nobody, by_rules

RECORD_KIND = "tank-games-match-record"
RECORD_VERSION = 1

END_RULES = "rules"  # the game's own result
END_FORFEIT = "forfeit"  # seats forfeited after missing too many deadlines in a row
END_NOBODY = "nobody"  # nobody had anything left to do
END_DRAW = "draw"  # the seats still in agreed to a draw (a vote of the players)
# A seat conceded and that ended the match: the result is the rules' (the concession is a
# setting of the record's phases), the end says who gave up.
END_CONCESSION = "concession"


# A phase's settings are out-of-turn inputs in order ({"seat", "data", "at"}); one with
# "kind": "resign" is that seat's concession ({"seat", "kind", "at"}), applied by ``resign``.
SETTING_RESIGN = "resign"


class RecordError(ValueError):
    """A record that cannot be replayed (not a record, an unknown game, a missing part)."""


class ReplayRefused(RecordError):
    """The rules refuse one of the record's inputs when replayed: it was not played with this
    seed (or these rules)."""


def canonical_json(value: Any) -> str:
    """The byte-stable JSON spelling hashed by ``state_sha256``."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def state_sha256(state: Any) -> str:
    """SHA-256 (hex) of ``canonical_json(state)`` in UTF-8."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def seed_commitment(seed: int | str, salt: str) -> str:
    """The commitment to a match's seed published when it starts: SHA-256 (hex) of the UTF-8
    bytes of the seed in decimal, a colon, and the salt as written (hex), e.g. "42:9f0c…"."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def commitment_matches(seed: int | str, salt: str, commitment: str) -> bool:
    return hmac.compare_digest(seed_commitment(seed, salt).encode(), str(commitment).encode())


def _normal(value: Any) -> Any:
    """``value`` as it reads after a JSON round trip (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def _time(text: Any, where: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise RecordError(f"{where}: {text!r} is not an ISO time.") from None


# --- the shape of a record, checked before anything is replayed ---------------------------

END_KINDS = (END_RULES, END_CONCESSION, END_FORFEIT, END_NOBODY, END_DRAW)
PHASE_KINDS = tuple(kind.value for kind in PhaseKind)
ENTRY_KINDS = ("action", "tick", SETTING_RESIGN)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list_of(value: Any, where: str, what: str) -> list[Any]:
    """``value`` as a list (absent or null: empty), or RecordError."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of {what}.")
    return value


def _seat_of(value: Any, seats: set[int], where: str) -> None:
    if not _is_int(value) or value not in seats:
        raise RecordError(f"{where}: {str(value)[:40]!r} is not a seat of this match "
                          f"(seats {', '.join(str(n) for n in sorted(seats))}).")


def _check_phase(phase: Any, index: int, seats: set[int]) -> None:
    if not isinstance(phase, Mapping):
        raise RecordError(f"phases[{index}] must be an object.")
    number = phase.get("number")
    if not _is_int(number):
        raise RecordError(f"phases[{index}] needs its number (a whole number).")
    where = f"phase {number}"
    kind = phase.get("kind")
    if kind not in PHASE_KINDS:
        raise RecordError(f"{where}: the kind must be one of {', '.join(PHASE_KINDS)}, "
                          f"not {str(kind)[:40]!r}.")
    for n, setting in enumerate(_list_of(phase.get("settings"), f"{where}: settings",
                                         "settings")):
        at = f"{where} setting {n + 1}"
        if not isinstance(setting, Mapping):
            raise RecordError(f"{at} must be an object.")
        _seat_of(setting.get("seat"), seats, at)
        _time(setting.get("at"), at)
        if setting.get("kind") not in (None, SETTING_RESIGN):
            raise RecordError(f"{at}: unknown kind {str(setting.get('kind'))[:40]!r}.")
        if setting.get("kind") is None and "data" not in setting:
            raise RecordError(f"{at} has no data.")
    if kind == PhaseKind.CONTINUOUS.value:
        for n, entry in enumerate(_list_of(phase.get("inputs"), f"{where}: inputs",
                                           "logbook entries")):
            at = f"{where} logbook entry {n + 1}"
            if not isinstance(entry, Mapping):
                raise RecordError(f"{at} must be an object.")
            if not _is_int(entry.get("seq")):
                raise RecordError(f"{at} needs its number (seq, a whole number).")
            if entry.get("kind", "action") not in ENTRY_KINDS:
                raise RecordError(f"{at}: unknown kind {str(entry.get('kind'))[:40]!r}.")
            if entry.get("kind") != "tick" and not entry.get("struck"):
                _seat_of(entry.get("seat"), seats, at)
            _time(entry.get("at"), at)
        return
    for n, sheet in enumerate(_list_of(phase.get("submissions"), f"{where}: submissions",
                                       "sheets")):
        at = f"{where} sheet {n + 1}"
        if not isinstance(sheet, Mapping) or "data" not in sheet:
            raise RecordError(f"{at} must be an object with its seat and data.")
        _seat_of(sheet.get("seat"), seats, at)
    for seat in _list_of(phase.get("removed"), f"{where}: removed", "seats"):
        _seat_of(seat, seats, f"{where}: removed")


def _check_end(end: Any, seats: set[int]) -> None:
    if end is None:
        return
    if not isinstance(end, Mapping) or end.get("by", END_RULES) not in END_KINDS:
        raise RecordError(f"end must be an object whose by is one of {', '.join(END_KINDS)}, "
                          f"not {str(end)[:40]!r}.")
    for key in ("forfeited", "seats"):
        for seat in _list_of(end.get(key), f"end: {key}", "seats"):
            _seat_of(seat, seats, f"end: {key}")


def check_record(record: Any) -> Any:
    """The game of ``record`` if the record has the shape ``replay_record`` reads (docs/
    records.md), else RecordError saying what is wrong; nothing is replayed."""
    if not isinstance(record, Mapping) or record.get("record") != RECORD_KIND:
        raise RecordError("This is not a match record.")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"Record version {str(record.get('version'))[:40]!r} is not "
                          f"supported (this engine reads version {RECORD_VERSION}).")
    try:
        game = get(record.get("game"))  # type: ignore[arg-type]
    except (KeyError, TypeError):
        raise RecordError(f"Unknown game {str(record.get('game'))[:40]!r}.") from None
    if not isinstance(record.get("options"), Mapping):
        raise RecordError("options must be an object.")
    dice = record.get("dice")
    if not isinstance(dice, Mapping) or not (_is_int(dice.get("seed"))
                                             or isinstance(dice.get("seed"), str)):
        raise RecordError("dice must be an object holding the seed.")
    numbers = []
    for n, seat in enumerate(_list_of(record.get("seats"), "seats", "seats")):
        if not isinstance(seat, Mapping) or not _is_int(seat.get("number")):
            raise RecordError(f"seats[{n}] must be an object with its number.")
        numbers.append(seat["number"])
    if not numbers or len(set(numbers)) != len(numbers):
        raise RecordError("seats must list each seat of the match once.")
    if not game.min_seats <= len(numbers) <= game.max_seats:
        raise RecordError(f"{game.name or game.slug} is played by {game.min_seats} to "
                          f"{game.max_seats} seats, not {len(numbers)}.")
    for index, phase in enumerate(_list_of(record.get("phases"), "phases", "phases")):
        _check_phase(phase, index, set(numbers))
    _check_end(record.get("end"), set(numbers))
    return game


def check_phase_kind(game: Any, state: Any, number: Any, kind: Any) -> None:
    """RecordError unless the game, at ``state``, is in a phase of ``kind`` (the record's
    phase ``number`` claims it): a game has only the kinds of phase its rules give it."""
    try:
        kinds = {prompt.kind.value for prompt in game.prompts(state).values()}
    except NotImplementedError:
        kinds = set()
    if kinds and kind not in kinds:
        raise RecordError(f"phase {number}: {game.name or game.slug} is in a "
                          f"{' or '.join(sorted(kinds))} phase here, not a {kind} one.")


def phase_replay(game: Any, state: Any, seed: Any, phase: Mapping[str, Any]
                 ) -> tuple[Any, list[list[Any]]]:
    """The state after one recorded phase (a record's phase object) played on ``state``, and
    the events each of its steps gave. Also the moderators' roll-back's replay."""
    number = phase["number"]
    kind = phase["kind"]
    check_phase_kind(game, state, number, kind)
    events: list[list[Any]] = []
    for setting in phase.get("settings") or []:
        at = _time(setting["at"], f"phase {number} setting")
        if setting.get("kind") == SETTING_RESIGN:  # a seat conceded while the phase was open
            outcome = game.resign(state, setting["seat"], at)
        else:
            if not game.is_setting(setting["data"]):
                raise RecordError(f"phase {number}: {game.name or game.slug} takes no "
                                  f"out-of-turn setting like {str(setting['data'])[:60]!r}.")
            outcome = game.apply(state, setting["seat"], setting["data"], at,
                                 rng_for(seed, number))
        state = outcome.state
    if phase.get("closed") and kind != PhaseKind.CONTINUOUS.value:
        # Closed unplayed (the match ended during it, or the seat to move conceded): its
        # settings happened, its sheets were never resolved.
        return state, [[]]
    if kind == PhaseKind.CONTINUOUS.value:
        inputs = [entry for entry in phase.get("inputs") or [] if not entry.get("struck")]
        for _entry, after, step_events in game.replay_steps(state, seed, inputs):
            state = after
            events.append(step_events or [])
        return state, events
    sheets = {int(s["seat"]): s["data"] for s in phase.get("submissions") or []}
    rng = rng_for(seed, number)
    if kind == PhaseKind.SIMULTANEOUS.value:
        outcome = game.resolve(state, sheets, rng)
    elif kind == PhaseKind.SEQUENTIAL.value:
        at = _time(phase.get("resolved_at"), f"phase {number}")
        found: list[Any] = []
        for seat in sorted(sheets):
            step = game.apply(state, seat, sheets[seat], at, rng)
            state, found = step.state, found + list(step.events)
        outcome = Outcome(state, found)
    else:
        raise RecordError(f"phase {number}: unknown kind {kind!r}.")
    state, found = outcome.state, list(outcome.events)
    removed = [int(seat) for seat in phase.get("removed") or []]
    if removed:  # the match's missed-turn policy took them out, after the sheets
        removal = game.remove_seats(state, removed)
        if removal is not None:  # (None: the game ended with them forfeited: ``end``)
            state, found = removal.state, found + list(removal.events)
    events.append(found)
    return state, events


def _recorded_events(phase: Mapping[str, Any]) -> list[list[Any]]:
    if phase["kind"] == PhaseKind.CONTINUOUS.value:
        return [entry.get("events") or [] for entry in phase.get("inputs") or []
                if not entry.get("struck")]
    return [phase.get("events") or []]


def ending_replayed(game: Any, state: Any, seats: list[int], end: Mapping[str, Any]
                    ) -> Ending | None:
    """How the match ended, from the record's ``end`` and the final ``state`` (None: the
    rules say it is not over), by the builders the lifecycle used."""
    by = end.get("by")
    if by == END_FORFEIT:
        return by_forfeit(seats, [int(n) for n in end.get("forfeited") or []])
    if by == END_NOBODY:
        return by_nobody()
    if by == END_DRAW:
        return by_agreement(seats, [int(n) for n in end.get("seats") or []])
    found = game.result(state)
    if by == END_CONCESSION:
        return by_concession(found, [int(n) for n in end.get("seats") or []], game.phrasebook)
    return by_rules(found, game.phrasebook) if found is not None else None


# The keys of a result stored before the ``Ending`` (a record made then has only these).
LEGACY_RESULT_KEYS = ("ranking", "scores", "reason", "winners", "is_draw")


def _same_result(replayed: Any, recorded: Any) -> bool:
    """Whether the replay reached the recorded result; a record made before results carried
    their "ending" is compared on the keys it has."""
    if isinstance(recorded, Mapping) and isinstance(replayed, Mapping) \
            and "ending" not in recorded:
        replayed = {key: replayed.get(key) for key in LEGACY_RESULT_KEYS}
    return bool(replayed == recorded)


def replay_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay ``record`` from its seed and inputs: {"result", "state_sha256"} it reached, and
    "events_match" (every phase's events, dice included, as recorded) and "first_mismatch"
    (the first phase whose events differ, or None). Raises RecordError for a record it
    cannot read."""
    game = check_record(record)
    try:
        seed = record["dice"]["seed"]
        seats = [int(seat["number"]) for seat in record["seats"]]
        state = game.start(len(seats), record["options"], seed)
        mismatch = None
        for phase in record["phases"]:
            state, events = phase_replay(game, state, seed, phase)
            if mismatch is None and _normal(events) != _normal(_recorded_events(phase)):
                mismatch = phase["number"]
        end = record.get("end") or {}
    except RuleError as error:
        raise ReplayRefused(f"The rules refuse an input of the record: {error}") from None
    except (KeyError, TypeError) as error:
        raise RecordError(f"The record is incomplete or malformed: {error!r}.") from None
    except NotImplementedError:  # an input of a kind this game does not take
        raise RecordError(f"The record holds an input {game.name or game.slug} does not "
                          f"take (its rules have no such phase or setting).") from None
    except (ArithmeticError, RecursionError) as error:
        raise RecordError(f"The record cannot be replayed: {error}.") from None
    result = ending_replayed(game, state, seats, end)
    return {"result": _normal(result.as_json() if result else None),
            "state_sha256": state_sha256(state), "events_match": mismatch is None,
            "first_mismatch": mismatch}


def verify_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``record`` end to end: its seed against the commitment published at the start,
    then a replay against its result, final state and every phase's events (the dice).
    "ok" only when everything holds; "commitment" is "ok", "mismatch" or "none" (a match
    from before commitments were published)."""
    dice = record.get("dice") if isinstance(record, Mapping) else None
    if not isinstance(dice, Mapping):
        raise RecordError("The record has no dice section.")
    if not dice.get("salt") or not dice.get("commitment"):
        commitment = "none"
    elif dice.get("seed") is not None and commitment_matches(
            dice["seed"], str(dice["salt"]), str(dice["commitment"])):
        commitment = "ok"
    else:
        commitment = "mismatch"
    try:
        replayed = replay_record(record)
    except ReplayRefused as error:
        return {"commitment": commitment, "result": None, "state_sha256": None,
                "events_match": False, "first_mismatch": None, "result_matches": False,
                "state_matches": False, "ok": False, "error": str(error)}
    result_ok = _same_result(replayed["result"], _normal(record.get("result")))
    state_ok = replayed["state_sha256"] == record.get("state_sha256")
    return {**replayed, "commitment": commitment, "result_matches": result_ok,
            "state_matches": state_ok,
            "ok": commitment == "ok" and result_ok and state_ok and replayed["events_match"]}
