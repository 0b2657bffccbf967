"""The URLs of the bare page's settings (``bench_http_bare``): the bare page, then the
portal's (every name reverses as on the site: base.html's links are reversed by a context
processor, which runs on the bare page too)."""

from django.shortcuts import render
from django.urls import include, path


def bare(request):
    from games.models import Match

    rows = list(Match.objects.order_by("-pk").values("pk", "title", "game", "status")[:50])
    return render(request, "bench_http_bare.html", {"rows": rows})


urlpatterns = [path("bare/", bare), path("", include("portal.urls"))]
