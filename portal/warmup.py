"""What every web worker would otherwise do on its first request, done once before gunicorn
forks its workers (``portal/wsgi.py``, loaded first with ``preload_app``): import the URLconf
(with the API's schemas), make the tables ``reverse`` reads in every language, load every
language's translations, compile every template of the project (not the libraries' own) and
fingerprint the release. A worker recycled by ``max_requests`` then starts warm: its first
match page took 360–450 ms instead of 6–9 ms, the requests queued behind it waiting too (the
pages' p99 jumped to 170–400 ms in runs where a worker was recycled). Nothing here opens a
connection: it is all the workers' to share after the fork."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import URLResolver, get_resolver
from django.utils import translation
from django.utils.translation import trans_real

from games import pagecache

TEMPLATE_SUFFIXES = {".html", ".txt", ".jinja"}


def warm() -> None:
    get_resolver().url_patterns  # noqa: B018 (imports every view and the API)
    for code, _ in settings.LANGUAGES:
        trans_real.translation(code)
        with translation.override(code):
            _reverse_tables(get_resolver())
    base = Path(settings.BASE_DIR).resolve()
    for engine in engines.all():
        for folder in map(Path, engine.template_dirs):  # (the project's, not the libraries')
            if not folder.resolve().is_relative_to(base) or "site-packages" in folder.parts:
                continue
            for path in sorted(folder.rglob("*")):
                if path.suffix in TEMPLATE_SUFFIXES:
                    engine.get_template(str(path.relative_to(folder)))
    pagecache.release()


def _reverse_tables(resolver: URLResolver) -> None:
    """The resolver's tables for ``reverse`` in the active language, and its namespaces'."""
    resolver.reverse_dict  # noqa: B018 (made on first use, per language)
    for _, included in resolver.namespace_dict.values():
        _reverse_tables(included)
