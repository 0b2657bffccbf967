"""The bare Django page of scripts/bench_http.py: the portal's settings (middleware, database,
sessions, everything) with a URLconf of one more page: one indexed query (the 50 newest matches by
primary key) and a 50-row template. gunicorn serves it with ``DJANGO_SETTINGS_MODULE`` set to
this module, under the same configuration as the portal."""

from django.shortcuts import render
from django.urls import include, path

from portal.settings import *  # noqa: F403
from portal.settings import BASE_DIR, TEMPLATES

ROOT_URLCONF = "bench_http_bare"
TEMPLATES = [{**TEMPLATES[0], "DIRS": [*TEMPLATES[0]["DIRS"], BASE_DIR / "scripts" / "templates"]},
             *TEMPLATES[1:]]


def bare(request):
    from games.models import Match

    rows = list(Match.objects.order_by("-pk").values("pk", "title", "game", "status")[:50])
    return render(request, "bench_http_bare.html", {"rows": rows})


# The portal's URLs after it: every name reverses as on the site (base.html's links are
# reversed by a context processor, which runs on the bare page too); /bare/ is matched first.
urlpatterns = [path("bare/", bare), path("", include("portal.urls"))]
