"""The moderators' signals queue (admin: "Signals"), the traces behind it, the declared
relationships, and one page per account with its reports and signals together.

The queue opens on the open signals of undeclared pairs; declared pairs are a filter apart.
A moderator dismisses a signal, notes something on it, or opens a case, always with a note
(``services.signal_act``: one audit row each). Nothing here penalises anyone."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.services import ServiceError
from portal.reports.models import Report
from portal.signals.models import ClientTrace, Relationship, Signal, SignalAction
from portal.signals.services import signal_act


class NoteForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=2000, widget=forms.Textarea(
        attrs={"rows": 3}), help_text=_("What you saw and why (kept in the signal's audit)."))


def account_link(user: Any) -> str:
    if user is None:
        return "—"
    return format_html('<a href="{}">{}</a>', reverse("admin:signals_account", args=[user.pk]),
                       user.get_username())


class SignalActionInline(admin.TabularInline):
    model = SignalAction
    fields = ["at", "action", "by", "note"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Signal)
class SignalAdmin(admin.ModelAdmin):
    list_display = ["id", "found_at", "kind", "status", "match_link", "first_account",
                    "second_account", "declared"]
    list_filter = ["status", "declared", "kind"]
    search_fields = ["first__username", "second__username", "=match__id"]
    list_select_related = ["first", "second", "match"]
    fields = ["kind", "status", "found_at", "match_link", "first_account", "second_account",
              "declared", "evidence_shown"]
    readonly_fields = fields
    inlines = [SignalActionInline]
    actions = ["dismiss", "note", "open_case"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Signal]:
        return super().get_queryset(request).defer("match__state", "match__options")

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        # The queue opens on what is still to do, declared pairs apart.
        if not request.GET.get("all") and not any(k.startswith(("status", "declared"))
                                                  for k in request.GET):
            query = request.GET.copy()
            query["status__exact"] = Signal.Status.OPEN
            query["declared__exact"] = "0"
            request.GET = query
            request.META["QUERY_STRING"] = query.urlencode()
        return super().changelist_view(request, extra_context)

    @admin.display(description=_("match"))
    def match_link(self, signal: Signal) -> str:
        if signal.match_id is None:
            return "—"
        return format_html('<a href="{}">#{}</a>', reverse("admin:games_match_change",
                                                           args=[signal.match_id]),
                           signal.match_id)

    @admin.display(description=_("first account"))
    def first_account(self, signal: Signal) -> str:
        return account_link(signal.first)

    @admin.display(description=_("second account"))
    def second_account(self, signal: Signal) -> str:
        return account_link(signal.second)

    @admin.display(description=_("evidence"))
    def evidence_shown(self, signal: Signal) -> str:
        return format_html("<dl>{}</dl>", format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((_label(key), _plain(
                Relationship.Kind(value).label if key == "declared" else value))
                                           for key, value in (signal.evidence or {}).items())))

    def _act(self, request: HttpRequest, queryset: QuerySet[Signal], action: str,
             title: Any) -> Any:
        form = NoteForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(request, "admin/signals/signal/act.html", {
                **self.admin_site.each_context(request), "title": title,
                "signals": queryset, "form": form, "opts": self.model._meta,
                "action": request.POST.get("action"),
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            }, status=400 if "apply" in request.POST else 200)
        done = 0
        for signal_id in queryset.values_list("pk", flat=True):
            try:
                done += signal_act(signal_id=signal_id, by=request.user, action=action,
                                   note=form.cleaned_data["note"]) is not None
            except ServiceError as error:
                self.message_user(request, error.message, messages.WARNING)
        self.message_user(request, ngettext("%(count)s signal done.", "%(count)s signals done.",
                                            done) % {"count": done})
        return None

    @admin.action(description=_("Dismiss, with a note"), permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Signal]) -> Any:
        return self._act(request, queryset, SignalAction.Action.DISMISS, _("Dismiss signals"))

    @admin.action(description=_("Add a note"), permissions=["change"])
    def note(self, request: HttpRequest, queryset: QuerySet[Signal]) -> Any:
        return self._act(request, queryset, SignalAction.Action.NOTE, _("Note on signals"))

    @admin.action(description=_("Open a case, with a note"), permissions=["change"])
    def open_case(self, request: HttpRequest, queryset: QuerySet[Signal]) -> Any:
        return self._act(request, queryset, SignalAction.Action.OPEN_CASE, _("Open a case"))

    def get_urls(self) -> list[Any]:
        return [path("account/<int:user_id>/", self.admin_site.admin_view(self.account_view),
                     name="signals_account"),
                path("<int:signal_id>/act/", self.admin_site.admin_view(self.act_view),
                     name="signals_signal_act"), *super().get_urls()]

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: Any = None) -> Any:
        """The signal with its evidence and audit, and the three actions under it (nothing
        to save: every field is read-only)."""
        return super().change_view(request, object_id, form_url, {
            **(extra_context or {}), "show_save": False, "show_save_and_continue": False,
            "show_save_and_add_another": False, "show_delete": False,
            "act_form": NoteForm(), "act_choices": SignalAction.Action.choices,
            "may_act": self.has_change_permission(request)})

    def act_view(self, request: HttpRequest, signal_id: int) -> Any:
        """POST from the signal's page: one action with its note."""
        if not self.has_change_permission(request):
            raise PermissionDenied
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        form = NoteForm(request.POST)
        action = request.POST.get("act", "")
        url = reverse("admin:signals_signal_change", args=[signal_id])
        if not form.is_valid():
            self.message_user(request, _("Write a note: what you saw and why."),
                              messages.ERROR)
            return HttpResponseRedirect(url)
        try:
            done = signal_act(signal_id=signal_id, by=request.user, action=action,
                              note=form.cleaned_data["note"])
        except ServiceError as error:
            if error.code == "not_found":
                raise Http404(error.message) from None
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(url)
        self.message_user(request, ngettext("%(count)s signal done.", "%(count)s signals done.",
                                            int(done is not None)) % {
            "count": int(done is not None)})
        return HttpResponseRedirect(url)

    def account_view(self, request: HttpRequest, user_id: int) -> Any:
        """One account's reports (made and about it), signals, relationships and traces."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        account = get_user_model().objects.filter(pk=user_id).first()
        if account is None:
            raise Http404(_("There is no such account."))
        reports = Report.objects.filter(Q(reported_user=account) | Q(reporter=account)) \
            .select_related("reporter", "reported_user", "message").defer("match__state")
        signals = Signal.objects.filter(Q(first=account) | Q(second=account)) \
            .select_related("first", "second")
        relationships = Relationship.objects.filter(Q(first=account) | Q(second=account)) \
            .select_related("first", "second")
        traces = ClientTrace.objects.filter(user=account)[:200]
        return TemplateResponse(request, "admin/signals/signal/account.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta,
            "title": _("Reports and signals of %(name)s") % {"name": account.get_username()},
            "account": account, "reports": reports, "signals": signals,
            "relationships": relationships, "traces": traces})


# The evidence's keys (portal.signals.detect) as moderators read them.
EVIDENCE_LABELS = {
    "networks": _("networks shared"), "devices": _("devices shared (start of the id)"),
    "declared": _("declared relationship"), "seats": _("seats"),
    "phases_both_sent": _("phases where both sent a sheet"),
    "within_seconds": _("within (seconds)"), "close": _("phases with sheets close together"),
    "phase": _("phase"), "seconds": _("seconds apart"), "seat": _("seat"),
    "spared_seat": _("seat spared"), "could_attack": _("times it could attack that seat"),
    "attacked": _("times it did"), "attacks_on_others": _("attacks on other seats"),
    "account_made": _("account made"), "seat_taken": _("seat taken"),
    "hours_between": _("hours between"),
}


def _label(key: str) -> str:
    return str(EVIDENCE_LABELS.get(key, key))


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)} {_plain(v)}" for k, v in value.items())
    return str(value)


@admin.register(ClientTrace)
class ClientTraceAdmin(admin.ModelAdmin):
    list_display = ["at", "user", "kind", "network", "device", "match"]
    list_filter = ["kind"]
    search_fields = ["user__username", "network", "=device"]
    list_select_related = ["user"]
    readonly_fields = ["at", "user", "kind", "network", "device", "match"]
    fields = readonly_fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[ClientTrace]:
        return super().get_queryset(request).defer("match__state", "match__options")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Relationship)
class RelationshipAdmin(admin.ModelAdmin):
    list_display = ["first", "second", "kind", "declared_by", "declared_at"]
    list_select_related = ["first", "second", "declared_by"]
    search_fields = ["first__username", "second__username"]
    readonly_fields = ["first", "second", "kind", "declared_by", "declared_at"]
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
