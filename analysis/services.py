"""Writes of the analysis board: start an analysis (from a match or an uploaded record) and
play a position on with the pure engine. Every function checks what the user may do first."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from analysis import records
from analysis.models import Analysis
from engine import Game, PhaseKind, RuleError, rng_for
from games import selectors
from games.models import Match, Phase
from games.words import problem_line

# A tree holds at most this many positions (each one a whole state).
MAX_NODES = 300


class AnalysisError(Exception):
    """A request the board refuses, with the sentence saying why and its HTTP status."""

    def __init__(self, message: str, status: int = 400,
                 problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.message, self.status, self.problems = message, status, problems or []


def game_for(slug: str) -> Game:
    game = engine.games().get(slug)
    if game is None:
        raise AnalysisError(_("This site has no game “%(game)s”.") % {"game": slug[:40]})
    return game


def node(analysis: Analysis, node_id: int) -> dict[str, Any]:
    if not 0 <= node_id < len(analysis.nodes):
        raise AnalysisError(_("This analysis has no position %(node)s.") % {"node": node_id},
                            status=404)
    return analysis.nodes[node_id]


# -- starting from a match -------------------------------------------------------------------

def match_start_points(*, match: Match) -> list[tuple[int | None, str]]:
    """The positions of ``match`` one may analyse, as (phase number or None for the current
    or final position, label): the position each resolved phase opened with, and the last."""
    numbers = Phase.objects.filter(match=match, status=Phase.Status.RESOLVED).order_by(
        "number").values_list("number", flat=True)
    points: list[tuple[int | None, str]] = [
        (n, _("Before phase %(number)s") % {"number": n}) for n in numbers]
    if match.state is not None:
        points.append((None, _("The final position") if match.status == Match.Status.FINISHED
                       else _("The current position")))
    return points


def match_public_reason(match: Match) -> str:
    """Why the running ``match`` cannot be analysed now ("" when it can)."""
    game = game_for(match.game)
    if match.status == Match.Status.FINISHED or match.state is None:
        return ""
    if game.public_state(match.state) is None:
        return _("While this match is being played, its position holds information that only "
                 "its players may know (such as a secret setup or sealed choices), and play "
                 "cannot go on without it. You can analyse it once the match has ended.")
    return ""


def match_position(*, match: Match, phase_number: int | None) -> tuple[Any, str]:
    """The state to analyse from and the time it stood at. A finished match shows everything
    (its record is public); any other only what a spectator could rebuild
    (``Game.public_state``), never its seed, sealed sheets or hidden parts."""
    game = game_for(match.game)
    at = timezone.now()
    if phase_number is None:
        state = match.state
        if match.status == Match.Status.FINISHED and match.finished_at:
            at = match.finished_at
    else:
        phase = Phase.objects.filter(match=match, number=phase_number,
                                     status=Phase.Status.RESOLVED).only(
            "state_before", "opened_at").first()
        if phase is None:
            raise AnalysisError(_("This match has no resolved phase %(number)s.")
                                % {"number": phase_number}, status=404)
        state, at = phase.state_before, phase.opened_at
    if state is None:
        raise AnalysisError(_("This match has not started: there is no position yet."), 409)
    if match.status != Match.Status.FINISHED:
        state = game.public_state(state)
        if state is None:
            raise AnalysisError(match_public_reason(match), status=403)
    return state, at.isoformat()


def analysis_from_match(*, user: Any, match: Match, phase_number: int | None) -> Analysis:
    """A new analysis of ``match`` at ``phase_number`` (None: its current or final position)
    for ``user``, who must be able to see the match."""
    if not user.is_authenticated or not selectors.match_visible_to(match, user):
        raise AnalysisError(_("You cannot see this match."), status=404)
    state, at = match_position(match=match, phase_number=phase_number)
    where = (_("phase %(number)s") % {"number": phase_number} if phase_number
             else _("final position") if match.status == Match.Status.FINISHED
             else _("public position"))
    title = _("%(match)s, %(where)s") % {"match": match.title or _("Match %(id)s") % {
        "id": match.pk}, "where": where}
    root = {"id": 0, "parent": None, "state": state, "at": at, "label": str(where),
            "events": [], "moves": {}}
    return Analysis.objects.create(owner=user, game=match.game, seats=match.seats.count(),
                                   title=title[:160], source=Analysis.Source.MATCH,
                                   match=match, nodes=[root])


def analysis_from_record(*, user: Any, raw: bytes, name: str = "") -> Analysis:
    """A new analysis of an uploaded match record: one position per step it replays to."""
    if not user.is_authenticated:
        raise AnalysisError(_("Log in to upload a record."), status=403)
    record = records.read(raw)
    game = game_for(record.game)
    try:
        steps = records.replay(game, record, limit=MAX_NODES)
    except records.RecordError as error:
        raise AnalysisError(str(error)) from None
    nodes = []
    for index, step in enumerate(steps):
        nodes.append({"id": index, "parent": index - 1 if index else None,
                      "state": step.state, "at": step.at, "label": step.label,
                      "events": step.events, "moves": step.moves})
    title = _("Uploaded record: %(name)s") % {"name": (name or record.game)[:100]}
    return Analysis.objects.create(owner=user, game=record.game, seats=record.seats,
                                   title=title, source=Analysis.Source.RECORD, nodes=nodes)


# -- playing on --------------------------------------------------------------------------------

def owned(analysis: Analysis, user: Any) -> None:
    if not user.is_authenticated or analysis.owner_id != user.pk:
        raise AnalysisError(_("Only the person who made this analysis can play in it; "
                              "start your own from the same match."), status=403)


def seat_submission(game: Game, state: Any, seat: int, text: str) -> Any:
    """``text`` in the game's grammar, read and checked for ``seat`` (RuleError if not)."""
    return game.validate(state, seat, game.parse_text(state, seat, text))


