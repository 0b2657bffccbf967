"""Final Act on the match page: the live board, the order sheet (checked live, sealed), the
round report and the replay frames. The setup panel's requests are in ``setup_views``.

What the page shows comes from the engine's ``view`` for the viewer's seat (or a spectator);
sealed sheets only ever from the viewer's own submission or from the form they are filling in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import json_script
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

import engine
from engine.final_act import report
from games import pagecache, selectors
from games.final_act.board import LIVE_BOARD_ID, render_board
from games.final_act.drafts import check_draft, draft_text
from games.final_act.sheet_panel import (
    TOKEN_NAMES,
    field_choices,
    fields_from_post,
    fields_from_sheet,
    sheet_from_fields,
    token_rows,
    unit_label,
    unit_rows,
)
from games.models import Match, Phase, Seat, Submission
from games.plugins import replay_wanted
from games.services import ServiceError
from games.views.access import (
    PhaseClosed,
    match_visible_or_404,
    own_prompted_seat,
    seal_posted,
    status_for,
)
from games.views.replay import frame_for
from games.words import problem_dicts, problem_message, say

REPORT_BOARD = "fa-board-report"


# -- the page ------------------------------------------------------------------------------------

def problem_subject(path: str) -> str:
    """What a problem of the order sheet is about, in words ("Tank 1A"), in place of its
    field path ("units.1A.move"), which is for programs."""
    parts = path.split(".")
    if parts[0] == "units" and len(parts) > 1:
        return unit_label(parts[1])
    if parts[0] == "tokens":
        return _("Action tokens in hand")
    if parts[0] == "declare":
        return _("Declarations (once per game)")
    return ""


def page_context(request: HttpRequest, match: Match, context: dict[str, Any]) -> dict[str, Any]:
    """What the Final Act match page adds to the generic match page context."""
    game = context.get("game")
    if game is None or match.state is None:
        return {}
    my_seat: Seat | None = context.get("my_seat")
    seat = my_seat.number if my_seat else None
    view = game.view(match.state, seat)
    extra: dict[str, Any] = {"fa_view": view, "fa_phase": view["phase"]}
    if context.get("must_act") and my_seat is not None and view["phase"] == "orders":
        extra.update(sheet_panel_context(match, game, my_seat, context.get("my_sheet"),
                                         view=view))
        extra["fa_words"] = board_words()
    elif context.get("must_act") and my_seat is not None and view["phase"] == "setup":
        from games.final_act.setup_panel import setup_panel_context

        extra.update(setup_panel_context(request, match, my_seat, context.get("my_sheet")))
        extra["fa_setup"] = True
    else:
        extra["fa_live_board"] = live_board(match, view, seat, None)
    resolved = context.get("resolved_phases") or []
    history = context.get("history") or []
    wanted = replay_wanted(request)
    if resolved and wanted is not None:  # a replay frame asked for without HTMX
        extra["fa_report"] = frame_for(match, seat, wanted, resolved)
    if resolved and history and not extra.get("fa_report"):
        last = history[0]["phase"]  # the newest, loaded in full
        extra["fa_report"] = replay_context(match, game, seat, last, resolved,
                                            state_after=match.state)
    return extra


def board_words() -> dict[str, str]:
    """What the order panel's script says as the board is clicked, in the reader's language
    (``%(name)s`` filled in by the script). Each announcement says what choosing the same
    square again does, and that is what it does. Worded once per language and process."""
    language = translation.get_language()
    words = _board_words.get(language)
    if words is None:
        words = _board_words[language] = _board_words_now()
    return words


_board_words: dict[str | None, dict[str, str]] = {}


def _board_words_now() -> dict[str, str]:
    return {
        "stays": _("%(unit)s stays on %(square)s."),
        "moves": _("%(unit)s: %(move)s to %(square)s."),
        "turn_offer": _("Choose %(square)s again to turn (face %(facing)s)."),
        "turning": _("%(unit)s: %(move)s to %(square)s, turning to face %(facing)s. Choose "
                     "%(square)s again to keep its facing."),
        "keeping": _("%(unit)s: %(move)s to %(square)s, keeping its facing. Choose %(square)s "
                     "again to turn (face %(facing)s)."),
        "at_moves": _("(An AT unit moves or fires in a round, not both.)"),
        "aiming": _("Now aiming: choose a target, or press M to keep moving."),
        "selected_aim": _("%(unit)s on %(square)s selected: choose one of the marked squares "
                          "to move there, or press F to aim."),
        "selected": _("%(unit)s on %(square)s selected: choose one of the marked squares to "
                      "move there."),
        "cannot_fire": _("%(unit)s cannot fire this round."),
        # (the count is 1 or more: the script takes "aims_one" for 1)
        "aims_one": ngettext(
            "%(unit)s aims: choose a blue square to fire at (%(count)s possible; grey "
            "cross-hatched squares are in the cone but blocked). Press M to change its move.",
            "%(unit)s aims: choose a blue square to fire at (%(count)s possible; grey "
            "cross-hatched squares are in the cone but blocked). Press M to change its move.",
            1),
        "aims": ngettext(
            "%(unit)s aims: choose a blue square to fire at (%(count)s possible; grey "
            "cross-hatched squares are in the cone but blocked). Press M to change its move.",
            "%(unit)s aims: choose a blue square to fire at (%(count)s possible; grey "
            "cross-hatched squares are in the cone but blocked). Press M to change its move.",
            2),
        "at_moving": _("%(unit)s is moving (%(move)s): an AT unit moves or fires in a round, "
                       "not both. Set its move to stay first to fire."),
        "blocked": _("%(square)s is in %(unit)s's cone but cannot be hit from here (blocked)."),
        "outside": _("%(square)s is outside %(unit)s's cone."),
        "no_longer_fires": _("%(unit)s no longer fires at %(square)s."),
        "second_no_longer": _("%(unit)s's second shell no longer fires at %(square)s."),
        "second_fires": _("%(unit)s's second shell fires at %(square)s (needs the double shot "
                          "declaration)."),
        "fires": _("%(unit)s fires at %(square)s."),
        "air_strike_first": _("Choose the square the air strike is called from first."),
        "quick_shot_first": _("Choose the tank that makes the quick shot first."),
        "token_fire_start": _("%(token)s: choose up to two marked squares; choose one again to "
                              "drop it. Escape when done."),
        "dropped": _("%(square)s dropped."),
        "token_cannot_target": _("%(token)s cannot target %(square)s."),
        "two_shells": _("Two shells at most: choose one of the two again to drop it first."),
        "token_fires_one": _("%(token)s fires at %(square)s."),
        "token_fires_two": _("%(token)s fires at %(square)s and %(second)s."),
        "token_bad_square": _("%(square)s is not a square this token can go to."),
        "token_placed": _("%(token)s: %(square)s."),
        "token_choose": _("%(token)s: choose a marked square."),
        "not_yours": _("%(square)s: no unit of yours there. Choose one of your units first."),
        "selection_dropped": _("Selection dropped."),
        "cleared": _("All orders cleared: every unit stays and holds fire."),
        **{f"token:{token}": str(name) for token, name in TOKEN_NAMES.items()},
    }


def _open_phase_key(match: Match, kind: str, *parts: Any) -> str:
    """A cache key for something that depends only on the open phase's state (and ``parts``):
    the match (its random seed: never another match's key) and the phase (its deadline: a
    phase opened again gets another)."""
    return pagecache.key_for(kind, match.pk, match.seed, match.phase_number, match.deadline,
                             *parts)


def live_board(match: Match, view: dict[str, Any], seat: int | None, plan: Any) -> str:
    """The board of the open phase as ``seat`` sees it, with ``plan`` (a draft sheet) drawn:
    the same for the same phase, seat and plan, so it is drawn once and then cached."""
    key = _open_phase_key(match, "fa-live", seat, pagecache.digest(plan))
    return pagecache.cached(key, lambda: render_board(
        view, seat=seat, plan=plan, last_round=False, board_id=LIVE_BOARD_ID,
        caption=_caption(view)))


def _caption(view: dict[str, Any]) -> str:
    if view["phase"] == "setup":
        return _("Setup: each side places its terrain and units; the other side's appear when "
                 "both are in.")
    if view["phase"] == "over":
        return _("Final position after round %(round)s.") % {"round": view["round"]}
    return _("Round %(round)s: the position now.") % {"round": view["round"]}


def replay_context(match: Match, game: engine.Game, seat: int | None, phase: Phase,
                   resolved: list[Phase], state_after: Any) -> dict[str, Any]:
    """One frame of the replay: the board after ``phase`` with its events drawn, the round's
    story in words, and the neighbouring frames."""
    numbers = [p.number for p in resolved]
    index = numbers.index(phase.number)
    title = (_("Setup revealed") if phase.name == "setup"
             else _("Round %(round)s") % {"round": round_of(match, phase.number)})

    def told() -> dict[str, Any]:
        events = phase.events or []
        view = game.view(state_after, seat)
        return {
            "headline": say(report.round_headline(events)) if phase.name != "setup" else "",
            "story": [say(line) for line in game.round_report(events, seat)],
            "board": render_board(view, seat=seat, last_round=phase.name != "setup",
                                  board_id=REPORT_BOARD,
                                  caption=_("%(title)s: what happened.") % {"title": title}),
        }

    # A resolved phase is history: told once per reader's seat, then served from the cache.
    piece = pagecache.cached(
        pagecache.key_for("fa-frame", match.pk, match.seed, phase.pk, phase.number, seat,
                          title), told)
    return {
        "phase": phase,
        "title": title,
        **piece,
        "position": index + 1,
        "count": len(numbers),
        "previous": numbers[index - 1] if index > 0 else None,
        "next": numbers[index + 1] if index + 1 < len(numbers) else None,
        "first": numbers[0],
        "last": numbers[-1],
        "is_last": index + 1 == len(numbers),
    }


def round_of(match: Match, phase_number: int) -> int:
    """The game round a phase plays: phase 1 is the setup, unless the match starts from a
    scenario (then phase 1 is the scenario's round)."""
    scenario = (match.options or {}).get("scenario")
    if scenario:
        return int(scenario.get("round", 1)) + phase_number - 1
    return phase_number - 1


# -- the order sheet -----------------------------------------------------------------------------

def sheet_panel_context(match: Match, game: engine.Game, seat: Seat, sheet: Submission | None,
                        *, posted: Any = None, view: dict[str, Any] | None = None
                        ) -> dict[str, Any]:
    """The order panel: the form rows (from the posted fields, else the sealed sheet), the live
    check of that draft, and the board with the draft drawn on it. ``view`` is the seat's view
    of the match state, when the caller has it already."""

    # What the seat may do, and what the engine says of a draft, depend on the open phase and
    # the draft alone: worked out once, then cached (a page load, each live check).
    def cached(kind: str, *parts: Any, make: Any) -> Any:
        return pagecache.cached(_open_phase_key(match, kind, seat.number, *parts), make)

    def made() -> dict[str, Any]:
        return sheet_context(game, match.state, seat.number, sheet.data if sheet else None,
                             posted=posted, view=view, cached=cached,
                             live=lambda view, plan: live_board(match, view, seat.number, plan))

    if posted is not None:
        return {**made(), "fa_panel_key": None}
    # The panel as the page shows it (no posted fields, no message) is the same for the same
    # open phase, seat and sealed sheet: its rows worked out once and rendered once, then kept
    # (its CSRF field is put in per request; see games/templatetags/jinja_include.py).
    sealed = (sheet.pk, sheet.revision, sheet.receipt) if sheet is not None else ()
    context = pagecache.cached(_open_phase_key(match, "fa-sheet", seat.number, *sealed), made)
    return {**context, "fa_panel_key": _open_phase_key(match, "fa-panel", seat.number, *sealed)}


def _uncached(kind: str, *parts: Any, make: Any) -> Any:
    return make()


def sheet_context(game: engine.Game, state: Any, seat: int, sheet_data: Any, *,
                  posted: Any = None, view: dict[str, Any] | None = None,
                  cached: Any = _uncached, live: Any = None) -> dict[str, Any]:
    """The order panel of ``seat`` in ``state``: its rows (from the ``posted`` fields, else
    ``sheet_data``), the check of that draft and the board with it drawn (``live``); on a
    match page ``cached`` keeps what depends on the open phase alone."""
    legal = cached("fa-legal", make=lambda: game.legal_actions(state, seat))
    if view is None:
        view = game.view(state, seat)
    fields = fields_from_post(posted) if posted is not None else fields_from_sheet(sheet_data)
    draft = sheet_from_fields(posted if posted is not None else fields, legal)
    normal, problems, warnings = cached("fa-check", pagecache.digest(draft),
                                        make=lambda: check_draft(game, state, seat, draft))
    units = unit_rows(view, legal, fields, problems, warnings)
    tokens = token_rows(legal, fields, problems, warnings)
    declare = {
        "repair": legal.get("declare", {}).get("repair", []),
        "double_shot": legal.get("declare", {}).get("double_shot", []),
        "repair_value": fields.get("d-repair", ""),
        "double_shot_value": fields.get("d-double_shot", ""),
        "problems": [problem_message(p) for p in problems if p.path.startswith("declare")],
    }

    def legal_script() -> str:
        data = _legal_for_js(view, legal)
        data["choices"] = field_choices(units, tokens, declare)
        return json_script(data, "fa-legal")

    if live is None:
        def live(view: dict[str, Any], plan: Any) -> str:
            return render_board(view, seat=seat, plan=plan, last_round=False,
                                board_id=LIVE_BOARD_ID, caption=_caption(view))

    return {
        "fa_view": view,
        "fa_sheet": True,
        "fa_units": units,
        "fa_tokens": tokens,
        "fa_declare": declare,
        "fa_shell_limit": legal.get("shell_limit"),
        "fa_problems": [{**said, "subject": problem_subject(said["path"])}
                        for said in problem_dicts(problems)],
        "fa_warnings": problem_dicts(warnings),
        "fa_sheet_text": draft_text(game, state, seat, normal),
        # The choices do not depend on the draft: serialised once per phase and seat.
        "fa_legal_json": cached("fa-legal-json", make=legal_script),
        "fa_live_board": live(view, draft),
    }


def sandbox_board(game: engine.Game, state: Any, seat: int, check_url: str) -> str:
    """The live board and order sheet of ``seat`` on a position of no match (an analysis, a
    lesson): checked live at ``check_url`` (``sandbox_check``), played by the page."""
    context = {**sheet_context(game, state, seat, None), "fa_sandbox": True,
               "fa_check_url": check_url}
    # (Jinja2 escaped what it had to; Django takes its output as plain text otherwise)
    panel = mark_safe(render_to_string("games/final-act/sheet_panel.jinja", context,  # noqa: S308
                                       using="jinja2"))
    return render_to_string("games/final-act/play_board.html",
                            {**context, "fa_panel": panel, "fa_words": board_words()})


def sandbox_check(game: engine.Game, state: Any, seat: int, posted: Any,
                  check_url: str) -> str:
    """The live check of the sandbox sheet: as on the match page, the problems and the board
    with the draft drawn (HTML)."""
    context = {**sheet_context(game, state, seat, None, posted=posted), "fa_sandbox": True,
               "fa_check_url": check_url, "fa_oob": True, "fa_check_only": True}
    return render_to_string("games/final-act/sheet_check.jinja", context, using="jinja2")


def _legal_for_js(view: dict[str, Any], legal: dict[str, Any]) -> dict[str, Any]:
    """What the board script needs to highlight choices: where each own unit stands, its move
    destinations, its cone; the squares each token may go to."""
    seat = view.get("seat")
    where = {u["name"]: u["at"] for u in view["units"] if u["seat"] == seat}
    units = {
        name: {
            "at": where.get(name),
            "kind": info["kind"],
            "moves": info["moves"],
            "faces": info.get("faces", []),
            "fire": info.get("fire", []),
            "blocked": info.get("blocked", []),
        }
        for name, info in legal.get("units", {}).items()
    }
    tokens = {token: choices.get("at") for token, choices in legal.get("tokens", {}).items()
              if isinstance(choices.get("at"), list)}
    # Where token shells may land: an air strike's by the square it is called from (a quick
    # shot's are its tank's own targets, in "units").
    air = legal.get("tokens", {}).get("air_strike", {})
    token_fire = {"air_strike": air.get("fire", {})} if air else {}
    return {"seat": seat, "units": units, "tokens": tokens, "token_fire": token_fire}


def _sheet_request(request: HttpRequest, match_id: int, seat_number: int
                   ) -> tuple[Match, engine.Game, Seat]:
    match = match_visible_or_404(request, match_id)
    seat = own_prompted_seat(request, match, seat_number, phase="orders")
    game = engine.games()[match.game]
    return match, game, seat


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "partials/error.html", {"error": message}, status=status)


