"""Panzer Squadron's panels and their form posts: the two-step activation (choose the action,
then — with the rolled points shown — the path and the target) and the standing reactions,
which either player may change at any time (an out-of-turn setting: no phase, no deadline)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

import engine
from engine import RuleError
from engine.panzer_squadron import hexes, legal, rules, text
from engine.panzer_squadron.board import Board
from engine.panzer_squadron.options import MODES
from games import selectors
from games.models import Match
from games.panzer_squadron import words
from games.panzer_squadron.board import board_svg, legend
from games.parsing import InvalidNumber, parse_int
from games.services import ServiceError, orders_submit
from games.views.access import match_url, match_visible_or_404, redirect_to, status_for
from games.words import problem_message

SLUG = "panzer-squadron"
ACTION_LABELS = {"move": gettext_lazy("Move (roll, then give the path)"),
                 "move-fire": gettext_lazy("Move and fire (roll; firing keeps 3 points)"),
                 "fire": gettext_lazy("Fire (stay, shoot a tank in sight)"),
                 "ambush": gettext_lazy("Ambush (stay and wait)")}


class BadForm(ValueError):
    """A posted field that cannot be read (400)."""


def _game() -> Any:
    return engine.get(SLUG)


# -- what the page shows ----------------------------------------------------------------------
def path_marks(state: dict[str, Any], seat: int) -> tuple[dict[str, str], dict[str, bool]]:
    """For the seat's open path phase: each reachable hex with the cheapest path there (in the
    text grammar's step form), and the enemy hexes in sight from the tank now (→ in cover)."""
    pending = state["pending"]
    board, tank, found = legal._positions(state, pending["points"])
    reach: dict[str, tuple[int, str]] = {}
    for cost, steps, h, _f, _kind in found:
        if not any(s.kind != "turn" for s in steps):
            continue
        written = text.format({"path": [s.as_dict() for s in steps]}).split("\n")[0][5:]
        known = reach.get(hexes.name(h))
        if known is None or cost < known[0]:
            reach[hexes.name(h)] = (cost, written)
    board.occupied[board.hex_of(tank)] = tank["name"]
    targets = {}
    start = board.hex_of(tank)
    for enemy in board.tanks.values():
        if enemy["seat"] != seat and enemy["alive"]:
            sight = board.sight(start, tank["facing"], board.hex_of(enemy))
            if sight.visible:
                targets[enemy["at"]] = sight.cover
    return {k: v[1] for k, v in sorted(reach.items())}, targets


def panel_context(match: Match, seat: int | None) -> dict[str, Any]:
    """The board and panels of the match page for ``seat`` (None: a spectator)."""
    context = position_context(match.state, seat, active=match.status == Match.Status.ACTIVE)
    context.update(match=match, phase_number=match.phase_number)
    return context


def position_context(state: Any, seat: int | None, *, active: bool) -> dict[str, Any]:
    """The board and the activation panel's choices for ``seat`` in ``state`` (``active``:
    play goes on, so the seat to move is offered its choices), and its reactions."""
    game = _game()
    view = game.view(state, seat)
    prompts = game.prompts(state) if active else {}
    my_turn = seat is not None and seat in prompts
    context: dict[str, Any] = {"view": view, "seat": seat, "my_turn": my_turn,
                               "modes": MODES}
    reach: dict[str, str] = {}
    targets: dict[str, bool] = {}
    if my_turn and state["phase"] == "activate":
        board = Board(state)
        choices = []
        for t in rules.ready(state, seat):
            shots = legal.shots(board, seat, board.hex_of(t), t["facing"], t["card"])
            choices.append({"tank": t, "card": words.card_word(t["card"]),
                            "state": words.state_word(t["state"]),
                            "actions": [(a, ACTION_LABELS[a]) for a in rules.allowed_actions(t)],
                            "targets": [{"at": at, "needed": needed} for needed, at in shots]})
        context["choices"] = choices
    elif my_turn and state["phase"] == "path":
        reach, targets = path_marks(state, seat)
        context["reach"] = sorted(reach.items())
        context["targets"] = sorted(targets.items())
        context["pending"] = {**state["pending"],
                              "action_word": words.action_word(state["pending"]["action"])}
        context["fire_cost"] = 3
    if seat is not None and active:
        context["reaction_rows"] = [
            {"tank": t, "card": words.card_word(t["card"]),
             "reaction": view["reactions"].get(t["name"])}
            for t in view["tanks"] if t["seat"] == seat and t["alive"]]
    context["board"] = board_svg(view, seat, reach=reach, targets=targets,
                                 interactive=bool(reach or targets))
    context["legend"] = legend()
    return context


def panels(request: HttpRequest, match: Match, seat: int | None) -> list[str]:
    """The activation and reactions panels (rendered with the request: their forms carry
    the CSRF token)."""
    if match.state is None:
        return []
    context = panel_context(match, seat)
    out = []
    if context.get("choices") is not None or context.get("pending"):
        out.append(render_to_string("games/panzer-squadron/activation_panel.html", context,
                                    request=request))
    if context.get("reaction_rows"):
        out.append(render_to_string("games/panzer-squadron/reactions_panel.html", context,
                                    request=request))
    return out


