"""The web app manifest, the service worker and the offline page (docs/sharing.md)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

NAME = "Tank Portal"
# The site's accent (static/css/portal.css): the installed app's title bar.
THEME_COLOUR = "#2f5d3a"
BACKGROUND_COLOUR = "#fbfaf6"
ICON_SIZES = (192, 512)
# Pages the service worker never keeps for offline reading: accounts, tokens, the admin, the
# API and the one-click links (what only their owner should read, or what changes things).
PRIVATE_PATHS = ["/accounts/", "/admin/", "/api/", "/push/", "/mail/", "/report/", "/calendar/"]


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """What a browser needs to install the site as an app that opens on "your matches"."""
    icons = [{"src": static(f"webapp/icon-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any"} for size in ICON_SIZES]
    icons += [{"src": static(f"webapp/icon-maskable-{size}.png"), "sizes": f"{size}x{size}",
               "type": "image/png", "purpose": "maskable"} for size in ICON_SIZES]
    data = {
        "id": "/",
        "name": NAME,
        "short_name": NAME,
        "description": _("Play tank board games by correspondence: your matches, your moves "
                         "and their results."),
        "lang": get_language(),
        "start_url": reverse("games:my_matches"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1),
                            content_type="application/manifest+json; charset=utf-8")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The one service worker of the site (push and the offline page), at the root so that its
    scope is every page. Asked again by the browser at every visit (no-cache), so a new version
    takes over at once."""
    body = render_to_string("webapp/sw.js", {
        "offline_url": reverse("webapp_offline"),
        "logout_url": reverse("account_logout"),
        "private_paths": json.dumps(PRIVATE_PATHS),
        "shell_files": json.dumps([static("css/portal.css"), static("webapp/offline.js")]),
    })
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the network is gone and it kept no copy of the
    page asked for; its script lists the pages it kept (static/webapp/offline.js). Kept by the
    worker when it installs, so it is the same for everyone: it names nobody."""
    return render(request, "webapp/offline.html")
