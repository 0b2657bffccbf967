"""Match records: a finished match as one JSON document (and as text) that anyone can replay
offline with the pure engine (``python -m engine replay``; ``engine/record.py``), and its
verifiable dice. The format is described in docs/records.md.

Only a finished match has a record: it reveals every sheet, setting and logbook input, and the
seed and its salt, none of which may be known while the match is in play.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

import engine
from engine.ending import Ending
from engine.record import (
    END_CONCESSION,
    END_DRAW,
    END_FORFEIT,
    END_NOBODY,
    END_RULES,
    RECORD_KIND,
    RECORD_VERSION,
    SETTING_RESIGN,
    state_sha256,
)
from games import plugins
from games.endings import ending_words
from games.models import Action, Match, MatchVote, Phase, Seat
from games.services.common import removed_seats
from games.services.errors import ServiceError

CONTINUOUS = engine.PhaseKind.CONTINUOUS.value


def record_available(match: Match) -> bool:
    return match.status == Match.Status.FINISHED and match.state is not None


def _refuse_unless_finished(match: Match) -> None:
    if not record_available(match):
        raise ServiceError("not_finished", _("A match's record can be downloaded once the match "
                           "has finished: it reveals every sealed sheet and the dice's seed."))


def _seats(game: engine.Game, match: Match) -> list[dict[str, Any]]:
    return [{"number": seat.number, "name": game.seat_name(seat.number),
             "player": seat.user.get_username() if seat.user else None,
             "bot": seat.bot or None, "status": seat.status}
            for seat in match.seats.select_related("user").order_by("number")]


def _inputs(match: Match) -> list[dict[str, Any]]:
    """A continuous phase's logbook, struck entries included (marked: a replay skips them)."""
    return [{"seq": row.seq, "kind": row.kind, "seat": row.seat,
             "action": row.data if row.kind == Action.Kind.ACTION else None,
             "at": row.at.isoformat(), "source": row.source, "gameday": row.gameday or None,
             "struck": row.struck, "struck_reason": row.struck_reason or None,
             "events": row.events or []}
            for row in Action.objects.filter(match=match).order_by("seq")]


def _phase(match: Match, phase: Phase) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": phase.number, "kind": phase.kind, "name": phase.name,
        "opened_at": phase.opened_at.isoformat(),
        "resolved_at": phase.resolved_at.isoformat() if phase.resolved_at else None,
        "settings": list(phase.settings or []),
    }
    if phase.status == Phase.Status.CLOSED:
        out["closed"] = True  # ended unplayed: its settings happened, its sheets never did
    if phase.kind == CONTINUOUS:
        out["inputs"] = _inputs(match)
        return out
    out["submissions"] = [
        {"seat": int(seat), "data": sheet.get("data"), "source": sheet.get("source", ""),
         "receipt": sheet.get("receipt", ""), "salt": sheet.get("salt", "")}
        for seat, sheet in sorted((phase.revealed or {}).items(), key=lambda i: int(i[0]))]
    out["removed"] = removed_seats(phase.revealed)
    out["events"] = list(phase.events or [])
    return out


