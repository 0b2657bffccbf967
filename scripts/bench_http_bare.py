"""The bare Django page of scripts/bench_http.py: the portal's settings (middleware, database,
sessions, everything) with the bare page's URL before the portal's (``bench_http_bare_urls``):
one indexed query (the 50 newest matches by primary key) and a 50-row template. gunicorn
serves it with ``DJANGO_SETTINGS_MODULE`` set to this module, under the same configuration as
the portal."""

from portal.settings import *  # noqa: F403
from portal.settings import BASE_DIR, TEMPLATES

ROOT_URLCONF = "bench_http_bare_urls"
TEMPLATES = [{**TEMPLATES[0], "DIRS": [*TEMPLATES[0]["DIRS"], BASE_DIR / "scripts" / "templates"]},
             *TEMPLATES[1:]]
