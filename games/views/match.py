"""The match page and its partials: phase, deadline, who has submitted, history, seats."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import engine
from engine import Game
from games import pagecache, plugins, selectors
from games.endings import ending_of, ending_sentence, ending_status, ending_words
from games.forms import JoinForm, OrdersForm
from games.models import Match, Phase, Seat, Submission
from games.prepared import run_together
from games.services import ServiceError, presence, receipt_verify, seat_join, seat_leave
from games.services.timing import moved_deadline, seat_clocks
from games.services.votes import OUT
from games.views.access import (
    is_participant,
    match_url,
    match_visible_or_404,
    redirect_to,
    status_for,
)
from games.views.plans import plan_panel_context, sheet_ahead_context, sheets_ahead_call
from games.votes import LATEST_VOTES, match_votes

# How often the submission-status partial polls while a phase is open.
POLL_SECONDS = 5
# The match page shows the latest few resolved phases in full; the history partial has all.
HISTORY_ON_PAGE = 5


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    context = match_page_context(request, match)
    context["page_key"] = page_key(request, match, context)
    return render(request, match_template(match), context)


# Not data the page shows (the game's and plug-in's code; a form made when asked for).
NOT_IN_PAGE_KEY = frozenset({"game", "plugin", "orders_form", "page_key"})


def page_key(request: HttpRequest, match: Match, context: dict[str, Any]) -> str:
    """What the match page's kept blocks (``{% pagekept %}``) are kept under: a fingerprint of
    everything its context holds (the match row with its state, the seats, the reader's sheet,
    the votes, the plug-in's parts …), the reader and their rights, the address asked for, and
    the time left to the deadline in the page's words; the language and time zone are added
    by the tag. "" (nothing kept) when some part of the context is not plain data."""
    from games.templatetags.dates import time_left

    user = request.user
    shown = {name: value for name, value in context.items() if name not in NOT_IN_PAGE_KEY}
    try:
        return pagecache.fingerprint(
            user.pk, user.is_staff, request.get_full_path(), request.get_host(), request.scheme,
            time_left(match.deadline), shown)
    except TypeError:
        return ""


def match_template(match: Match) -> str:
    """The game's own page (its plug-in's ``match_template``, usually extending
    games/match.html and replacing some of its blocks); the generic page otherwise."""
    return plugins.plugin_for(match.game).match_template


def submission_status(request: HttpRequest, match_id: int) -> HttpResponse:
    """Polled by the match page (every few seconds from every open page): who has submitted
    (never what). When the phase the page shows has resolved, HTMX is told to reload the whole
    page. The answer carries an ETag made of the phase and the number of seats in; while it
    has not changed, the browser's revalidation gets ``304 Not Modified`` after one query."""
    poll = selectors.match_poll(match_id, request.user)
    user = request.user
    if poll is None or not (poll["is_public"] or poll["seated"] or (
            user.is_authenticated and (user.is_staff or poll["created_by_id"] == user.pk))):
        raise Http404(_("No such match."))
    if poll["seated"]:  # the page is open: its player is at it (games.services.presence)
        presence.seat_seen(match_id=match_id, user_id=user.pk)
    shown = request.GET.get("phase", "")
    if request.htmx and shown != "" and (shown != str(poll["phase_number"])
                                          or poll["status"] != Match.Status.ACTIVE):
        response = HttpResponse(status=200)
        response["HX-Refresh"] = "true"
        return response
    etag = quote_etag("-".join(str(part) for part in (
        poll["pk"], poll["status"], poll["phase_number"], poll["submitted"],
        user.pk if user.is_authenticated else 0, translation.get_language(),
        "htmx" if request.htmx else "page")))
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
    else:
        match = match_visible_or_404(request, match_id)
        response = render(request, "games/partials/submission_status.html",
                          match_page_context(request, match, full=False))
    response["ETag"] = etag
    # Kept by the browser but asked again every time (the ETag makes that cheap); its own.
    response["Cache-Control"] = "private, no-cache"
    return response


