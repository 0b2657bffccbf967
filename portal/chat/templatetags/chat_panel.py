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
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from games import pagecache
from games.templatetags.jinja_include import render_kept

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
    # (Jinja2: Django's engine was half the panel's cost.) Rendered once for what it shows to
    # this reader: its channels, messages and mutes (``state``, the fingerprint its polls
    # compare), what the reader may do there, in the reader's language and time zone.
    reader = panel["reader"]
    key = pagecache.key_for("chat-panel", timezone.get_current_timezone_name(),
                            pagecache.fingerprint(
                                request.user.pk, reader.seat.number if reader.seat else None,
                                reader.ended, reader.is_moderator, match.pk, match.status,
                                match.press, {name: value for name, value in panel.items()
                                              if name not in ("reader", "match", "user",
                                                              "is_moderator")}))
    return render_kept("chat/panel.jinja", panel, key, request)
