"""``{% kept "name" part part … %}…{% endkept %}``: a part of a page rendered once and then
served from ``games.pagecache``, under a key made of the name, the parts given, the active
language and time zone (dates are shown in it).

The parts must name everything the block shows that can differ: the match and its random
seed, the phase rows, the reader's seat, a sealed sheet's revision … (a part a reader may not
see must never be shared with one who may: give the seat). The CSRF field inside is put in
per request, as for ``{% jinja_include … key=… %}``. ``{% kept "" … %}`` (an empty name, as
``{% kept key_or_empty %}`` would give) renders the block every time: for a request whose
page is not the usual one (a form shown again with its errors).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.safestring import mark_safe

from games import pagecache

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

        def made() -> str:
            with context.push(csrf_token=CSRF_MARK):
                return str(self.nodelist.render(context))

        html = pagecache.cached(key, made)
        if CSRF_MARK in html:
            html = html.replace(CSRF_MARK, str(context.get("csrf_token", "")))
        return mark_safe(html)  # noqa: S308 (a template's output)


@register.tag
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% kept %} needs a name and the parts of its key")
    nodelist = parser.parse(("endkept",))
    parser.delete_first_token()
    return KeptNode(parser.compile_filter(bits[1]),
                    [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
