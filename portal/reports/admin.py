"""The moderators' report queue: open reports first; closing one goes through the service."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, linebreaks
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.services import ServiceError
from portal.reports.models import Report
from portal.reports.services import report_close


class CloseForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=2000,
                           help_text=_("What was done (kept on the report)."))


class HideForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=2000,
                             help_text=_("Kept with the message in the audit of "
                                                    "hidden messages."))


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at", "status", "reporter", "match", "reported_user",
                    "short_reason", "handled_by"]
    # The message reported is evidence for moderators: shown on the report, never in the list.
    list_filter = ["status"]
    search_fields = ["reason", "reporter__username", "reported_user__username", "=match__id"]
    list_select_related = ["reporter", "match", "reported_user", "handled_by"]
    fields = ["reporter", "match", "reported_user", "evidence", "reason", "status",
              "created_at", "handled_by", "handled_at", "note"]
    readonly_fields = fields
    actions = ["mark_handled", "dismiss", "hide_messages"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("match__state").select_related(
            "message__channel", "message__author", "message__hide")

    def changelist_view(self, request, extra_context=None):
        # The queue opens on what is still to do.
        if "status__exact" not in request.GET and not request.GET.get("all"):
            query = request.GET.copy()
            query["status__exact"] = Report.Status.OPEN
            request.GET = query
            request.META["QUERY_STRING"] = query.urlencode()
        return super().changelist_view(request, extra_context)

    @admin.display(description=_("message reported"))
    def evidence(self, report: Report) -> str:
        """The reported message as it was sent: who, where, when, its text. A message a
        moderator hid since is shown only in the hidden messages' audit."""
        message = report.message
        if message is None:
            return "—"
        where = message.channel.get_kind_display()
        head = _("Seat %(seat)s (%(author)s), %(where)s channel, %(at)s") % {
            "seat": message.seat_number, "author": message.author or "—", "where": where,
            "at": message.created_at.strftime("%Y-%m-%d %H:%M UTC")}
        if message.hidden:
            url = reverse("admin:chat_messagehide_change", args=[message.hide.pk])
            return format_html('{}<p>{} <a href="{}">{}</a></p>', head,
                               _("A moderator hid this message."), url, _("See the audit."))
        return format_html("{}{}", head, linebreaks(message.text, autoescape=True))

    @admin.display(description=_("reason"))
    def short_reason(self, report: Report) -> str:
        return report.reason[:80] + ("…" if len(report.reason) > 80 else "")

    def _close(self, request: HttpRequest, queryset: QuerySet[Report], status: str):
        form = CloseForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(request, "admin/reports/report/close.html", {
                **self.admin_site.each_context(request), "title": _("Close reports"),
                "reports": queryset, "form": form, "opts": self.model._meta,
                "action": request.POST.get("action"),
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            })
        closed = 0
        for report_id in queryset.values_list("pk", flat=True):
            try:
                closed += report_close(report_id=report_id, by=request.user, status=status,
                                       note=form.cleaned_data["note"])
            except ServiceError as error:
                self.message_user(request, _("Report %(id)s: %(error)s") % {
                    "id": report_id, "error": error.message},
                                  messages.WARNING)
        self.message_user(request, ngettext("Closed %(count)s report.",
                                            "Closed %(count)s reports.", closed) % {
            "count": closed})
        return None

    @admin.action(description=_("Mark as handled"), permissions=["change"])
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[Report]):
        return self._close(request, queryset, Report.Status.HANDLED)

    @admin.action(description=_("Dismiss"), permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Report]):
        return self._close(request, queryset, Report.Status.DISMISSED)

    @admin.action(description=_("Hide the reported messages"), permissions=["hide"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Report]):
        """Hide each reported message, with a reason (one audit row per message)."""
        from portal.chat.services import message_hide

        form = HideForm(request.POST if "apply" in request.POST else None)
        reported = queryset.filter(message__isnull=False)
        if not form.is_valid():
            return TemplateResponse(request, "admin/reports/report/close.html", {
                **self.admin_site.each_context(request), "title": _("Hide the reported messages"),
                "reports": reported, "form": form, "opts": self.model._meta,
                "action": request.POST.get("action"), "button": _("Hide"),
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            })
        hidden = 0
        for message_id in reported.values_list("message_id", flat=True).distinct():
            try:
                message_hide(message_id=message_id, by=request.user,
                             reason=form.cleaned_data["reason"])
                hidden += 1
            except ServiceError as error:
                self.message_user(request, error.message, messages.WARNING)
        done = ngettext("%(count)s message hidden.", "%(count)s messages hidden.", hidden)
        self.message_user(request, done % {"count": hidden})
        return None

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("chat.hide_message")