@login_required
@require_POST
def sheet_validate(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """The live check: the draft's problems and warnings, and the board with the draft drawn.
    Stores nothing."""
    try:
        match, game, seat = _sheet_request(request, match_id, seat_number)
    except PhaseClosed as closed:
        return _refused(request, str(closed), 409)
    context = {"match": match, "my_seat": seat, "fa_oob": True, "fa_check_only": True,
               **sheet_panel_context(match, game, seat, None, posted=request.POST)}
    return render(request, "games/final-act/sheet_check.jinja", context, using="jinja2")


@login_required
@require_POST
def sheet_submit(request: HttpRequest, match_id: int, seat_number: int) -> HttpResponse:
    """Seal the sheet the form describes, or refuse it keeping every field as typed."""
    try:
        match, game, seat = _sheet_request(request, match_id, seat_number)
    except PhaseClosed as closed:
        return _refused(request, str(closed), 409)
    legal = game.legal_actions(match.state, seat.number)
    draft = sheet_from_fields(request.POST, legal)
    try:
        sealed = seal_posted(
            request, match, seat, draft, prompt_phase="orders",
            notice=_("Orders sealed (revision %(revision)s)."))
    except ServiceError as error:
        return _sheet_refused(request, match, seat, error)
    if sealed.response is not None:
        return sealed.response
    sheet = sealed.sheet()
    context: dict[str, Any] = {"match": match, "my_seat": seat, "my_sheet": sheet,
                               "fa_notice": sealed.notice, "fa_receipt": sealed.receipt,
                               "fa_oob": True}
    context.update(sheet_panel_context(match, game, seat, sheet))
    return render(request, "games/final-act/sheet_panel.jinja", context, using="jinja2")


def _sheet_refused(request: HttpRequest, match: Match, seat: Seat,
                   error: ServiceError) -> HttpResponse:
    """A refused sheet: the panel again with the fields as typed and the reason; the whole page
    without HTMX. A round that has moved on gets the plain message (the page must reload)."""
    status = status_for(error)
    match.refresh_from_db()
    game = engine.games()[match.game]
    prompt = game.prompts(match.state).get(seat.number) if match.state else None
    if match.status != Match.Status.ACTIVE or prompt is None or prompt.phase != "orders":
        return _refused(request, error.message, status)
    sheet = selectors.submission_for_author(match, seat, request.user)
    if request.htmx:
        context: dict[str, Any] = {"match": match, "my_seat": seat, "my_sheet": sheet,
                                   "fa_oob": True}
    else:
        from games.views.match import match_page_context

        context = match_page_context(request, match)
    context.update(sheet_panel_context(match, game, seat, sheet, posted=request.POST))
    context["fa_error"] = error.message
    if error.code == "stale_phase":
        context["fa_phase_number"] = match.phase_number
    if request.htmx:
        return render(request, "games/final-act/sheet_panel.jinja", context, status=status,
                      using="jinja2")
    return render(request, "games/final-act/match.html", context, status=status)