def history(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every resolved phase: the partial the match page's "earlier phases" button swaps in, or
    (without HTMX: a link followed, a bookmark) a page of its own."""
    match = match_visible_or_404(request, match_id)
    template = "games/partials/history.html" if request.htmx else "games/history.html"
    return render(request, template, {"match": match, "history": history_entries(match)})


@login_required
@require_POST
def join(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _match_refused(request, match, _("Choose a seat number."), 400)
    try:
        seat_join(match_id=match.pk, user=request.user,
                  seat_number=form.cleaned_data["seat_number"])
    except ServiceError as error:
        return _match_refused(request, match, error.message, status_for(error))
    messages.success(request, _("You took a seat."))
    return redirect_to(request, match_url(match))


@login_required
@require_POST
def leave(request: HttpRequest, match_id: int) -> HttpResponse:
    """Leave one's seat: of an open match at once; of a match in play (the seat then seeks a
    new commander) only with the box ticked that confirms it."""
    match = match_visible_or_404(request, match_id)
    if match.status == Match.Status.ACTIVE and request.POST.get("confirm") != "on":
        return _match_refused(request, match, gettext(
            "Tick the box to confirm that you hand your seat over."), 400)
    try:
        seat = seat_leave(match_id=match.pk, user=request.user)
    except ServiceError as error:
        return _match_refused(request, match, error.message, status_for(error))
    if seat.seeking:
        messages.success(request, gettext(
            "You left the match: your seat now seeks a new commander."))
    else:
        messages.success(request, gettext("You left the match."))
    return redirect_to(request, match_url(match))


def _match_refused(request: HttpRequest, match: Match, message: str, status: int) -> HttpResponse:
    if request.htmx:
        return render(request, "partials/error.html", {"error": message}, status=status)
    context = match_page_context(request, match)
    context["error"] = message
    return render(request, match_template(match), context, status=status)


# -- the page's context -------------------------------------------------------------------------

def match_page_context(
    request: HttpRequest, match: Match, *, orders_form: OrdersForm | None = None,
    full: bool = True,
) -> dict[str, Any]:
    """Everything the match page shows to ``request.user``; sealed content only for their own
    seat, everything else through the engine's ``view`` for that seat (or a spectator)."""
    game = engine.games().get(match.game)
    user = request.user
    read = _page_reads(match, game, user) if full else {}
    seats = selectors.match_seats(match, read.get("seats"))
    my_seat = next((seat for seat in seats if user.is_authenticated
                    and seat.user_id == user.pk), None)
    active = match.status == Match.Status.ACTIVE and match.state is not None and game is not None
    prompts = game.prompts(match.state) if active else {}
    must_act = active and my_seat is not None and my_seat.number in prompts
    my_sheet = None
    if full:  # the page: its phases (read above), and who is in with the reader's own sheet
        resolved, open_phase = selectors.match_page_phases(match, latest=HISTORY_ON_PAGE,
                                                           rows=read["phases"])
        submitted, my_sheet = selectors.phase_sheets(
            match, open_phase, prompted=set(prompts), seats=seats,
            author=my_seat if must_act else None, user=user) if active else ({}, None)
    else:  # the status poll
        submitted = selectors.phase_submission_status(match) if active else {}
    clocks = seat_clocks(match, timezone.now(), seats=[seat.number for seat in seats]) \
        if active else {}
    plugin = plugins.plugin_for(match.game)
    rows = [_seat_row(plugin, seat, prompts, submitted) for seat in seats]
    for row in rows:
        row["clock"] = clocks.get(row["seat"].number)
    moved = moved_deadline(match) if active else None
    if moved is not None:
        moved["by"] = next((row for row in rows if row["seat"].number == moved["seat"]), None)
    context: dict[str, Any] = {
        "match": match,
        "game": game,
        "game_name": game.name if game else match.game,
        "my_seat": my_seat,
        "seats": rows,
        "active": active,
        "poll_seconds": POLL_SECONDS,
        "my_clock": clocks.get(my_seat.number) if my_seat is not None else None,
        "moved_deadline": moved,
    }
    if must_act:
        context["must_act"] = True
    if not full:  # the status poll: who is in, nothing more
        return context
    if must_act:
        context["my_sheet"] = my_sheet
    context["orders_form"] = orders_form if context.get("must_act") else None
    if must_act and orders_form is None:
        # Made only if the page shows it (a game with its own panel never does).
        context["orders_form"] = SimpleLazyObject(lambda: OrdersForm(initial={
            "phase_number": match.phase_number,
            "format": OrdersForm.Format.TEXT,
        }))
    context["can_join"] = (
        match.status == Match.Status.OPEN and user.is_authenticated and my_seat is None
        and any(seat.status == Seat.Status.OPEN for seat in seats)
    )
    # A seat out of the match (forfeited, conceded, out by the rules) is not handed on.
    context["can_leave"] = my_seat is not None and (
        match.status == Match.Status.OPEN
        or (active and my_seat.status not in OUT
            and my_seat.number not in game.seats_out(match.state)))
    # A seat seeking a commander: its link is shown to whoever could pass it on (anyone, for a
    # public match, which lists it in the lobby anyway; else the participants and staff).
    context["show_offer_links"] = any(seat.seeking for seat in seats) and (
        match.is_public or is_participant(match, user) or user.is_staff)
    context["show_invite"] = is_participant(match, user) and match.status == Match.Status.OPEN
    context["resolved_phases"] = resolved
    context["history"] = history_entries(match, latest=HISTORY_ON_PAGE,
                                         phases=context["resolved_phases"])
    context["history_older"] = len(context["resolved_phases"]) - len(context["history"])
    # What the history shown depends on (resolved phases never change): its part of the page
    # is rendered once for them ({% kept %}).
    context["history_key"] = [[entry["phase"].pk for entry in context["history"]],
                              context["history_older"]]
    context["votes"] = match_votes(match, user, seats=seats, votes=read["votes"])
    context.update(_ending_context(match))
    context["moderation_log"] = selectors.match_moderation_log(match, read["moderation"])
    if active:
        context["open_phase"] = open_phase
        context["plan"] = plan_panel_context(match, game, my_seat, user)
        context["sheet_ahead"] = sheet_ahead_context(match, game, my_seat, user,
                                                     read.get("ahead", ()))
    context["plugin"] = plugins.plugin_for(match.game)
    if game is not None:
        context.update(context["plugin"].page_context(request, match, context))
    # What is drawn from the state and the reader's seat alone is kept under the state's
    # fingerprint, the seat and the language (pagecache): the same until the state changes.
    seat_number = my_seat.number if my_seat is not None else None
    if game is not None and match.state is not None and "position_words" not in context:
        context["position_words"] = pagecache.cached(
            pagecache.key_for("position-words", match.game, pagecache.state_key(match),
                              seat_number),
            lambda: context["plugin"].position_words(match.state, seat_number))
    if game is not None and must_act and my_seat is not None:
        # Every game takes orders in its text grammar too: the generic panel, or on demand.
        typed_key = pagecache.key_for(
            "typed-orders", match.game, pagecache.state_key(match), seat_number,
            *((my_sheet.pk, my_sheet.revision, my_sheet.receipt) if my_sheet is not None
              else ()))
        context.update(pagecache.cached(typed_key, lambda: context["plugin"]
                                        .typed_orders_context(match, seat_number, my_sheet)))
        # Its part of the page too ({% kept %}), unless the page shows a form sent back.
        context["typed_orders_kept"] = typed_key if orders_form is None else ""
        context.setdefault("my_orders_anchor", context["plugin"].orders_anchor)
    return context


