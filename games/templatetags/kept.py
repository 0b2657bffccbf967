"""``{% kept "name" part part … %}…{% endkept %}``: a part of a page rendered once and then
served from ``games.pagecache``, under a key made of the name, the parts given, the active
language and time zone (dates are shown in it).

The parts must name everything the block shows that can differ: the match and its random
seed, the phase rows, the reader's seat, a sealed sheet's revision … (a part a reader may not
see must never be shared with one who may: give the seat). The CSRF field inside is put in
per request, as for ``{% jinja_include … key=… %}``. ``{% kept "" … %}`` (an empty name, as
``{% kept key_or_empty %}`` would give) renders the block every time: for a request whose
page is not the usual one (a form shown again with its errors).

``{% pagekept "name" %}…{% endpagekept %}``: the same, under the page's own key
(``page_key``): see ``PageKeptNode``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.safestring import mark_safe

from games import csrf, pagecache

register = template.Library()

# Stands for the CSRF token in a kept rendering (never a valid token: it has spaces).
CSRF_MARK = "csrf token of the request"


class KeptNode(template.Node):
    def __init__(self, name: template.base.FilterExpression,
                 parts: list[template.base.FilterExpression], nodelist: template.NodeList
                 ) -> None:
        self.name, self.parts, self.nodelist = name, parts, nodelist

    def render(self, context: template.Context) -> str:
        name = self.name.resolve(context)
        if not name:
            return self.nodelist.render(context)
        parts: list[Any] = [part.resolve(context) for part in self.parts]
        key = pagecache.key_for(f"kept-{name}", timezone.get_current_timezone_name(), *parts)

        html = pagecache.cached(key, lambda: self.made(context))
        if CSRF_MARK in html:
            request = getattr(context, "request", None)
            html = html.replace(CSRF_MARK, csrf.token(request) if request is not None
                                else str(context.get("csrf_token", "")))
        return mark_safe(html)  # noqa: S308 (a template's output)

    def made(self, context: template.Context) -> str:
        """The block rendered with a stand-in for the CSRF token, in Django's templates and in
        the Jinja2 parts inside (``games.csrf.token`` gives it while the block renders)."""
        request = getattr(context, "request", None)
        masked = getattr(request, "_csrf_masked", None)
        if request is not None:
            request._csrf_masked = (request.META.get("CSRF_COOKIE"), CSRF_MARK)
        try:
            with context.push(csrf_token=CSRF_MARK):
                return str(self.nodelist.render(context))
        finally:
            if request is not None:
                if masked is None:
                    del request._csrf_masked
                else:
                    request._csrf_masked = masked


class PageKeptNode(KeptNode):
    """``{% pagekept "name" %}``: kept under the page's own key (``page_key`` in the context:
    a fingerprint of everything the page's context holds, ``games.views.match``); rendered
    every time where the page has none. With ``PAGE_KEPT_STRICT`` (the tests), a database
    query while the block renders is an error: what it shows must all be in the context."""

    def render(self, context: template.Context) -> str:
        if not context.get("page_key"):
            return self.nodelist.render(context)
        return super().render(context)

    def made(self, context: template.Context) -> str:
        if not getattr(settings, "PAGE_KEPT_STRICT", False):
            return super().made(context)

        def refuse(execute: Any, sql: str, *args: Any) -> Any:
            raise AssertionError(f"a query inside {{% pagekept {self.name.token} %}}: {sql}")

        with connection.execute_wrapper(refuse):
            return super().made(context)


@register.tag
def pagekept(parser: template.base.Parser, token: template.base.Token) -> PageKeptNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("{% pagekept %} takes one name")
    nodelist = parser.parse(("endpagekept",))
    parser.delete_first_token()
    return PageKeptNode(parser.compile_filter(bits[1]),
                        [parser.compile_filter("page_key")], nodelist)


@register.tag
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% kept %} needs a name and the parts of its key")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(parser.compile_filter(bits[1]),
                    [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