def _problems(game: Game, seat: int, error: RuleError) -> list[str]:
    name = game.seat_name(seat)
    return [f"{name}: {problem_line(p)}" for p in error.problems]


def _moves_text(game: Game, state: Any, moves: dict[int, Any]) -> dict[str, str]:
    """The moves as text: a sheet in the game's grammar, an action as typed."""
    from games.plugins import sheet_text

    return {str(seat): data.strip() if isinstance(data, str) else
            sheet_text(game, state, seat, data) for seat, data in sorted(moves.items())}


def analysis_play(*, analysis: Analysis, user: Any, node_id: int, orders: dict[int, str],
                  acting: int | None = None, tick: bool = False) -> int:
    """Play the position ``node_id`` on: every prompted seat's ``orders`` (a simultaneous
    phase; a blank sheet is the seat's default), the orders of the seat to move, ``acting``'s
    action (a continuous phase), or the next scheduled ``tick``. Returns the new position's
    id (an existing child when the same moves were played there before)."""
    owned(analysis, user)
    game = game_for(analysis.game)
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().get(pk=analysis.pk)
        here = node(analysis, node_id)
        state, at = here["state"], datetime.fromisoformat(here["at"])
        if game.result(state) is not None:
            raise AnalysisError(_("The game is over in this position."), status=409)
        if len(analysis.nodes) >= MAX_NODES:
            raise AnalysisError(_("This analysis holds %(count)s positions, the most it "
                                  "may: start a new one to go on.") % {"count": MAX_NODES}, 409)
        new_id = len(analysis.nodes)
        rng = rng_for(f"analysis:{analysis.token}", new_id)
        moves, outcome, when = _play(game, state, at, orders, acting, tick, rng)
        moves_text = _moves_text(game, state, moves)
        for other in analysis.nodes:
            if other["parent"] == node_id and other["moves"] == moves_text and \
                    other.get("tick", False) == tick:
                return other["id"]
        label = (_("Next scheduled event") if tick else
                 "; ".join(f"{game.seat_name(int(s))}: {t}" for s, t in moves_text.items()))
        analysis.nodes.append({
            "id": new_id, "parent": node_id, "state": outcome.state, "at": when.isoformat(),
            "label": label[:200], "events": list(outcome.events), "moves": moves_text,
            "tick": tick})
        analysis.save(update_fields=["nodes", "updated_at"])
    return new_id


def _play(game: Game, state: Any, at: datetime, orders: dict[int, str], acting: int | None,
          tick: bool, rng: Any) -> tuple[dict[int, Any], Any, datetime]:
    """The moves read from ``orders`` and the engine's outcome of them."""
    if tick:
        when = _next_tick(game, state, at)
        return {}, game.tick(state, when, rng), when
    prompts = game.prompts(state)
    if not prompts:
        raise AnalysisError(_("Nobody is asked to act in this position."), status=409)
    kind = next(iter(prompts.values())).kind
    if kind == PhaseKind.SIMULTANEOUS:
        moves = _sheets(game, state, prompts, orders)
        return moves, game.resolve(state, moves, rng), at
    seat = acting if kind == PhaseKind.CONTINUOUS else min(prompts)
    if seat not in prompts:
        raise AnalysisError(_("Choose a seat that may act in this position."))
    text = (orders.get(seat) or "").strip()
    if not text:
        raise AnalysisError(_("These orders cannot be played:"), problems=[
            _("%(seat)s: write the orders to play.") % {"seat": game.seat_name(seat)}])
    return {seat: text}, _actions(game, state, seat, text, at, rng), at


