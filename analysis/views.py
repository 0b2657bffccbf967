"""The analysis board's pages: start an analysis (from a match or a record), look at any
position of it (anyone holding the link), play on from it (its owner)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from analysis import board, services
from analysis.models import Analysis
from analysis.records import MAX_BYTES, RecordError, too_large
from analysis.services import AnalysisError
from engine import RuleError
from games.parsing import parse_int
from games.views.access import match_visible_or_404, redirect_to
from games.words import problem_dicts


def _analysis_or_404(token: str) -> Analysis:
    found = Analysis.objects.filter(token=token).first() if len(token) <= 32 else None
    if found is None:
        raise Http404(_("No such analysis."))
    return found


def _node_id(value: str, field: str = "node") -> int:
    return parse_int(value, min=0, max=services.MAX_NODES, field=field) if value else 0


def _refused(request: HttpRequest, error: AnalysisError, template: str,
             context: dict[str, Any]) -> HttpResponse:
    return render(request, template, {**context, "error": error}, status=error.status)


@login_required
@require_safe
def mine(request: HttpRequest) -> HttpResponse:
    """The user's analyses, and the form to upload a record."""
    return render(request, "analysis/mine.html", _mine_context(request))


@csrf_exempt  # only so that a huge body is refused before anything reads it: see _upload
@login_required
@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    """POST a record JSON (file field ``record``): a new analysis replaying it. A body over
    the cap is refused on its announced length, before the CSRF check reads (and spools) it."""
    if _content_length(request) > MAX_BYTES + 64_000:
        return _refused(request, AnalysisError(too_large(), status=413), "analysis/mine.html",
                        _mine_context(request))
    return _upload(request)


@csrf_protect
def _upload(request: HttpRequest) -> HttpResponse:
    uploaded = request.FILES.get("record")
    try:
        if uploaded is None:
            raise AnalysisError(_("No file: choose a match record (a .json file) to upload."))
        if uploaded.size > MAX_BYTES:
            raise AnalysisError(too_large(), status=413)
        analysis = services.analysis_from_record(user=request.user, raw=uploaded.read(),
                                                 name=uploaded.name or "")
    except AnalysisError as error:
        return _refused(request, error, "analysis/mine.html", _mine_context(request))
    except RecordError as error:
        return _refused(request, AnalysisError(str(error)), "analysis/mine.html",
                        _mine_context(request))
    return redirect_to(request, analysis_url(analysis))


