"""The lobby: open and running public matches, my matches, creating and joining by invite."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import pagecache, plugins, selectors
from games.forms import JoinForm, MatchCreateForm
from games.models import Match, Seat
from games.option_fields import FIELD_PREFIX
from games.parsing import InvalidNumber, parse_id, parse_int
from games.services import ServiceError, match_create, seat_join
from games.services.timing import seat_clocks
from games.views.access import match_path, match_url, redirect_to, status_for
from games.words import problem_line, problem_message


class ClockShown(NamedTuple):
    """A seat's clock as a lobby row shows it (its time left in words: the row is kept for
    what it shows, not for the second it was read)."""

    seat: int
    text: str
    running: bool
    on_leave_until: datetime | None


LOBBY_SIZE = 25  # per list and page (the lobby shows two lists)
CREATE_FIELDS = (
    "game", "preset", "title", "seat_count", "options", "options_game", "preset_filled",
    "hours_per_phase", "miss_policy", "miss_limit", "is_public", "min_reliability",
    "clock_bank_hours", "clock_increment_hours", "clock_cap_hours", "max_shift_hours",
    "allow_vacations", "autopilot", "press", "reveal_private",
)


def lobby(request: HttpRequest) -> HttpResponse:
    """Public matches waiting for players (newest first) and in play (next deadline first),
    a page of each at a time (``?page=N``). Each list reads at most a page and one row through
    its own partial index (``match_open_public_new``, ``match_active_deadline``), however many
    finished matches the site holds; the seats of both lists' matches (the players, with their
    reliability records, and the open seats' count), in one more query (as plain rows: the
    page shows them as text). On the first page, the seats of public matches in play that
    seek a new commander (one more query, through the partial index ``seat_seeking``)."""
    page = _page_number(request)
    start = (page - 1) * LOBBY_SIZE
    open_matches, running = selectors.lobby_page(start, start + LOBBY_SIZE + 1)
    more = len(open_matches) > LOBBY_SIZE or len(running) > LOBBY_SIZE
    open_matches, running = open_matches[:LOBBY_SIZE], running[:LOBBY_SIZE]
    players, open_seats = selectors.lobby_seats([match.pk for match in open_matches + running])
    now = timezone.now()
    for match in open_matches + running:
        match.url = match_path(match.pk)
        match.players = players.get(match.pk, [])
    for match in open_matches:
        match.open_seats = open_seats.get(match.pk, 0)
    for match in running:  # each seat's clock as shown, from the match row (no query)
        match.clocks = [ClockShown(clock.seat, clock.text, clock.running, clock.on_leave_until)
                        for clock in seat_clocks(match, now).values()]
    # Seats of matches in play whose player is gone (games.services.seeking): first page only.
    seeking = selectors.seats_seeking(limit=LOBBY_SIZE, user=request.user) if page == 1 else []
    offered = [plugins.plugin_for(slug) for slug in plugins.installed()]
    # The lists are most of the page's rows: rendered with Jinja2 (portal/jinja2.py), once for
    # what they show (the matches' rows, their players and clocks as worked out above, in the
    # reader's language and time zone): the same for every reader until a row changes.
    key = pagecache.key_for("lobby-lists", timezone.get_current_timezone_name(),
                            pagecache.fingerprint(open_matches, running))
    lists = mark_safe(pagecache.cached(key, lambda: render_to_string(  # noqa: S308 (Jinja2)
        "games/lobby_lists.jinja", {"open_matches": open_matches, "running": running},
        request=request, using="jinja2")))
    return render(request, "games/lobby.html", {
        # The page around them too, for what it shows (the seats seeking a commander are the
        # reader's own: theirs are left out).
        "lobby_key": pagecache.fingerprint(request.user.is_authenticated, key, seeking, page,
                                           more),
        "lists": lists, "offered": offered, "seeking": seeking, "page": page,
        "next_page": page + 1 if more else None,
        "previous_page": page - 1 if page > 1 else None,
    })


def _page_number(request: HttpRequest) -> int:
    try:
        return parse_int(request.GET.get("page", "1"), min=1, max=10_000, field="page")
    except InvalidNumber:
        raise Http404(_("No such page.")) from None


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    """The user's current matches, then their finished ones a page at a time (``?before=``:
    the seat id the previous page ended with)."""
    before = request.GET.get("before")
    try:
        finished_before = None if before is None else parse_id(before, field="before")
    except InvalidNumber:
        raise Http404(_("No such page.")) from None
    entries = selectors.matches_for_user(
        request.user, finished_before=finished_before,
        finished_limit=selectors.FINISHED_PAGE + 1)
    finished = [m for m in entries if m.status in (Match.Status.FINISHED, Match.Status.ABORTED)]
    older = None
    if len(finished) > selectors.FINISHED_PAGE:
        entries = entries[:-1]
        older = finished[selectors.FINISHED_PAGE - 1].my_seat.pk
    for match in entries:
        match.url = match_path(match.pk)
    status_labels = {value: str(label) for value, label in Match.Status.choices}
    rows = mark_safe(render_to_string(  # noqa: S308 (autoescaped by Jinja2)
        "games/my_matches_list.jinja", {"matches": entries, "status_labels": status_labels},
        request=request, using="jinja2"))
    return render(request, "games/my_matches.html", {
        "matches": entries, "rows": rows, "older": older, "further_page": before is not None})


@login_required
@require_http_methods(["GET", "POST"])
def create(request: HttpRequest) -> HttpResponse:
    template = "games/partials/create_form.html" if request.htmx else "games/match_create.html"
    if request.method == "GET":
        # A GET with the form's fields re-draws it for another game or seat count.
        form = MatchCreateForm(initial=_redraw_initial(request), user=request.user)
        return render(request, template, _create_context(form))

    form = MatchCreateForm(request.POST, user=request.user)
    if not form.is_valid():
        return render(request, template, _create_context(form), status=400)
    data = form.cleaned_data
    try:
        match = match_create(
            creator=request.user,
            game=data["game"],
            options=data["options"],
            seats=data["seats"],
            hours_per_phase=data["hours_per_phase"],
            miss_policy=data["miss_policy"],
            miss_limit=data["miss_limit"],
            is_public=data["is_public"],
            allow_vacations=data["allow_vacations"],
            autopilot=data["autopilot"],
            press=data["press"] or Match.Press.FULL,
            reveal_private=data["reveal_private"],
            title=data["title"],
            min_reliability=data.get("min_reliability"),
            clock_bank_hours=data["clock_bank_hours"],
            clock_increment_hours=data["clock_increment_hours"] or 0,
            clock_cap_hours=data["clock_cap_hours"],
            max_shift_hours=(12 if data["max_shift_hours"] is None
                             else data["max_shift_hours"]),
        )
    except ServiceError as error:
        _attach_errors(form, error)
        return render(request, template, _create_context(form), status=status_for(error))
    messages.success(request, _("Match created."))
    return redirect_to(request, match_url(match))


def invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: shows the match and lets the visitor take an open seat."""
    match = Match.objects.filter(invite_token=token).first()
    if match is None:
        raise Http404(_("This invite link is not valid."))
    seats = list(match.seats.select_related("user"))
    # An open match, or a seat a moderator opened in a match in play.
    taking = match.status == Match.Status.OPEN or (
        match.status == Match.Status.ACTIVE and any(seat.status == Seat.Status.OPEN
                                                    for seat in seats))
    return render(request, "games/invite.html", {"match": match, "seats": seats, "token": token,
                                                 "taking": taking})