def _sheets(game: Game, state: Any, prompts: dict[int, Any], orders: dict[int, str]
            ) -> dict[int, Any]:
    """Every prompted seat's sheet for a simultaneous phase (blank: its default)."""
    problems: list[str] = []
    moves: dict[int, Any] = {}
    for seat in sorted(prompts):
        text = (orders.get(seat) or "").strip()
        try:
            if text:
                moves[seat] = seat_submission(game, state, seat, text)
            elif prompts[seat].required:
                moves[seat] = game.default_submission(state, seat)
        except RuleError as error:
            problems += _problems(game, seat, error)
    if problems:
        raise AnalysisError(_("These orders cannot be played:"), problems=problems)
    return moves


def _actions(game: Game, state: Any, seat: int, text: str, at: datetime, rng: Any) -> Any:
    """``seat``'s text applied: one action, or each of a sheet's ``actions`` in turn (a
    continuous game's e-mail may carry several), as the lifecycle applies them."""
    try:
        data = game.parse_text(state, seat, text)
        actions = data["actions"] if isinstance(data, dict) and isinstance(
            data.get("actions"), list) else [data]
        events: list[dict[str, Any]] = []
        for action in actions:
            step = game.apply(state, seat, game.validate(state, seat, action), at, rng)
            state, events = step.state, events + list(step.events)
    except RuleError as error:
        raise AnalysisError(_("These orders cannot be played:"),
                            problems=_problems(game, seat, error)) from None
    return engine.Outcome(state, events)


def analysis_sheet_orders(*, analysis: Analysis, user: Any, node_id: int, seat: int,
                          raw: str) -> str:
    """The orders ``seat`` made on the clickable board in position ``node_id`` (``raw``: the
    sheet as JSON), checked and written as typed orders (what the tree shows and plays)."""
    from games.plugins import plugin_for, posted_sheet_text

    owned(analysis, user)
    game = game_for(analysis.game)
    state = node(analysis, node_id)["state"]
    if seat not in game.prompts(state):
        raise AnalysisError(_("%(seat)s has nothing to play in this position.")
                            % {"seat": game.seat_name(seat)}, status=409)
    try:
        return posted_sheet_text(plugin_for(analysis.game), state, seat, raw)
    except RuleError as error:
        raise AnalysisError(_("These orders cannot be played:"),
                            problems=_problems(game, seat, error)) from None


def analysis_check(*, analysis: Analysis, user: Any, node_id: int, seat: int,
                   data: Any, check_url: str) -> dict[str, Any] | str:
    """The answer to a live check of the clickable board's panel for ``seat`` in position
    ``node_id`` (the game's plug-in checks; nothing is stored). A ``RuleError`` if refused."""
    from games.plugins import plugin_for

    owned(analysis, user)
    state = node(analysis, node_id)["state"]
    if seat not in game_for(analysis.game).prompts(state):
        raise AnalysisError(_("%(seat)s has nothing to play in this position.")
                            % {"seat": game_for(analysis.game).seat_name(seat)}, status=409)
    return plugin_for(analysis.game).play_check(copy.deepcopy(state), seat, data,
                                                check_url=check_url)


def _next_tick(game: Game, state: Any, at: datetime) -> datetime:
    try:
        when = game.next_tick_at(state, at)
    except NotImplementedError:
        when = None
    if when is None:
        raise AnalysisError(_("Nothing is scheduled after this position."), status=409)
    return when


def has_ticks(game: Game, state: Any, at: str) -> bool:
    """Does play go on by scheduled events here (a "next event" button)?"""
    try:
        return game.next_tick_at(state, datetime.fromisoformat(at)) is not None
    except NotImplementedError:
        return False


def analysis_suggest(*, analysis: Analysis, user: Any, node_id: int, seat: int) -> str:
    """What the game's first bot would play for ``seat`` here, as text in the game's grammar."""
    from games.plugins import sheet_text

    owned(analysis, user)
    game = game_for(analysis.game)
    state = node(analysis, node_id)["state"]
    if seat not in game.prompts(state):
        raise AnalysisError(_("%(seat)s has nothing to play in this position.")
                            % {"seat": game.seat_name(seat)}, status=409)
    if not game.bots:
        raise AnalysisError(_("This game has no bot to suggest a move."), status=409)
    rng = rng_for(f"analysis:{analysis.token}:bot:{seat}", node_id)
    data = game.bot_submission(copy.deepcopy(state), seat, game.bots[-1], rng)
    return sheet_text(game, state, seat, data)


def analysis_delete(*, analysis: Analysis, user: Any) -> None:
    owned(analysis, user)
    analysis.delete()
