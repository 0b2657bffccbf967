"""Pages of a continuous match (Tank Game V4): the board as SVG, my action panel, the Council,
the logbook with a slider back through time, and actions posted with HTMX.

Everything shown comes from ``game.view(state, seat)`` for the viewer's seat (or a spectator):
private data such as my ballot votes never reaches another player's page.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_GET, require_POST

import engine
from engine import Game
from engine.base import Text
from engine.tank_game import view as tank_view
from engine.tank_game import words as tank_words
from games import plugins, selectors
from games.models import Action, Match
from games.parsing import InvalidNumber, parse_int
from games.services import ServiceError, actions_apply, match_replay
from games.services.continuous import LOGBOOK_PAGE, logbook_window
from games.tank_game import words
from games.tank_game.position import position_words
from games.views.access import match_url, match_visible_or_404, redirect_to, status_for
from games.words import problem_message, say, stored

CELL = 32  # SVG pixels per square
ACTION_FIELDS = {"type": str, "to": str, "at": str, "decree": str, "gold": int, "seat": int,
                 "target": int, "ballot": int}
TANK_ACTIONS = ("move", "shoot", "give", "buy_ap", "upgrade_range")
COUNCIL_ACTIONS = ("open_ballot", "vote")
ACTION_LABELS = {"move": gettext_lazy("Move"), "shoot": gettext_lazy("Shoot"),
                 "give": gettext_lazy("Give gold"), "buy_ap": gettext_lazy("Buy AP"),
                 "upgrade_range": gettext_lazy("Upgrade range")}
# The form's fields by name, as the panel labels them (for a message about one).
FIELD_LABELS = {"type": gettext_lazy("the action"), "to": gettext_lazy("the square"),
                "at": gettext_lazy("the square"), "decree": gettext_lazy("the decree"),
                "gold": gettext_lazy("the gold"), "seat": gettext_lazy("the seat"),
                "target": gettext_lazy("the seat"), "ballot": gettext_lazy("the ballot")}
_SQUARE = re.compile(r"^([A-Z])([0-9]{1,2})$")


class BadForm(ValueError):
    pass


def _game(match: Match) -> Game | None:
    return engine.games().get(match.game)


def continuous_match_or_404(request: HttpRequest, match_id: int) -> Match:
    """The match if the viewer may see it (the plug-in's guard has checked its game)."""
    return match_visible_or_404(request, match_id)


def _square_xy(name: Any) -> tuple[int, int] | None:
    found = _SQUARE.match(str(name or "").upper())
    if not found:
        return None
    return ord(found.group(1)) - ord("A"), int(found.group(2)) - 1


def _center(name: Any) -> tuple[int, int] | None:
    xy = _square_xy(name)
    if xy is None:
        return None
    return xy[0] * CELL + CELL // 2 + CELL, xy[1] * CELL + CELL // 2 + CELL


def board_svg_context(view: dict[str, Any], *, me: int | None,
                      why_not: dict[str, list[str]] | None = None,
                      panel: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the SVG template draws, in pixels (a margin of one cell for the labels).
    With my action ``panel``, the board is one I act on: every square a button
    (static/tank-game/board.js) saying what is on it and what I can do there."""
    board = view.get("board", {})
    size = int(board.get("size", 12))
    columns = board.get("columns") or [chr(ord("A") + i) for i in range(size)]
    walls = []
    for square, durability in sorted((board.get("walls") or {}).items()):
        xy = _square_xy(square)
        if xy:
            walls.append({"square": square, "x": (xy[0] + 1) * CELL, "y": (xy[1] + 1) * CELL,
                          "durability": durability})
    mines = []
    for group in board.get("mines") or []:
        for square in group if isinstance(group, list) else [group]:
            xy = _square_xy(square)
            if xy:
                mines.append({"square": square, "x": (xy[0] + 1) * CELL,
                              "y": (xy[1] + 1) * CELL, "size": len(group)
                              if isinstance(group, list) else 1})
    tanks = []
    me_center = None
    for tank in view.get("tanks") or []:
        center = _center(tank.get("at"))
        if center is None:
            continue
        row = {**tank, "cx": center[0], "cy": center[1], "mine": tank.get("seat") == me,
               "status_word": words.status_word(tank.get("status")),
               "why_not": (why_not or {}).get(tank.get("at"), [])}
        if row["mine"]:
            me_center = center
        tanks.append(row)
    mine = next((t for t in tanks if t["mine"]), None)
    reach = int(mine.get("range") or 0) if mine else 0
    for tank in tanks:
        # A dashed line from my tank to each tank in range that I still cannot shoot (line
        # of sight, ...); tanks out of range only say so in their tooltip.
        near = mine is not None and max(abs(tank["cx"] - mine["cx"]),
                                        abs(tank["cy"] - mine["cy"])) <= reach * CELL
        tank["line_from"] = me_center if tank["why_not"] and near else None
    pixels = (size + 1) * CELL
    return {
        "squares": _squares(columns, size, walls, mines, tanks, panel) if panel else [],
        "size": size, "cell": CELL, "pixels": pixels, "side": size * CELL, "walls": walls,
        "mines": mines,
        "tanks": tanks,
        "columns": [{"name": c, "x": (i + 1) * CELL + CELL // 2} for i, c in enumerate(columns)],
        "rows": [{"name": r + 1, "y": (r + 1) * CELL + CELL // 2 + 4} for r in range(size)],
        "grid": [(i + 1) * CELL for i in range(size + 1)],
    }


def _squares(columns: list[str], size: int, walls: list[dict[str, Any]],
             mines: list[dict[str, Any]], tanks: list[dict[str, Any]],
             panel: dict[str, Any]) -> list[dict[str, Any]]:
    """The squares of the board I act on, each with its words: what is on it, what I can do
    there (the panel's choices), and whether it is the tab stop (my tank's square)."""
    said: dict[str, list[str]] = {}
    for wall in walls:
        said.setdefault(wall["square"], []).append(
            _("wall, durability %(durability)s") % {"durability": wall["durability"]})
    for mine in mines:
        said.setdefault(mine["square"], []).append(_("gold mine"))
    home = None
    for tank in tanks:
        if tank.get("status") != "alive":
            words = _("dead tank %(name)s") % {"name": tank.get("name")}
        elif tank["mine"]:
            home = tank.get("at")
            words = ngettext("your tank, %(lives)s life", "your tank, %(lives)s lives",
                             tank.get("lives") or 0) % {"lives": tank.get("lives")}
        else:
            words = ngettext("tank %(name)s (seat %(seat)s), %(lives)s life",
                             "tank %(name)s (seat %(seat)s), %(lives)s lives",
                             tank.get("lives") or 0) % {
                "name": tank.get("name"), "seat": tank.get("seat"), "lives": tank.get("lives")}
        said.setdefault(str(tank.get("at")), []).append(words)
    can = {"move": set(panel.get("moves") or []), "shoot": set(panel.get("shots") or []),
           "give": set(panel.get("gifts") or [])}
    doing = {"move": _("you can move here"), "shoot": _("you can shoot it"),
             "give": _("you can give it gold")}
    squares = []
    for row in range(size):
        for col, letter in enumerate(columns[:size]):
            name = f"{letter}{row + 1}"
            actions = [doing[kind] for kind in ("move", "shoot", "give") if name in can[kind]]
            squares.append({
                "name": name, "col": col, "row": row, "x": (col + 1) * CELL,
                "y": (row + 1) * CELL, "active": bool(actions),
                "tab_stop": name == home if home else (row, col) == (0, 0),
                "label": ", ".join([name, *(said.get(name) or [_("empty")]), *actions]),
            })
    return squares


def _probe_actions(view: dict[str, Any], me: int) -> dict[str, dict[str, Any]]:
    """One representative action per kind, to ask the engine why it is not possible now."""
    tanks = {t.get("seat"): t for t in view.get("tanks") or []}
    mine = tanks.get(me) or {}
    others = [t for s, t in tanks.items() if s != me and t.get("status") == "alive"]
    probes: dict[str, dict[str, Any]] = {"buy_ap": {"type": "buy_ap"},
                                         "upgrade_range": {"type": "upgrade_range"}}
    xy = _square_xy(mine.get("at"))
    if xy is not None:
        size = int(view.get("board", {}).get("size", 12))
        nx = xy[0] + 1 if xy[0] + 1 < size else xy[0] - 1
        probes["move"] = {"type": "move", "to": f"{chr(ord('A') + nx)}{xy[1] + 1}"}
    if others:
        probes["shoot"] = {"type": "shoot", "at": others[0]["at"]}
        probes["give"] = {"type": "give", "to": others[0]["at"], "gold": 1}
    return probes


def action_panel(game: Game, state: dict[str, Any], view: dict[str, Any], seat: int,
                 now: Any) -> dict[str, Any]:
    """What ``seat`` can do now (grouped by kind) and, for each kind it cannot, why not; and
    for every other tank, why I cannot shoot it (drawn on the board)."""
    legal = list(game.legal_actions(state, seat))
    probes = _probe_actions(view, seat)
    can: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        can.setdefault(str(action.get("type", "")), []).append(action)
    tank_legal = [a for a in legal if a.get("type") in TANK_ACTIONS]
    probe = tank_legal[0] if tank_legal else probes.get("move")
    # Cooldown and window hold up every tank action alike: ask once.
    timed = {problem_message(p) for p in (_problems(game, state, seat, probe, now) if probe else [])
             if p.path in ("cooldown", "window")}
    cannot: dict[str, list[str]] = {}
    for kind, example in probes.items():
        if kind in can:
            continue
        problems = [problem_message(p) for p in _problems(game, state, seat, example, now)]
        if problems:
            cannot[kind] = problems
    if timed:
        for kind in TANK_ACTIONS:
            if kind in can:
                cannot.setdefault(kind, sorted(timed))
    why_not: dict[str, list[str]] = {}
    shootable = {a.get("at") for a in can.get("shoot", [])}
    for tank in view.get("tanks") or []:
        if tank.get("seat") == seat or tank.get("status") != "alive":
            continue
        if tank.get("at") in shootable:
            continue
        problems = _problems(game, state, seat, {"type": "shoot", "at": tank.get("at")}, now)
        reasons = [problem_message(p) for p in problems if p.path not in ("cooldown", "window")]
        if reasons:
            why_not[tank.get("at")] = reasons
    return {
        "now_ok": not timed,
        "cannot_labelled": [(words.word(ACTION_LABELS, kind), reasons)
                            for kind, reasons in cannot.items()],
        "can": {kind: actions for kind, actions in can.items()},
        "moves": [a["to"] for a in can.get("move", []) if "to" in a],
        "shots": [a["at"] for a in can.get("shoot", []) if "at" in a],
        "gifts": sorted({str(a.get("to") or a.get("seat")) for a in can.get("give", [])}),
        "cannot": cannot,
        "why_not": why_not,
    }


def _parse_time(text: str) -> Any:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return text


def _problems(game: Game, state: Any, seat: int, action: dict[str, Any], now: Any) -> list:
    return list(game.action_problems(state, seat, action, now))


def play_context(request: HttpRequest, match: Match, *,
                 upto: int | None = None) -> dict[str, Any]:
    """The board, my panel and the Council for ``request.user``, now or at logbook entry
    ``upto`` (replayed from the stored inputs)."""
    game = _game(match)
    my_seat = selectors.match_seat_for_user(match, request.user)
    seat = my_seat.number if my_seat else None
    if game is None or match.state is None:
        return {"match": match, "game": game, "missing": True}
    state = match.state if upto is None else match_replay(match=match, upto_seq=upto)
    bots = dict(match.seats.exclude(bot="").values_list("number", "bot"))
    view = named(game.view(state, seat), bots=bots)
    now = timezone.now()
    panel = None
    live = upto is None and match.status == Match.Status.ACTIVE
    if live and seat is not None and seat in game.prompts(state):
        panel = action_panel(game, state, view, seat, now)
    council = council_worded(view)
    me = view.get("me")
    if isinstance(me, dict) and isinstance(me.get("cooldown_until"), str):
        until = _parse_time(me["cooldown_until"])
        # A cooldown that is over is not shown (the view keeps the last one until the next
        # action): "cooldown until 04:14" read at 04:28 says the tank must still wait.
        if isinstance(until, datetime) and until <= now:
            until = None
        me = {**me, "cooldown_until": until}
    return {
        "match": match, "game": game, "view": view, "my_seat": my_seat, "seat": seat,
        "me": me, "council": council, "panel": panel, "live": live,
        "upto": upto, "svg": board_svg_context(view, me=seat,
                                               why_not=panel["why_not"] if panel else None,
                                               panel=panel if panel and panel["now_ok"]
                                               else None),
        "is_member": any(m.get("seat") == seat for m in council.get("members") or []),
        "position_words": position_words(view, seat),
        "seat_names": {t.get("seat"): t.get("name") for t in view.get("tanks") or []},
    }


def council_worded(view: dict[str, Any]) -> dict[str, Any]:
    """The Council of ``view`` with its roles, decrees, ballots and targets in words."""
    council = view.get("council") or {}
    names = {t.get("seat"): t.get("name") for t in view.get("tanks") or []}
    for member in council.get("members") or []:
        member["role_word"] = words.role_word(member.get("role"))
    for ballot in council.get("ballots") or []:
        ballot["decree_word"] = words.decree_word(ballot.get("decree"))
        ballot["status_word"] = words.ballot_status_word(ballot.get("status"))
        for tally in ballot.get("tallies") or []:
            tally["target_name"] = names.get(tally.get("target"), tally.get("target"))
        if isinstance(ballot.get("my_vote"), dict):
            vote = ballot["my_vote"]
            vote["target_name"] = names.get(vote.get("target"), vote.get("target"))
    return council


def sandbox_play_context(game: Game, state: Any, seat: int, now: Any) -> dict[str, Any]:
    """The board and action panel of ``seat`` on a position of no match (the analysis board,
    a lesson) at the moment ``now``: the match page's own, whose forms hand their action to
    the page (``static/js/sheet.js``) instead of posting it to a match."""
    view = named(game.view(state, seat))
    panel = action_panel(game, state, view, seat, now) if seat in game.prompts(state) else None
    me = view.get("me")
    if isinstance(me, dict) and isinstance(me.get("cooldown_until"), str):
        me = {**me, "cooldown_until": _parse_time(me["cooldown_until"])}
    council = council_worded(view)
    return {
        "view": view, "seat": seat, "me": me, "panel": panel, "sandbox": True,
        "council": council,
        "is_member": any(m.get("seat") == seat for m in council.get("members") or []),
        "svg": board_svg_context(view, me=seat, why_not=panel["why_not"] if panel else None,
                                 panel=panel if panel and panel["now_ok"] else None),
    }


def named(view: dict[str, Any], *, bots: dict[int, str] | None = None) -> dict[str, Any]:
    """``view`` with its tanks' and councillors' names in the reader's language (a tank with
    no name of its own is called after its seat, "Seat 2", by the engine; one that a bot
    drives, of ``bots`` (seat → bot), after its bot as people name it: "Seat 2 (random bot)")."""
    def name_of(seat: Any, name: Any) -> str:
        if isinstance(name, Text) and name.template == tank_words.SEAT and bots \
                and seat in bots:
            return pgettext("a tank named after the bot driving it", "%(seat)s (%(bot)s)") % {
                "seat": say(name), "bot": plugins.bot_name("tank-game", bots[seat])}
        return say(name)

    for tank in view.get("tanks") or []:
        tank["name"] = name_of(tank.get("seat"), tank.get("name"))
    for member in (view.get("council") or {}).get("members") or []:
        member["name"] = name_of(member.get("seat"), member.get("name"))
    return view


def action_from_post(data: Any) -> dict[str, Any]:
    """The action dict from a posted form; BadForm names the field that is wrong."""
    action: dict[str, Any] = {}
    for name, kind in ACTION_FIELDS.items():
        value = (data.get(name) or "").strip()
        if not value:
            continue
        if len(value) > 40:
            raise BadForm(_("The value of %(field)s is too long.") % {
                "field": FIELD_LABELS[name]})
        if kind is int:
            if not re.fullmatch(r"-?[0-9]{1,6}", value):
                raise BadForm(_("The value of %(field)s must be a whole number, not "
                                "“%(value)s”.") % {"field": FIELD_LABELS[name], "value": value})
            action[name] = int(value)
        else:
            action[name] = value.upper() if name in ("to", "at") else value
    if "type" not in action:
        raise BadForm(_("Choose an action."))
    return action


@login_required
@require_POST
def act(request: HttpRequest, match_id: int) -> HttpResponse:
    """Apply one action of my seat now; answer with the refreshed play area (or a 4xx)."""
    match = continuous_match_or_404(request, match_id)
    my_seat = selectors.match_seat_for_user(match, request.user)
    if my_seat is None:
        return _refused(request, match, _("You have no seat in this match."), 403)
    try:
        action = action_from_post(request.POST)
        receipt = actions_apply(match_id=match.pk, seat_number=my_seat.number,
                                user=request.user, action=action, source="web")
    except BadForm as error:
        return _refused(request, match, str(error), 400)
    except ServiceError as error:
        problems = [said for said in map(problem_message, error.problems)
                    if said not in error.message]
        return _refused(request, match, " ".join([error.message, *problems]), status_for(error))
    notice = _("Done (logbook entry %(number)s).") % {"number": receipt.seq}
    if not request.htmx:  # a plain form post: back to the page
        messages.success(request, notice)
        return redirect_to(request, match_url(match))
    match.refresh_from_db()
    context = play_context(request, match)
    context["notice"] = notice
    # The logbook beside the play area shows the action at once (an out-of-band swap), not
    # only after its poll or a reload.
    log = logbook_context(match, context["game"], my_seat.number)
    return HttpResponse(
        render_to_string("games/tank-game/partials/play.html", context, request=request)
        + render_to_string("games/tank-game/partials/log.html",
                           {"match": match, **log, "log_oob": True}, request=request))


def _refused(request: HttpRequest, match: Match, message: str, status: int) -> HttpResponse:
    if request.htmx:
        return render(request, "partials/error.html", {"error": message}, status=status)
    from games.views.match import match_page_context, match_template

    context = match_page_context(request, match)
    context["error"] = message
    return render(request, match_template(match), context, status=status)


@require_GET
def play(request: HttpRequest, match_id: int) -> HttpResponse:
    """The play area (board, panel, Council), polled by the match page."""
    match = continuous_match_or_404(request, match_id)
    return render(request, "games/tank-game/partials/play.html", play_context(request, match))


def _entry_number(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "")
    if raw == "":
        return None
    try:
        return parse_int(raw, min=0, max=999_999_999, field=name)
    except InvalidNumber:
        raise BadForm(_("“%(value)s” is not a logbook entry number.") % {"value": raw}) from None


def _upto(request: HttpRequest) -> int | None:
    return _entry_number(request, "upto")


def logbook_rows(game: Game, rows: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Logbook rows as ``seat`` may read them: each row's entries through the game's
    ``public_entry`` (a vote's choice is its voter's alone), their texts a line each."""
    out = []
    for row in rows:
        entries = [game.public_entry(e, seat) for e in row["events"] if isinstance(e, dict)]
        texts = [stored(game, e.get("text", "")) for e in entries]
        if not texts:
            texts = [_("No effect after a strike-out.")]
        out.append({key: row[key] for key in ("seq", "kind", "seat", "at", "struck",
                                              "struck_reason")} | {"texts": texts})
    return out


def logbook_context(match: Match, game: Game, seat: int | None, *, before: int | None = None,
                    after: int | None = None) -> dict[str, Any]:
    """One page of the logbook (newest first) for the match page, its poll and "load more":
    the latest entries, those older than ``before`` or those newer than ``after``."""
    rows = logbook_window(match=match, before=before, after=after, limit=LOGBOOK_PAGE + 1)
    more = len(rows) > LOGBOOK_PAGE
    rows = rows[:LOGBOOK_PAGE]
    newest = rows[0]["seq"] if rows else (after or 0)
    return {
        "log_rows": logbook_rows(game, rows, seat),
        # "load more" goes on from the oldest row shown; a poll goes on from the newest
        "log_older_than": rows[-1]["seq"] if rows and more and after is None else None,
        "log_gap": more and after is not None,  # more new entries than a page: reload
        "log_poll_after": newest if before is None else None,
    }


@require_GET
def logbook_entries(request: HttpRequest, match_id: int) -> HttpResponse:
    """A page of logbook rows (HTMX): older than ``before`` ("load more"), or newer than
    ``after`` (the poll that keeps the match page's logbook current)."""
    match = continuous_match_or_404(request, match_id)
    game = _game(match)
    if game is None or match.state is None:
        return render(request, "partials/error.html",
                      {"error": _("This match has no logbook yet.")}, status=404)
    try:
        before, after = _entry_number(request, "before"), _entry_number(request, "after")
    except BadForm as error:
        return render(request, "partials/error.html", {"error": str(error)}, status=400)
    if before is not None and after is not None:
        return render(request, "partials/error.html",
                      {"error": _("Ask for entries before one entry or after it, not both.")},
                      status=400)
    my_seat = selectors.match_seat_for_user(match, request.user)
    context = logbook_context(match, game, my_seat.number if my_seat else None, before=before,
                              after=after)
    return render(request, "games/tank-game/partials/log_rows.html", {"match": match, **context})


@require_GET
def logbook(request: HttpRequest, match_id: int) -> HttpResponse:
    """The logbook page with a slider to see the board as it was after any entry, and the
    entries a page at a time (newest first; ``before`` pages back without JavaScript)."""
    match = continuous_match_or_404(request, match_id)
    try:
        upto = _upto(request)
        before = _entry_number(request, "before")
    except BadForm as error:
        return render(request, "partials/error.html", {"error": str(error)}, status=400)
    last = match.logbook_seq
    if upto is not None and upto > last:
        return render(request, "partials/error.html",
                      {"error": ngettext(
                          "The logbook has %(count)s entry; there is no entry %(number)s.",
                          "The logbook has %(count)s entries; there is no entry %(number)s.",
                          last) % {"count": last, "number": upto}},
                      status=400)
    context = play_context(request, match, upto=upto)
    if context.get("missing"):
        return render(request, "partials/error.html",
                      {"error": _("This match has no logbook yet.")}, status=404)
    context.update(last_seq=last, shown=upto if upto is not None else last)
    if request.htmx:
        return render(request, "games/tank-game/partials/board_at.html", context)
    context.update(logbook_context(match, context["game"], context["seat"], before=before))
    return render(request, "games/tank-game/logbook.html", context)


@require_GET
def logbook_text(request: HttpRequest, match_id: int) -> HttpResponse | StreamingHttpResponse:
    """The whole logbook as plain text, in the rule book's style: streamed from the rows (the
    state keeps none of it), a thousand at a time."""
    match = continuous_match_or_404(request, match_id)
    game = _game(match)
    if game is None or match.state is None:
        return HttpResponse(_("This match has no logbook yet.") + "\n", status=404,
                            content_type="text/plain; charset=utf-8")
    my_seat = selectors.match_seat_for_user(match, request.user)
    seat = my_seat.number if my_seat else None
    state = match.state
    rows = (Action.objects.filter(match=match, struck=False).order_by("seq")
            .values_list("events", flat=True).iterator(chunk_size=1000))
    language = translation.get_language()  # the rows are read after the view has returned

    def said(events: list[Any]) -> str:
        """One row's entries as the reader may see them, in the reader's language."""
        entries = (game.public_entry(e, seat) for e in events if isinstance(e, dict))
        with translation.override(language):
            return "".join(tank_view.log_line(state["options"], dict(
                entry, text=stored(game, entry.get("text", "")))) + "\n" for entry in entries)

    lines = (said(events) for events in rows)
    response = StreamingHttpResponse(lines, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="match-{match.pk}-logbook.txt"'
    return response
