"""Who may see a match, and how refused requests answer (status codes, partials)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from games import selectors
from games.models import Match
from games.parsing import InvalidNumber, parse_int
from games.prepared import Prepared
from games.services.errors import ServiceError


def status_for(error: ServiceError) -> int:
    """The HTTP status of a refusal (its code's: games.services.errors.Code)."""
    return error.status


def is_participant(match: Match, user) -> bool:
    """A seated player, or the creator of the match."""
    if not user.is_authenticated:
        return False
    if match.created_by_id == user.pk:
        return True
    return match.seats.filter(user_id=user.pk).exists()


def match_visible_or_404(request: HttpRequest, match_id: int) -> Match:
    """The match if ``request.user`` may look at it; private matches are invisible (404) to
    everyone but their participants and staff."""
    if not 0 < match_id < 2**63:  # (a bigint's range: the database would refuse it)
        raise Http404(_("No such match."))
    found = _MATCH_BY_ID(match_id=match_id)
    match = found[0] if found else None
    if match is None or not selectors.match_visible_to(match, request.user):
        raise Http404(_("No such match."))
    return match


# The match (its SQL compiled once per connection: every page of a match reads it).
_MATCH_BY_ID = Prepared(Match, lambda match_id: Match.objects.filter(pk=match_id),
                        server_side=True, match_id="int")


def match_url(match: Match) -> str:
    return reverse("games:match", args=[match.pk])


@functools.cache
def _match_path_pattern() -> str:
    return reverse("games:match", args=[0]).replace("/0/", "/{}/")


def match_path(match_id: int) -> str:
    """``match_url`` for lists of many matches: the URL pattern is reversed once a process."""
    return _match_path_pattern().format(int(match_id))


def redirect_to(request: HttpRequest, url: str) -> HttpResponse:
    """After a successful POST: a redirect, or for HTMX a header telling it to navigate."""
    if request.htmx:
        response = HttpResponse()
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def own_prompted_seat(request: HttpRequest, match: Match, seat_number: int,
                      phase: str | None = None):
    """The requester's own seat ``seat_number``, which must be asked to act now (in the game
    phase ``phase`` when given). Raises PermissionDenied (403) for anyone else's seat and
    PhaseClosed (409) when the seat has nothing to do."""
    import engine

    seat = selectors.match_seat_for_user(match, request.user)
    if seat is None or seat.number != seat_number:
        raise PermissionDenied(_("That is not your seat."))
    game = engine.games().get(match.game)
    if match.status != Match.Status.ACTIVE or match.state is None or game is None:
        raise PhaseClosed(_("This match is not being played right now."))
    prompt = game.prompts(match.state).get(seat.number)
    if prompt is None or (phase is not None and prompt.phase != phase):
        raise PhaseClosed(_("There is nothing for this seat to submit in this phase; "
                            "reload the page to see the current phase."))
    return seat


class PhaseClosed(Exception):
    """The seat is not asked for this input now (answered with 409)."""


def sealed_elsewhere(request: HttpRequest, match: Match, phase_number: int, notice: str,
                     prompt_phase: str) -> HttpResponse | None:
    """After a sheet was sealed: without HTMX, or when that seal completed the phase and it has
    already been resolved (the seat is no longer asked for ``prompt_phase`` in
    ``phase_number``), the notice goes into the messages and the browser goes to the match page
    (a panel rebuilt now would describe the next phase). None when the panel may answer."""
    from django.contrib import messages

    import engine

    match.refresh_from_db()
    game = engine.games().get(match.game)
    prompts = game.prompts(match.state) if game and match.state is not None else {}
    still_open = (
        match.status == Match.Status.ACTIVE and match.phase_number == phase_number
        and any(p.phase == prompt_phase for p in prompts.values())
    )
    if request.htmx and still_open:
        return None
    messages.success(request, notice)
    return redirect_to(request, match_url(match))


def posted_phase_number(request: HttpRequest) -> int:
    """The phase a posted panel was made for (its hidden ``phase_number``): a form without one
    is refused like one for a phase that has passed."""
    from games.services.errors import ServiceError

    try:
        return parse_int(request.POST.get("phase_number", "").strip(), min=1, max=10**9,
                         field="phase_number")
    except InvalidNumber:
        raise ServiceError("stale_phase", _("The form does not say which phase it is for; "
                                            "reload the page.")) from None


@dataclass(frozen=True)
class Sealed:
    """A sheet a panel sealed: its receipt, the notice saying so, and the answer to send
    instead of the panel when the browser must go to the match page (see sealed_elsewhere)."""

    receipt: Any
    notice: str
    response: HttpResponse | None

    def sheet(self) -> Any:
        """The sealed sheet itself, for the panel that answers in place. Read by its id, not as
        "the open phase's": a worker may resolve the phase between the seal and this read, and
        the panel must still show the receipt the author was just given."""
        from games.models import Submission

        return Submission.objects.select_related("phase").get(pk=self.receipt.submission_id)


def seal_posted(request: HttpRequest, match: Match, seat: Any, data: Any, *, notice: str,
                prompt_phase: str) -> Sealed:
    """Seal ``data`` for ``seat`` in the phase the posted panel was made for (web source).
    ``notice`` says so, a translated sentence with ``%(revision)s`` ("Orders sealed (revision
    2)."; the panels show the receipt folded, on demand). Raises ServiceError when refused."""
    from games.models import Submission
    from games.services import orders_submit

    phase_number = posted_phase_number(request)
    receipt = orders_submit(match_id=match.pk, seat_number=seat.number, user=request.user,
                            phase_number=phase_number, data=data,
                            source=Submission.Source.WEB)
    notice = notice % {"revision": receipt.revision, "receipt": receipt.receipt}
    return Sealed(receipt, notice,
                  sealed_elsewhere(request, match, phase_number, notice, prompt_phase))
