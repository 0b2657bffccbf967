"""The audit of hidden messages: the only page that shows a hidden message's text, to those
allowed to view it (moderators). There is no list of messages: a private message reaches a
moderator only as the evidence of a report (the report queue) or here, once hidden."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html, linebreaks
from django.utils.translation import gettext_lazy as _

from portal.chat.models import MessageHide


@admin.register(MessageHide)
class MessageHideAdmin(admin.ModelAdmin):
    list_display = ["at", "match", "by", "short_reason"]
    list_select_related = ["message__match", "by"]
    search_fields = ["reason", "=message__match__id"]
    fields = ["match", "channel", "author", "sent_at", "text", "by", "at", "reason"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).select_related(
            "message__channel", "message__author", "message__match", "by").defer(
            "message__match__state")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description=_("match"))
    def match(self, hide: MessageHide):
        return hide.message.match

    @admin.display(description=_("channel"))
    def channel(self, hide: MessageHide) -> str:
        return hide.message.channel.get_kind_display()

    @admin.display(description=_("author"))
    def author(self, hide: MessageHide) -> str:
        return _("seat %(number)s (%(author)s)") % {"number": hide.message.seat_number,
                                                      "author": hide.message.author or "—"}

    @admin.display(description=_("sent at"))
    def sent_at(self, hide: MessageHide):
        return hide.message.created_at

    @admin.display(description=_("text (hidden from everyone else)"))
    def text(self, hide: MessageHide) -> str:
        return format_html("{}", linebreaks(hide.message.text, autoescape=True))

    @admin.display(description=_("reason"))
    def short_reason(self, hide: MessageHide) -> str:
        return hide.reason[:80] + ("…" if len(hide.reason) > 80 else "")
