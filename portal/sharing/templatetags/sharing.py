"""``{% share_meta %}`` (a page's link preview tags) and ``{% match_share %}`` (the match
page's "Share this match": the embed's ``<iframe>`` snippet and the feed)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape

from portal.sharing.selectors import match_snapshot

register = template.Library()

SITE_NAME = "Tank Portal"


@register.inclusion_tag("sharing/meta.html", takes_context=True)
def share_meta(context: template.Context, thing: Any, *, public: bool = True,
               description: str = "", image: str = "", feed: str = "") -> dict[str, Any]:
    """OpenGraph and Twitter card tags for the page of ``thing`` (its ``str`` is the title):
    for a private thing, the site's name only."""
    request = context["request"]
    if not public:
        return {"site_name": SITE_NAME, "private": True}
    return {
        "site_name": SITE_NAME, "title": str(thing), "description": description,
        "url": request.build_absolute_uri(request.path),
        "image": request.build_absolute_uri(image) if image else "",
        "feed": request.build_absolute_uri(feed) if feed else "", "feed_title": str(thing),
    }


@register.inclusion_tag("sharing/meta.html", takes_context=True)
def match_meta(context: template.Context, match: Any) -> dict[str, Any]:
    """A match page's preview: a public match's title, where it stands and its board as a
    picture (``sharing:preview_image``), with its feed; the site's name only for a private one."""
    if not match.is_public:
        return share_meta(context, match, public=False)
    summary = match_snapshot(match, board=False, story=False).summary
    return share_meta(context, match, description=summary,
                      image=reverse("sharing:preview_image", args=[match.pk]),
                      feed=reverse("feeds:match", args=[match.pk]))


@register.inclusion_tag("sharing/share_panel.html", takes_context=True)
def match_share(context: template.Context, match: Any) -> dict[str, Any]:
    """A public match's embed snippet and feed, for the match page (nothing for a private one)."""
    if not match.is_public:
        return {"public": False}
    request = context["request"]
    embed = request.build_absolute_uri(reverse("sharing:embed", args=[match.pk]))
    # Text to copy (the page escapes it): the values escaped as the snippet's own HTML needs.
    snippet = (f'<iframe src="{escape(embed)}" title="{escape(str(match))}" width="480" '
               'height="640" loading="lazy" style="border:0;max-width:100%"></iframe>')
    return {"public": True, "match": match, "embed": embed, "snippet": snippet,
            "feed": reverse("feeds:match", args=[match.pk])}


@register.filter
def open_to_all(thing: Any) -> bool:
    """Is this tournament or ladder open to anybody's eyes (of no club, or of a public one)?"""
    club = getattr(thing, "club", None)
    return club is None or bool(club.is_public)
