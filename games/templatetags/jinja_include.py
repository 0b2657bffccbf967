"""``{% jinja_include "name.jinja" %}``: a Jinja2 template (``templates_jinja/``, see
portal/jinja2.py) rendered in place inside a Django template, with the same context and
request (its ``csrf_input`` included).

``{% jinja_include "name.jinja" key=some_key %}``: the same, made once and kept under
``some_key`` (games.pagecache) when the key is not empty: the key must name everything the
rendering depends on, except the CSRF field, which is put in on each request."""

from __future__ import annotations

from typing import Any

from django import template
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games import csrf, pagecache

register = template.Library()

# Stands for the CSRF field in a kept rendering (never a valid token: it has a space).
CSRF_MARK = "<!-- csrf field -->"


@register.simple_tag(takes_context=True)
def jinja_include(context: template.Context, name: str, key: Any = None) -> SafeString:
    request = getattr(context, "request", None)
    if not key or request is None:
        html = render_to_string(name, context.flatten(), request=request, using="jinja2")
        return mark_safe(html)  # noqa: S308 (autoescaped by Jinja2)
    return render_kept(name, context.flatten(), key, request)


def render_kept(name: str, context: dict[str, Any], key: str, request: HttpRequest
                ) -> SafeString:
    """Jinja2 template ``name`` rendered once with ``context`` and kept under ``key``
    (games.pagecache), which must name everything the rendering shows; the request's CSRF
    field is put in on each request."""
    kept = pagecache.cached(key, lambda: render_to_string(
        name, {**context, "csrf_input": mark_safe(CSRF_MARK)}, using="jinja2"))
    return mark_safe(kept.replace(CSRF_MARK, csrf.field(request)))  # noqa: S308 (made by Jinja2, escaped)