# -- form posts ---------------------------------------------------------------------------------
_HEX = re.compile(r"^[a-z][0-9]{1,2}$")


def _field(data: Mapping[str, Any], name: str, limit: int = 40) -> str:
    value = str(data.get(name) or "").strip()
    if len(value) > limit:
        raise BadForm(_("An answer in the form is too long: at most %(limit)s characters.")
                      % {"limit": limit})
    return value


def _hex_or_none(value: str, name: str) -> str | None:
    if not value:
        return None
    value = value.lower()
    if not _HEX.match(value):
        raise BadForm(_("The target “%(value)s” is not a hex name like c4.") % {"value": value})
    return value


def _phase_number(request: HttpRequest) -> int:
    try:
        return parse_int(_field(request.POST, "phase_number", 12), min=1, max=10**9,
                         field="phase_number")
    except InvalidNumber:
        raise BadForm(_("The form does not say which phase it is for; reload the page.")) from None


def activation_from_post(form: Mapping[str, Any]) -> dict[str, Any]:
    """From the panel's radio ``choice`` ("M1 move", "M1 fire e7") or the fields tank, action
    and target (``form``: the posted form)."""
    choice = _field(form, "choice", 30).split()
    if choice:
        if len(choice) not in (2, 3):
            raise BadForm(_("Choose one of the offered actions."))
        tank, action = choice[0], choice[1]
        target = _hex_or_none(choice[2] if len(choice) == 3 else "", "target")
        data: dict[str, Any] = {"activate": tank, "action": action}
        if action == "fire" or target is not None:
            data["target"] = target
        return data
    tank = _field(form, "tank", 8)
    action = _field(form, "action", 12)
    if not tank or not action:
        raise BadForm(_("Choose a tank and an action."))
    data = {"activate": tank, "action": action}
    target = _hex_or_none(_field(form, "target", 4), "target")
    if action == "fire" or target is not None:
        data["target"] = target
    return data


def path_from_post(form: Mapping[str, Any]) -> dict[str, Any]:
    """The path form's fields (``form``: the posted form): the path, target and end."""
    steps = _field(form, "path", 400)
    try:
        parsed = text.parse(f"path {steps or 'none'}")
    except RuleError as error:
        raise BadForm("; ".join(problem_message(p) for p in error.problems)) from None
    end = _field(form, "end", 10) or "stopped"
    return {"path": parsed["path"], "target": _hex_or_none(_field(form, "target", 4),
                                                           "target"), "end": end}


def reactions_from_post(form: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    found = {}
    for name in names:
        mode = _field(form, f"mode_{name}", 12)
        if not mode:
            continue
        raw = _field(form, f"max_{name}", 3)
        try:
            max_range = parse_int(raw, min=0, max=999, field=f"max_{name}") if raw else None
        except InvalidNumber:
            raise BadForm(_("The maximum range of %(tank)s is a whole number or empty.")
                          % {"tank": name}) from None
        found[name] = {"mode": mode, "max_range": max_range}
    if not found:
        raise BadForm(_("No reaction was given."))
    return {"reactions": found}


def _submit(request: HttpRequest, match_id: int, build: Any, notice: str) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    seat = selectors.match_seat_for_user(match, request.user)
    if seat is None:
        return _refused(request, match, _("You have no seat in this match."), 403)
    try:
        data = build(request, match, seat)
        orders_submit(match_id=match.pk, seat_number=seat.number, user=request.user,
                      phase_number=_phase_number(request), data=data, source="web")
    except BadForm as error:
        return _refused(request, match, str(error), 400)
    except ServiceError as error:
        details = [problem_message(p) for p in error.problems]
        return _refused(request, match, " ".join([error.message, *details]),
                        status_for(error))
    messages.success(request, notice)
    return redirect_to(request, match_url(match))


def _refused(request: HttpRequest, match: Match, message: str, status: int) -> HttpResponse:
    if request.htmx:
        return render(request, "partials/error.html", {"error": message}, status=status)
    from games.views.match import match_page_context, match_template

    context = match_page_context(request, match)
    context["error"] = message
    return render(request, match_template(match), context, status=status)


@login_required
@require_POST
def activate(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step one: the tank and its action (the server rolls a move's dice at once)."""
    return _submit(request, match_id, lambda r, m, s: activation_from_post(r.POST),
                   _("Action chosen."))


@login_required
@require_POST
def path(request: HttpRequest, match_id: int) -> HttpResponse:
    """Step two: the path, the target of a move and fire, and the end state."""
    return _submit(request, match_id, lambda r, m, s: path_from_post(r.POST),
                   _("Activation played."))


@login_required
@require_POST
def reactions(request: HttpRequest, match_id: int) -> HttpResponse:
    """Standing reactions of my own tanks, at any time (secret from the other seat)."""
    def build(r: HttpRequest, m: Match, s: Any) -> dict[str, Any]:
        names = [t["name"] for t in (m.state or {}).get("tanks", []) if t["seat"] == s.number]
        return reactions_from_post(r.POST, names)

    return _submit(request, match_id, build, _("Standing reactions saved."))
