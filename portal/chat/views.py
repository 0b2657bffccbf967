"""The messages panel of the match page and its actions: send, mute, hide (reporting a message
is the reports' own: ``portal.reports.views.report_message``). Each view checks who asks (the
match visible to them, then the channel readable by them) before it reads any message;
refusals answer 4xx with the reason, the text as typed kept in the box."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Match, Seat
from games.parsing import MAX_ID, parse_int
from games.services.errors import ServiceError
from games.views.access import match_visible_or_404, status_for
from portal.chat import selectors, services
from portal.chat.access import Reader
from portal.chat.models import MESSAGE_MAX_CHARS, Message

NEW_PRIVATE = "new"


def _page_url(match: Match, key: str = "") -> str:
    url = reverse("chat:panel", args=[match.pk])
    return f"{url}?channel={key}" if key else url


def panel_context(request: HttpRequest, match: Match, *, key: Any = None,
                  before: int | None = None, seats: list[Seat] | None = None
                  ) -> dict[str, Any]:
    """Everything the panel shows to ``request.user``, and the shown channel marked read up
    to its last message. Http404 for a channel they may not read (or that is not there).
    ``seats``: the match's seats with their players, when the caller read them already."""
    reader = Reader(match, request.user, seats=seats)
    muted, views, current, shown = selectors.panel_reads(reader, key, before=before)
    if current is None:
        raise Http404(_("This match has no such channel for you."))
    if shown and before is None and current.unread:  # (a poll with nothing new writes nothing)
        services.channel_read(reader=reader, channel=current.row, up_to=shown[-1].id)
        current.unread = 0
    refusal = services.post_refusal(reader)
    others = [seat for seat in reader.seats
              if reader.seat is None or seat.number != reader.seat.number]
    muted_here = sorted({seat.user_id: seat for seat in reader.seats
                         if seat.user_id in muted}.values(), key=lambda s: s.number)
    return {
        "match": match, "reader": reader, "channels": views, "current": current,
        "shown": shown, "older": bool(shown) and len(shown) >= selectors.PAGE,
        "before": before, "muted_ids": muted, "muted_seats": muted_here,
        "can_post": refusal is None and any(view.can_post for view in views),
        "post_refusal": refusal.message if refusal is not None and reader.seat is not None
        else "",
        "gunboat": match.press == Match.Press.NONE,
        "private_allowed": match.press == Match.Press.FULL,
        "other_seats": [{"number": seat.number, "label": reader.seat_player(seat.number),
                         "bot": seat.is_bot} for seat in others],
        # A private conversation is offered only with someone who can read it.
        "private_seats": [{"number": seat.number, "label": reader.seat_player(seat.number)}
                          for seat in others if not seat.is_bot],
        # (asked by the template only: a poll answered "no change" reads no permission)
        "is_moderator": lambda: reader.is_moderator,
        "max_chars": MESSAGE_MAX_CHARS,
        "poll_seconds": f"{settings.CHAT_POLL_SECONDS:g}",
        "state": selectors.panel_state(views, current, shown, muted,
                                       extra=f"{match.status}:{request.LANGUAGE_CODE}"),
        "page_url": _page_url(match, current.key if current.key != "public" else ""),
    }


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = "chat/partials/panel.html" if request.htmx else "chat/page.html"
    return render(request, template, context, status=status)


@require_GET
def panel(request: HttpRequest, match_id: int) -> HttpResponse:
    """The messages panel (HTMX: the partial the match page loads and polls; else a page of
    its own). A poll that names the state it shows gets 204 while nothing changed."""
    match = match_visible_or_404(request, match_id)
    before = request.GET.get("before", "")
    before_id = parse_int(before, min=1, max=MAX_ID, field="before") if before else None
    context = panel_context(request, match, key=request.GET.get("channel"), before=before_id)
    if request.htmx and request.GET.get("state") == context["state"]:
        return HttpResponse(status=204)
    if request.htmx and request.GET.get("state"):
        context["announce"] = _news(context)
    return _render(request, context)


def _news(context: dict[str, Any]) -> str:
    """What a poll that changed the panel says to a screen reader."""
    waiting = sum(view.unread for view in context["channels"])
    if waiting:
        return _("Unread messages: %(count)s.") % {"count": waiting}
    return _("New messages in %(channel)s.") % {"channel": context["current"].label}