@login_required
@require_POST
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    match = Match.objects.filter(invite_token=token).first()
    if match is None:
        raise Http404(_("This invite link is not valid."))
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _refused(request, "games/invite.html", form.errors.as_text(), 400,
                        {"match": match, "seats": list(match.seats.all()), "token": token})
    try:
        seat_join(
            match_id=match.pk,
            user=request.user,
            seat_number=form.cleaned_data["seat_number"],
            invite_token=token,
        )
    except ServiceError as error:
        return _refused(request, "games/invite.html", error.message, status_for(error),
                        {"match": match, "seats": list(match.seats.all()), "token": token})
    messages.success(request, _("You took a seat."))
    return redirect_to(request, match_url(match))


def _redraw_initial(request: HttpRequest) -> dict:
    """A GET's form fields (a re-draw for another game, preset or seat count) as the form's
    start values."""
    names = [*CREATE_FIELDS, *(name for name in request.GET
                               if name.startswith(("seat_", FIELD_PREFIX)))]
    initial: dict = {}
    for name in names:
        values = request.GET.getlist(name)
        if values:  # an option field may hold several (the form takes what it needs)
            initial[name] = values if name.startswith(FIELD_PREFIX) else values[-1]
    if "options_game" in request.GET:  # a re-draw of the form: keep the boxes as they were
        for name in ("is_public", "allow_vacations", "autopilot", "reveal_private"):
            initial[name] = name in request.GET
    return initial


def _create_context(form: MatchCreateForm) -> dict:
    return {"form": form}


def _attach_errors(form: MatchCreateForm, error: ServiceError) -> None:
    """Put a refused creation's problems next to the fields they are about."""
    if not error.problems:
        form.add_error(None, error.message)
        return
    if error.code == "invalid_options":
        form.add_option_problems(list(error.problems))
        return
    for problem in error.problems:
        field = None
        if problem.path.startswith("seats."):
            name = f"seat_{problem.path.removeprefix('seats.')}"
            field = name if name in form.fields else None
        form.add_error(field, problem_message(problem) if field else problem_line(problem))


def _refused(request, template, message, status, context) -> HttpResponse:
    return render(request, template, {**context, "error": message}, status=status)