def _mine_context(request: HttpRequest) -> dict[str, Any]:
    return {"analyses": Analysis.objects.filter(owner=request.user).only(
        "token", "title", "game", "updated_at")[:100], "max_mb": MAX_BYTES // 1_000_000}


@require_http_methods(["GET", "HEAD", "POST"])
def start(request: HttpRequest, match_id: int) -> HttpResponse:
    """GET: the positions of the match one may analyse; POST (logged in): start at one."""
    match = match_visible_or_404(request, match_id)
    context = {"match": match, "points": services.match_start_points(match=match),
               "reason": services.match_public_reason(match)}
    if request.method != "POST":
        return render(request, "analysis/start.html", context)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={request.path}")
    raw = request.POST.get("phase", "")
    try:
        phase = parse_int(raw, min=1, max=10**9, field="phase") if raw else None
        analysis = services.analysis_from_match(user=request.user, match=match,
                                                phase_number=phase)
    except AnalysisError as error:
        return _refused(request, error, "analysis/start.html", context)
    return redirect_to(request, analysis_url(analysis))


@require_safe
def detail(request: HttpRequest, analysis_token: str) -> HttpResponse:
    """A position of the analysis (``?node=``), seen as a spectator or as a seat (``?as=``):
    the whole page, or for HTMX only the position."""
    analysis = _analysis_or_404(analysis_token)
    node_id = _node_id(request.GET.get("node", ""))
    as_raw = request.GET.get("as", "")
    seat = parse_int(as_raw, min=1, max=analysis.seats, field="as") if as_raw else None
    try:
        context = board.context(request, analysis, node_id, seat)
    except AnalysisError as error:
        raise Http404(error.message) from None
    template = "analysis/position.html" if request.htmx else "analysis/board.html"
    return render(request, template, context)


@require_POST
def play(request: HttpRequest, analysis_token: str) -> HttpResponse:
    """POST orders for the position ``node`` (``orders_<seat>``; ``acting`` for a continuous
    phase; ``tick`` for the next scheduled event): the position they lead to."""
    analysis = _analysis_or_404(analysis_token)
    _owner_only(request, analysis)
    node_id = _node_id(request.POST.get("node", ""))
    orders = {n: request.POST.get(f"orders_{n}", "")[:20_000]
              for n in range(1, analysis.seats + 1)}
    acting_raw = request.POST.get("acting", "")
    try:
        acting = parse_int(acting_raw, min=1, max=analysis.seats, field="acting") \
            if acting_raw else None
        if "sheet" in request.POST:  # the clickable board's orders, for one seat
            acting = parse_int(request.POST.get("seat", ""), min=1, max=analysis.seats,
                               field="seat")
            orders = {acting: services.analysis_sheet_orders(
                analysis=analysis, user=request.user, node_id=node_id, seat=acting,
                raw=request.POST["sheet"])}
        new_id = services.analysis_play(analysis=analysis, user=request.user, node_id=node_id,
                                        orders=orders, acting=acting,
                                        tick=request.POST.get("tick") == "1")
    except AnalysisError as error:
        analysis.refresh_from_db()
        if error.status == 404:
            raise Http404(error.message) from None
        shown = acting if "sheet" in request.POST else None  # back to the board it came from
        context = board.context(request, analysis, node_id, shown, posted=orders, error=error)
        return render(request, "analysis/position.html" if request.htmx else
                      "analysis/board.html", context, status=error.status)
    analysis.refresh_from_db()
    # Played on the board: the new position is shown to whoever plays on next (the same seat
    # while it may still act), so play goes on by clicking.
    view_as = board.next_player(analysis, new_id, acting) if "sheet" in request.POST else None
    url = f"{analysis_url(analysis)}?node={new_id}" + (f"&as={view_as}" if view_as else "")
    if request.htmx:
        response = render(request, "analysis/position.html",
                          board.context(request, analysis, new_id, view_as))
        response["HX-Push-Url"] = url
        return response
    return redirect(url)


@require_POST
def check(request: HttpRequest, analysis_token: str) -> HttpResponse:
    """POST: the live check of the clickable board's panel (``?node=&seat=``; the form is the
    game's), as JSON: what the game answers, or the problems (owner only; stores nothing)."""
    analysis = _analysis_or_404(analysis_token)
    _owner_only(request, analysis)
    node_id = _node_id(request.GET.get("node", ""))
    seat = parse_int(request.GET.get("seat", ""), min=1, max=analysis.seats, field="seat")
    try:
        answer = services.analysis_check(analysis=analysis, user=request.user,
                                         node_id=node_id, seat=seat, data=request.POST,
                                         check_url=request.get_full_path())
    except AnalysisError as error:
        return JsonResponse({"ok": False, "problems": [{"path": "", "message": error.message}]},
                            status=error.status)
    except RuleError as error:
        return JsonResponse({"ok": False, "problems": problem_dicts(error.problems)},
                            status=400)
    return HttpResponse(answer) if isinstance(answer, str) else JsonResponse(answer)


@require_safe
def suggest(request: HttpRequest, analysis_token: str) -> HttpResponse:
    """What a bot would play for ``seat`` in position ``node``, as text (owner only)."""
    analysis = _analysis_or_404(analysis_token)
    _owner_only(request, analysis)
    node_id = _node_id(request.GET.get("node", ""))
    seat = parse_int(request.GET.get("seat", ""), min=1, max=analysis.seats, field="seat")
    try:
        text = services.analysis_suggest(analysis=analysis, user=request.user,
                                         node_id=node_id, seat=seat)
    except AnalysisError as error:
        return render(request, "analysis/suggestion.html", {"error": error, "seat": seat},
                      status=error.status)
    return render(request, "analysis/suggestion.html", {"text": text, "seat": seat,
                                                        "node": node_id})


@require_POST
def delete(request: HttpRequest, analysis_token: str) -> HttpResponse:
    analysis = _analysis_or_404(analysis_token)
    _owner_only(request, analysis)
    services.analysis_delete(analysis=analysis, user=request.user)
    return redirect_to(request, reverse("analysis:mine"))


def _content_length(request: HttpRequest) -> int:
    value = request.META.get("CONTENT_LENGTH", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 19 else 0


def _owner_only(request: HttpRequest, analysis: Analysis) -> None:
    """Refuse (403) anyone but the analysis's owner, before any work."""
    if not request.user.is_authenticated or analysis.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the person who made this analysis can change it; "
                                 "start your own from the same position."))


def analysis_url(analysis: Analysis) -> str:
    return reverse("analysis:detail", args=[analysis.token])