def _page_reads(match: Match, game: Game | None, user: Any) -> dict[str, Any]:
    """What the page reads of the match alone (and of the reader), in one round trip: its
    seats, its phases, its votes, its moderation log and, where the game offers conditions,
    the reader's sheets entered ahead (each compiled once per connection)."""
    calls = {"seats": (selectors.MATCH_SEATS, {"match_id": match.pk}),
             "phases": (selectors.PAGE_PHASE_ROWS, selectors.page_phase_values(match)),
             "votes": (LATEST_VOTES, {"match_id": match.pk}),
             "moderation": (selectors.MODERATION_LOG_ROWS, {"match_id": match.pk})}
    ahead = sheets_ahead_call(match, game, user)
    if ahead is not None:
        calls["ahead"] = ahead
    return dict(zip(calls, run_together(*calls.values()), strict=True))


def _ending_context(match: Match) -> dict[str, Any]:
    """How the match ended, as every surface says it (``games.endings``): ``result`` (the
    ``Ending``, None while in play), ``ending_status`` and ``ending_sentence``."""
    ending = ending_of(match)
    if ending is None:
        return {"result": None, "ending_status": "", "ending_sentence": ending_words(match)}
    return {"result": ending, "ending_status": ending_status(match.game, ending),
            "ending_sentence": ending_sentence(match.game, ending)}


