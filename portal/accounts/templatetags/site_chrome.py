"""``{% site_chrome "head" %}``, ``{% site_chrome "header" %}``, ``{% site_chrome "footer" %}``:
the parts of every page around its content (base.html), each rendered once a process for
what it shows (the user's name and staff flag, time zone and language) and kept; the CSRF
field and the page's path, which change with every request, are put in each time.

Rendering them with Django's template engine on every page cost about 0.3 ms of a page's
CPU (``scripts/profile_pages.py``). The key names everything they show, so nothing has to be
invalidated: a renamed user or another language is another key."""

from __future__ import annotations

import functools
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from portal.context_processors import site_links

register = template.Library()

PARTS = {"head": "partials/site_head.html", "header": "partials/site_header.html",
         "footer": "partials/site_footer.html"}
# Stand for the per-request parts in a kept rendering (neither can come from a user: the path
# is put in escaped, and both contain a space a token cannot).
CSRF_MARK = "<!-- csrf field -->"
PATH_MARK = "<!-- next path -->"


class _Reader:
    """What the parts read of the user: the key's fields, nothing more."""

    def __init__(self, authenticated: bool, username: str, is_staff: bool) -> None:
        self.is_authenticated = authenticated
        self.is_staff = is_staff
        self._username = username

    def get_username(self) -> str:
        return self._username


@functools.lru_cache(maxsize=4096)
def _kept(part: str, authenticated: bool, username: str, is_staff: bool, time_zone: str,
          language: str) -> str:
    # (the active language is ``language``: the caller read it, and it is part of the key)
    return render_to_string(PARTS[part], {
        **site_links(None), "user": _Reader(authenticated, username, is_staff),
        "time_zone": time_zone, "LANGUAGE_CODE": language,
        "csrf_field": mark_safe(CSRF_MARK), "next_path": mark_safe(PATH_MARK)}).strip()


@register.simple_tag(takes_context=True)
def site_chrome(context: template.Context, part: str) -> SafeString:
    request = context.get("request")
    user: Any = context.get("user")
    authenticated = bool(user is not None and user.is_authenticated)
    time_zone = ""
    if authenticated:
        profile = getattr(user, "profile", None)
        time_zone = getattr(profile, "time_zone", "") or ""
    html = _kept(part, authenticated, user.get_username() if authenticated else "",
                 authenticated and user.is_staff, time_zone, get_language())
    if CSRF_MARK in html:
        # The page's token (the context processor's, made once for the page), as {% csrf_token %}
        token = context.get("csrf_token")
        html = html.replace(CSRF_MARK, format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
            if token and token != "NOTPROVIDED" else "")
    if PATH_MARK in html:
        html = html.replace(PATH_MARK, escape(request.get_full_path()) if request is not None
                            else "")
    return mark_safe(html)  # noqa: S308 (rendered by Django's engine, escaped; the path escaped)
