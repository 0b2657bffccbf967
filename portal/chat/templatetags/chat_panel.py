"""``{% messages_panel %}``: the match page's messages panel, rendered with the page.

The page used to load it with a second request as soon as it arrived (``hx-trigger="load"``):
the same session, user, match and seats read again, and a second response, for every page
view. Rendered in place, it reads only what is its own (channels, unread counts, messages)
and takes the seats the page read; it polls and switches channels by its own requests as
before (``portal.chat.views.panel``). A reader the panel has nothing for gets the link to the
panel's page instead, as without JavaScript.
"""

from __future__ import annotations

from django import template
from django.http import Http404
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def messages_panel(context: template.Context) -> SafeString:
    from portal.chat.views import panel_context

    request = getattr(context, "request", None)
    match = context.get("match")
    if request is None or match is None:
        return mark_safe("")
    rows = context.get("seats") or []
    seats = [row["seat"] for row in rows] if rows else None
    try:
        panel = panel_context(request, match, seats=seats)
    except Http404:
        return mark_safe("")
    panel["user"] = request.user
    # (Jinja2: Django's engine was half the panel's cost; escaped by Jinja2)
    return mark_safe(render_to_string("chat/panel.jinja", panel, request=request,  # noqa: S308
                                      using="jinja2"))