@require_POST
def send(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_visible_or_404(request, match_id)
    key = request.POST.get("channel", "")
    text = request.POST.get("text")
    if not request.user.is_authenticated:
        return _refused(request, match, "", text, 403, _("Log in to send a message."))
    channel: Any = key
    if key == NEW_PRIVATE:
        numbers = [parse_int(value, min=1, max=10**4, field="seats")
                   for value in request.POST.getlist("seats")]
        if not numbers:
            return _refused(request, match, key, text, 400,
                            _("Choose the seats of the private conversation."))
        channel = numbers
    try:
        message = services.message_post(match_id=match.pk, user=request.user, channel=channel,
                                        text=text, source=Message.Source.WEB)
    except ServiceError as error:
        return _refused(request, match, key if key != NEW_PRIVATE else "", text,
                        status_for(error), error.message)
    shown_key = message.channel.key
    if not request.htmx:
        return redirect(_page_url(match, shown_key if shown_key != "public" else ""))
    context = panel_context(request, match, key=shown_key)
    context.update(sent=True, focus_text=True)  # (ready for the next message)
    return _render(request, context)


def _refused(request: HttpRequest, match: Match, key: str, text: Any, status: int,
             error: str) -> HttpResponse:
    try:
        context = panel_context(request, match, key=key or None)
    except Http404:
        context = panel_context(request, match)
    context.update(error=error, text=text if isinstance(text, str) else "", focus_text=True)
    if key.startswith("seats-") or key == NEW_PRIVATE:
        context["chosen"] = key
    return _render(request, context, status)


def message_number(message_id: Any) -> int:
    """A message's id from its URL (a 400 answer for one out of bounds)."""
    return parse_int(message_id, min=1, max=MAX_ID, field="message_id")


def acted(request: HttpRequest, match: Match, key: str, notice: str = "",
          error: str = "", status: int = 200) -> HttpResponse:
    """The answer to an action taken in the panel (here, or reporting a message:
    ``portal.reports.views``): the panel again with its notice or error (htmx), else back to
    the match page's channel."""
    if not request.htmx and not error:
        return redirect(_page_url(match, key if key != "public" else ""))
    try:
        context = panel_context(request, match, key=key or None)
    except Http404:
        context = panel_context(request, match)
    context.update(notice=notice, error=error)
    return _render(request, context, status)


@login_required
@require_POST
def mute(request: HttpRequest, match_id: int) -> HttpResponse:
    """Mute (or with ``undo``, unmute) the player of a seat, for the one who asks."""
    match = match_visible_or_404(request, match_id)
    key = request.POST.get("channel", "")
    number = parse_int(request.POST.get("seat", ""), min=1, max=10**4, field="seat")
    seat = match.seats.filter(number=number).select_related("user").first()
    if seat is None or seat.user is None:
        return acted(request, match, key, error=_("That seat has no player to mute."),
                     status=400)
    try:
        if request.POST.get("undo"):
            services.player_unmute(user=request.user, muted_id=seat.user_id)
            notice = _("You see %(player)s's messages again.") % {"player": seat.user}
        else:
            services.player_mute(user=request.user, muted_id=seat.user_id)
            notice = _("%(player)s is muted for you, in every match.") % {"player": seat.user}
    except ServiceError as error:
        return acted(request, match, key, error=error.message, status=status_for(error))
    return acted(request, match, key, notice=notice)


@login_required
@require_POST
def hide(request: HttpRequest, match_id: int, message_id: Any) -> HttpResponse:
    """A moderator hides a message they can read here, with a reason."""
    match = match_visible_or_404(request, match_id)
    key = request.POST.get("channel", "")
    if not request.user.has_perm("chat.hide_message"):
        return acted(request, match, key, error=_("Only a moderator may hide a message."),
                     status=403)
    try:
        message, _reader = services.message_readable(message_id=message_number(message_id),
                                                     user=request.user)
        if message.match_id != match.pk:
            raise ServiceError("not_found", _("There is no such message."))
        services.message_hide(message_id=message.pk, by=request.user,
                              reason=request.POST.get("reason", ""))
    except ServiceError as error:
        return acted(request, match, key, error=error.message, status=status_for(error))
    return acted(request, match, key, notice=_("The message is hidden; the audit keeps it."))