def _seat_row(plugin: plugins.GamePlugin, seat: Seat, prompts: dict, submitted: dict
              ) -> dict[str, Any]:
    return {
        "seat": seat,
        "name": plugin.seat_name(seat.number),
        "player": seat.user.get_username() if seat.user else (
            plugin.bot_name(seat.bot) if seat.bot else _("open")),
        "prompted": seat.number in prompts,
        "submitted": bool(submitted.get(seat.number)),
    }


def history_entries(match: Match, *, latest: int | None = None,
                    phases: list[Phase] | None = None) -> list[dict[str, Any]]:
    """Resolved phases, newest first, with revealed sheets (as order text) and events: every
    one, or only the ``latest`` few (the page shows those; the history partial has them all).
    Two queries at most whatever the match length: the phase list, then the full rows of
    those shown that are not in the cache yet."""
    game = engine.games().get(match.game)
    if phases is None:
        phases = resolved_phases(match)
    shown = phases[-latest:] if latest else phases
    # A resolved phase's record never changes: each is made once and then read from the cache
    # (pagecache). Only those missing load their rows, state_before included (sheets are
    # written as text from it), in one query.
    # The events are told in the reader's language: one record per language.
    keys = {phase.pk: pagecache.key_for("history-record", match.pk, match.seed, phase.pk,
                                        phase.number, translation.get_language())
            for phase in shown}
    kept = pagecache.get_many(list(keys.values()))
    missing = [phase.pk for phase in shown if keys[phase.pk] not in kept]
    made = {}
    for phase in Phase.objects.filter(pk__in=missing) if missing else []:
        made[keys[phase.pk]] = _history_record(game, plugins.plugin_for(match.game), phase)
    if made:
        pagecache.set_many(made)
    plugin = plugins.plugin_for(match.game)
    entries = [{"phase": phase, "label": plugin.phase_label(phase.name),
                **(kept.get(keys[phase.pk]) or made[keys[phase.pk]])} for phase in shown]
    entries.reverse()
    return entries


def _history_record(game: Game | None, plugin: plugins.GamePlugin, phase: Phase
                    ) -> dict[str, Any]:
    """A resolved phase's revealed sheets (as order text, with their receipts checked) and
    events, told in words by the game's plug-in as a spectator may read them."""
    revealed = []
    for seat_key, sheet in sorted((phase.revealed or {}).items(), key=lambda i: int(i[0])):
        number = int(seat_key)
        revealed.append({
            "seat": number,
            "name": plugin.seat_name(number),
            "source": _source_label(sheet.get("source", "")),
            "text": plugins.sheet_text(game, phase.state_before, number, sheet.get("data")),
            "receipt": sheet.get("receipt", ""),
            # Anyone can check that the revealed sheet is the one that was sealed.
            "verified": receipt_verify(salt=sheet.get("salt", ""), data=sheet.get("data"),
                                       receipt=sheet.get("receipt", "")),
        })
    record = {
        "revealed": revealed,
        "events": plugin.round_report(phase.events or [], None),
    }
    record["body"] = render_to_string("games/partials/history_record.html", {"entry": record})
    return record


def _source_label(source: str) -> str:
    """How a sheet came in ("e-mail"), in words; "" for the web (the usual way) and for a
    move played from a plan (that a seat planned is its secret: only a finished match's
    record tells it)."""
    if not source or source in (Submission.Source.WEB, Submission.Source.CONDITIONAL):
        return ""
    try:
        return str(Submission.Source(source).label)
    except ValueError:
        return source


def resolved_phases(match: Match) -> list[Phase]:
    """Every resolved phase of the match, oldest first: numbers and names only."""
    return list(selectors.match_history(match).only("id", "match_id", "number", "name", "kind",
                                                    "status", "resolved_at"))