def _end(game: engine.Game, match: Match, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """How the match ended: by the rules, or by what the lifecycle did (a forfeit after
    missed deadlines, nobody left to act, a draw the players agreed to), which a replay
    computes the same way. A concession that ended the match says so (its result is still
    the rules', reached through the concession settings the phases carry). Its stored
    ending says it; a result stored before endings were is told by the match's votes."""
    if isinstance(match.result, dict) and "ending" in match.result:
        return Ending.from_json(match.result).record_end()
    conceded = (MatchVote.objects.filter(match=match, kind=MatchVote.Kind.CONCEDE,
                                         status=MatchVote.Status.PASSED, ended_match=True)
                .values_list("seat_number", flat=True).first())
    if conceded is not None and game.result(match.state) is not None:
        return {"by": END_CONCESSION, "seats": [conceded]}
    if game.result(match.state) is not None:
        return {"by": END_RULES}
    draw = MatchVote.objects.filter(match=match, kind=MatchVote.Kind.DRAW,
                                    status=MatchVote.Status.PASSED).first()
    if draw is not None:
        return {"by": END_DRAW, "seats": sorted(draw.standing)}
    forfeited = [s["number"] for s in seats if s["status"] == Seat.Status.FORFEITED]
    if forfeited:
        return {"by": END_FORFEIT, "forfeited": forfeited}
    return {"by": END_NOBODY}


def match_record(match: Match) -> dict[str, Any]:
    """The finished ``match`` as a record (ServiceError "not_finished" otherwise). The caller
    has checked that the reader may see the match."""
    _refuse_unless_finished(match)
    game = engine.get(match.game)
    seats = _seats(game, match)
    phases = [_phase(match, phase) for phase in
              Phase.objects.filter(match=match).order_by("number")]
    return {
        "record": RECORD_KIND,
        "version": RECORD_VERSION,
        "game": match.game,
        "game_name": game.name or match.game,
        "match": match.pk,
        "title": str(match),
        "options": match.options,
        "seats": seats,
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "dice": {"seed": match.seed, "salt": match.seed_salt or None,
                 "commitment": match.seed_commitment or None},
        "phases": phases,
        "end": _end(game, match, seats),
        "result": match.result,
        "state_sha256": state_sha256(match.state),
    }


def record_json(record: dict[str, Any]) -> str:
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# -- as text -------------------------------------------------------------------------------------

def _sheet_lines(game: engine.Game, state: Any, seat: int, data: Any) -> list[str]:
    return ["    " + line for line in
            plugins.sheet_text(game, state, seat, data).strip().splitlines()]


def _continuous_lines(game: engine.Game, plugin: plugins.GamePlugin, match: Match,
                      names: dict[int, str], inputs: list[dict[str, Any]]) -> list[str]:
    """A logbook's inputs in the grammar, each with what it did, replayed for the state each
    was written in."""
    lines: list[str] = []
    state = game.start(len(names), match.options, match.seed)
    live = [entry for entry in inputs if not entry["struck"]]
    after = {entry["seq"]: step for entry, *step in game.replay_steps(state, match.seed, live)}
    for entry in inputs:
        head = f"  #{entry['seq']} {entry['at']}"
        if entry["kind"] == Action.Kind.TICK:
            lines.append(f"{head} — " + _("gameday opened"))
        elif entry["kind"] == Action.Kind.RESIGN:
            lines.append(f"{head} — " + _("%(seat)s conceded")
                         % {"seat": names.get(entry["seat"], entry["seat"])})
        else:
            lines.append(f"{head} — {names.get(entry['seat'], entry['seat'])}:")
            lines += _sheet_lines(game, state, entry["seat"], entry["action"])
        if entry["struck"]:
            lines.append("    " + _("(struck out by a moderator: %(reason)s)")
                         % {"reason": entry["struck_reason"] or "—"})
        else:
            state = after[entry["seq"]][0]
        lines += ["    " + line for line in plugin.round_report(entry["events"], None)]
    return lines


def record_text(match: Match, record: dict[str, Any]) -> str:
    """The record in words: each phase's sheets in the game's text grammar and its events as
    the match page tells them (in the active language)."""
    game = engine.get(match.game)
    plugin = plugins.plugin_for(match.game)
    names = {s["number"]: s["name"] for s in record["seats"]}
    states = dict(Phase.objects.filter(match=match).values_list("number", "state_before"))
    lines = [f"{record['game_name']} — {record['title']}",
             _("Match record, format version %(version)s") % {"version": record["version"]}, ""]
    for seat in record["seats"]:
        player = seat["player"] or (plugin.bot_name(seat["bot"]) if seat["bot"] else _("open"))
        lines.append(_("Seat %(number)s: %(name)s — %(player)s")
                     % {"number": seat["number"], "name": seat["name"], "player": player})
    lines.append("")
    for phase in record["phases"]:
        lines.append(_("Phase %(number)s: %(name)s") % {
            "number": phase["number"],
            "name": plugin.phase_label(phase["name"]) if phase["name"] else phase["kind"]})
        state = states.get(phase["number"])
        for setting in phase["settings"]:
            if setting.get("kind") == SETTING_RESIGN:
                lines.append("  " + _("%(seat)s conceded.") % {"seat": names.get(setting["seat"])})
                continue
            lines.append("  " + _("%(seat)s, a setting:") % {"seat": names.get(setting["seat"])})
            lines += _sheet_lines(game, state, setting["seat"], setting["data"])
        if phase.get("closed"):
            lines.append("  " + _("(closed unplayed: the players ended it)"))
        if phase["kind"] == CONTINUOUS:
            lines += _continuous_lines(game, plugin, match, names, phase["inputs"])
        else:
            for sheet in phase["submissions"]:
                lines.append(f"  {names.get(sheet['seat'])}:")
                lines += _sheet_lines(game, state, sheet["seat"], sheet["data"])
            lines += ["  " + line for line in plugin.round_report(phase["events"], None)]
        lines.append("")
    lines.append(_("Result: %(reason)s") % {"reason": ending_words(match)})
    dice = record["dice"]
    lines.append(_("Seed: %(seed)s, salt: %(salt)s, commitment: %(commitment)s")
                 % {"seed": dice["seed"], "salt": dice["salt"] or "—",
                    "commitment": dice["commitment"] or "—"})
    lines.append(_("SHA-256 of the final state: %(sha)s") % {"sha": record["state_sha256"]})
    return "\n".join(lines) + "\n"
