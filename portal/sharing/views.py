"""A public match shared away from the site: its embed (a page other sites put in a frame) and
its link preview's picture (docs/sharing.md). Both show what any spectator sees and nothing
else; a private match has neither (404)."""

from __future__ import annotations

from csp.decorators import csp_replace
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from portal.sharing import preview
from portal.sharing.selectors import match_snapshot, public_match_or_404


# Any site may frame the embed of a public match: the one page that lifts the site's
# clickjacking protection (X-Frame-Options DENY, CSP frame-ancestors 'none'), and only on its
# answer for a public match (a private one's 404 keeps both). The embed has no form and no
# button: a frame around it can make nobody do anything.
@require_safe
@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})
def embed(request: HttpRequest, match_id: int) -> HttpResponse:
    match = public_match_or_404(match_id)
    response = render(request, "sharing/embed.html", {"shot": match_snapshot(match)})
    # The same for everybody (it never reads who asks), so shared caches may keep it a minute.
    response["Cache-Control"] = "public, max-age=60"
    return response


@require_safe
def preview_image(request: HttpRequest, match_id: int) -> HttpResponse:
    """The link preview's picture: the board as a spectator sees it now, as a PNG made once a
    phase (``preview.board_png``)."""
    match = public_match_or_404(match_id)
    response = HttpResponse(preview.board_png(match), content_type="image/png")
    response["Cache-Control"] = "public, max-age=300"
    return response
