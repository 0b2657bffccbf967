"""The bare Django page of scripts/bench_http.py: the portal's settings (middleware, database,
sessions, everything) with a URLconf of one page: one indexed query (the 50 newest matches by
primary key) and a 50-row template. gunicorn serves it with ``DJANGO_SETTINGS_MODULE`` set to
this module, under the same configuration as the portal."""

from django.shortcuts import render
from django.urls import path

from portal.settings import *  # noqa: F403
from portal.settings import BASE_DIR, TEMPLATES

ROOT_URLCONF = "bench_http_bare"
TEMPLATES = [{**TEMPLATES[0], "DIRS": [*TEMPLATES[0]["DIRS"], BASE_DIR / "scripts" / "templates"]},
             *TEMPLATES[1:]]


def bare(request):
    from games.models import Match

    rows = list(Match.objects.order_by("-pk").values("pk", "title", "game", "status")[:50])
    return render(request, "bench_http_bare.html", {"rows": rows})


urlpatterns = [path("bare/", bare)]
