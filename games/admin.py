"""Moderators' admin for matches, seats, phases and sealed sheets.

Phase records and sheets are read-only; a sealed sheet shows "sealed" until its phase resolved.
The engine state and a phase's state_before are never shown (they may hold hidden setups).
Every action goes through a service, is capped and is safe to submit twice.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

import engine
from games import plugins, services
from games.dates import duration
from games.models import (
    Action,
    DeadlineMiss,
    Leave,
    LeaveExtension,
    LogbookStrike,
    Match,
    MatchStatusChange,
    ModerationEntry,
    Phase,
    Reliability,
    Seat,
    SeatTenure,
    Submission,
    SweepRun,
)
from games.moderation_admin import ModerationEntryInline, ReasonForm, moderation_urls
from games.services import ServiceError
from games.words import stored

# The kinds of phase (engine.PhaseKind), as a moderator reads them.
PHASE_KINDS = {
    engine.PhaseKind.SIMULTANEOUS: _("simultaneous (sealed sheets, resolved together)"),
    engine.PhaseKind.SEQUENTIAL: _("sequential (one seat acts, applied at once)"),
    engine.PhaseKind.CONTINUOUS: _("continuous (actions applied at once until the next tick)"),
}

SEALED = _("sealed")


def reason_asked(model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet,
                 title: str, action: str) -> tuple[TemplateResponse | None, str]:
    """For an action that needs a moderator's reason: the page asking for it (and "") until
    it is given, then (None, the reason)."""
    form = ReasonForm(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        return None, form.cleaned_data["reason"]
    return TemplateResponse(request, "admin/games/reason.html", {
        **model_admin.admin_site.each_context(request), "form": form, "objects": queryset,
        "title": title, "opts": model_admin.model._meta, "action": action,
        "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
    }), ""


def pretty_json(value) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, sort_keys=True))


class ReadOnlyAdminMixin:
    """Records, not forms: nothing is added, changed or deleted by hand."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class StatusNoteMixin:
    """A status change's note as people read it: a finished match's note is its result's
    reason, the game's stored English, told in the reader's language."""

    @admin.display(description=MatchStatusChange._meta.get_field("note").verbose_name,
                   ordering="note")
    def note_in_words(self, change: MatchStatusChange) -> str:
        return stored(engine.games().get(change.match.game), change.note)


class MatchStatusChangeInline(StatusNoteMixin, ReadOnlyAdminMixin, admin.TabularInline):
    model = MatchStatusChange
    fields = ["changed_at", "old_status", "new_status", "changed_by", "note_in_words"]
    readonly_fields = fields
    extra = 0


class SeatInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Seat
    fields = ["number", "user", "bot", "status", "missed_in_row", "missed_total", "joined_at",
              "offered_at"]
    readonly_fields = fields
    extra = 0


class SeatTenureInline(ReadOnlyAdminMixin, admin.TabularInline):
    """Who commanded each seat, when, and why their command ended (seats that changed
    hands: games.services.seeking)."""

    model = SeatTenure
    fields = ["seat_number", "user", "started_at", "ended_at", "ending"]
    readonly_fields = fields
    extra = 0


class PhaseInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Phase
    fields = ["number", "name", "status", "deadline", "resolved_at", "attempts"]
    readonly_fields = fields
    extra = 0
    show_change_link = True

    def get_queryset(self, request):
        # Voided (rolled-back) phases too: they are the match's history.
        return Phase.all_objects.defer("state_before").order_by("number", "pk")


class GameFilter(admin.SimpleListFilter):
    """The installed games by their names (the stored key is the slug)."""

    title = _("game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return sorted(((slug, str(game.name or slug)) for slug, game in engine.games().items()),
                      key=lambda choice: choice[1])

    def queryset(self, request, queryset):
        return queryset.filter(game=self.value()) if self.value() else queryset


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "__str__", "game_in_words", "status", "phase_number", "phase_in_words",
                    "deadline", "is_public", "created_at", "links"]
    list_filter = [GameFilter, "status", "is_public", "miss_policy", "phase_kind"]
    search_fields = ["=id", "title", "seats__user__username", "created_by__username"]
    date_hierarchy = "created_at"
    inlines = [SeatInline, SeatTenureInline, PhaseInline, MatchStatusChangeInline,
               ModerationEntryInline]
    readonly_fields = ["links", "game_in_words", "options_json", "status", "seed", "invite_token",
                       "phase_number", "phase_kind_in_words", "phase_in_words", "deadline",
                       "paused_at", "paused_remaining_in_words", "extended_total_in_words",
                       "complete_at", "result_json", "created_by",
                       "created_at", "started_at", "finished_at",
                       "clock_bank_hours", "clock_increment_hours", "clock_cap_hours",
                       "max_shift_hours", "timing"]
    fields = ["title", "is_public", "hours_per_phase", "miss_policy", "miss_limit",
              "allow_vacations", "autopilot", *readonly_fields]
    actions = ["extend_deadline_24h", "abort_matches"]
    change_form_template = "admin/games/match/change_form.html"

    def get_queryset(self, request):
        return super().get_queryset(request).defer("state")

    def get_urls(self):
        return moderation_urls(self) + super().get_urls()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches are created through the lobby (match_create)

    def save_model(self, request, obj, form, change):
        # Only the edited settings, under the match lock: never write back a stale phase,
        # deadline or state read before a resolution committed.
        with transaction.atomic():
            Match.objects.select_for_update(no_key=True).filter(pk=obj.pk).first()
            if form.changed_data:
                obj.save(update_fields=form.changed_data)

    @admin.display(description=_("options"))
    def options_json(self, match: Match) -> str:
        return pretty_json(match.options)

    @admin.display(description=_("result"))
    def result_json(self, match: Match) -> str:
        return pretty_json(match.result) if match.result else "-"

    @admin.display(description=_("pages"))
    def links(self, match: Match) -> str:
        """The match's page and its record (JSON, text): what a moderator checks against."""
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a>',
            match.get_absolute_url(), gettext("match page"),
            reverse("games:record_json", args=[match.pk]), gettext("record (JSON)"),
            reverse("games:record_text", args=[match.pk]), gettext("record (text)"))

    # What people read instead of the stored keys and raw durations.
    @admin.display(description=Match._meta.get_field("game").verbose_name,
                   ordering="game")
    def game_in_words(self, match: Match) -> str:
        return match.game_name

    @admin.display(description=Match._meta.get_field("phase_kind").verbose_name)
    def phase_kind_in_words(self, match: Match) -> str:
        return str(PHASE_KINDS.get(match.phase_kind, match.phase_kind)) or "-"

    @admin.display(description=Match._meta.get_field("phase_name").verbose_name,
                   ordering="phase_name")
    def phase_in_words(self, match: Match) -> str:
        return match.phase_label or match.phase_name or "-"

    @admin.display(description=Match._meta.get_field("paused_remaining").verbose_name)
    def paused_remaining_in_words(self, match: Match) -> str:
        return duration(match.paused_remaining) or "-"

    @admin.display(description=Match._meta.get_field("extended_total").verbose_name)
    def extended_total_in_words(self, match: Match) -> str:
        return (duration(match.extended_total) if match.extended_total
                else gettext("no extension"))

    @admin.action(description=_("Extend deadline: at least 24 h from now (capped, idempotent)"),
                  permissions=["moderate"])
    def extend_deadline_24h(self, request: HttpRequest, queryset: QuerySet[Match]):
        page, reason = reason_asked(self, request, queryset,
                                    gettext("Extend deadlines to at least 24 h from now"),
                                    "extend_deadline_24h")
        if page is not None:
            return page
        changed = unchanged = 0
        for match_id in queryset.values_list("pk", flat=True):
            try:
                if services.match_deadline_extend(match_id=match_id, hours=24, by=request.user,
                                                  reason=reason):
                    changed += 1
                else:
                    unchanged += 1
            except ServiceError as error:
                self.message_user(request, gettext("Match %(id)s: %(error)s")
                                  % {"id": match_id, "error": error.message}, messages.WARNING)
        self.message_user(request, ngettext(
            "Extended %(changed)d deadline; %(unchanged)d already had 24 h or more left.",
            "Extended %(changed)d deadlines; %(unchanged)d already had 24 h or more left.",
            changed) % {"changed": changed, "unchanged": unchanged})
        return None

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    @admin.action(description=_("Abort the selected matches"), permissions=["moderate"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet[Match]):
        page, reason = reason_asked(self, request, queryset, gettext("Abort matches"),
                                    "abort_matches")
        if page is not None:
            return page
        aborted = 0
        for match_id in queryset.values_list("pk", flat=True):
            try:
                services.match_moderate_abort(match_id=match_id, by=request.user, reason=reason)
                aborted += 1
            except ServiceError as error:
                self.message_user(request, gettext("Match %(id)s: %(error)s")
                                  % {"id": match_id, "error": error.message}, messages.WARNING)
        self.message_user(request, ngettext("Aborted %(count)d match.",
                                            "Aborted %(count)d matches.", aborted)
                          % {"count": aborted})
        return None


class SeatKindFilter(admin.SimpleListFilter):
    title = _("kind")
    parameter_name = "kind"

    def lookups(self, request, model_admin):
        return [("human", _("Human")), ("bot", _("Bot")), ("empty", _("Nobody yet"))]

    def queryset(self, request, queryset):
        if self.value() == "human":
            return queryset.filter(user__isnull=False)
        if self.value() == "bot":
            return queryset.exclude(bot="")
        if self.value() == "empty":
            return queryset.filter(user__isnull=True, bot="")
        return queryset


class SeatForm(forms.ModelForm):
    reason = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        label=_("Reason"),
        help_text=_("Why the seat changes hands (kept in the audit trail); needed when you "
                    "choose a new player."))


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    form = SeatForm
    list_display = ["__str__", "number", "user", "bot_in_words", "status", "missed_in_row",
                    "missed_total"]

    @admin.display(description=Seat._meta.get_field("bot").verbose_name, ordering="bot")
    def bot_in_words(self, seat: Seat) -> str:
        from games.plugins import bot_name

        return bot_name(seat.match.game, seat.bot) if seat.bot else "-"
    list_filter = [SeatKindFilter, "status"]  # (a bot's key or a game's slug: not for people)
    search_fields = ["user__username", "user__email", "=match__id", "match__title"]
    list_select_related = ["match", "user"]
    raw_id_fields = ["user"]
    readonly_fields = ["match", "number", "bot", "status", "missed_in_row", "missed_total",
                       "joined_at"]
    fields = ["match", "number", "user", "bot", "status", "missed_in_row", "missed_total",
              "joined_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # Only a seat flagged for replacement (or forfeited) in a match in play changes hands.
        replaceable = (obj is not None and obj.match.status == Match.Status.ACTIVE
                       and obj.status in (Seat.Status.FLAGGED, Seat.Status.FORFEITED))
        return self.readonly_fields + ([] if replaceable else ["user"])

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        moderator = request.user

        class HandOverForm(form):
            """Handing a seat over is a moderator's action like any other: it needs a reason
            and is written to the match's audit trail (``seat_moderate_replace``)."""

            def clean(self):
                cleaned = super().clean()
                if "user" in self.changed_data and obj is not None:
                    if cleaned.get("user") is None:
                        raise forms.ValidationError(
                            gettext("Choose the player who takes over the seat."))
                    try:  # a dry run of the service, so its refusals show on the form
                        with transaction.atomic():
                            self.hand_over(obj)
                            transaction.set_rollback(True)  # done for real in save_model
                    except ServiceError as error:
                        raise forms.ValidationError(error.message) from None
                return cleaned

            def hand_over(self, seat: Seat) -> Seat:
                return services.seat_moderate_replace(
                    match_id=seat.match_id, seat_number=seat.number, by=moderator,
                    reason=self.cleaned_data.get("reason"), user=self.cleaned_data["user"])

        return HandOverForm

    def get_fields(self, request: HttpRequest, obj=None):
        replaceable = "user" not in self.get_readonly_fields(request, obj)
        return self.fields + (["reason"] if replaceable else [])

    def save_model(self, request, obj, form, change):
        if change and "user" in form.changed_data:
            form.hand_over(obj)


class ReceiptMixin:
    @admin.display(description=_("receipt"))
    def receipt_code(self, submission: Submission) -> str:
        """The receipt (a SHA-256 in hex) set as code, not as words."""
        return format_html("<code>{}</code>", submission.receipt)


class SubmissionInline(ReceiptMixin, ReadOnlyAdminMixin, admin.TabularInline):
    model = Submission
    fields = ["seat", "source", "revision", "sheet", "receipt_code", "updated_at"]
    readonly_fields = fields
    extra = 0

    @admin.display(description=_("sheet"))
    def sheet(self, submission: Submission) -> str:
        return sheet_or_sealed(submission)


@admin.register(Phase)
class PhaseAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "match", "number", "name_in_words", "kind_in_words", "status",
                    "deadline", "resolved_at", "attempts"]
    list_filter = ["status", "kind", "match__game"]
    search_fields = ["=match__id", "match__title", "match__seats__user__username"]
    list_select_related = ["match"]
    fields = ["match", "number", "name_in_words", "kind_in_words", "status", "opened_at",
              "deadline", "resolved_at", "attempts", "last_error", "revealed_json", "events_json"]
    readonly_fields = fields
    inlines = [SubmissionInline]
    actions = ["retry_quarantined"]

    @admin.display(description=Phase._meta.get_field("name").verbose_name, ordering="name")
    def name_in_words(self, phase: Phase) -> str:
        """The phase's name as the game says it in the reader's language ("ordres")."""
        return plugins.plugin_for(phase.match.game).phase_label(phase.name) or "-"

    @admin.display(description=Phase._meta.get_field("kind").verbose_name, ordering="kind")
    def kind_in_words(self, phase: Phase) -> str:
        return str(PHASE_KINDS.get(phase.kind, phase.kind)) or "-"

    def get_queryset(self, request):
        # Voided (rolled-back) phases too: they are kept as the match's history.
        return (Phase.all_objects.defer("state_before", "match__state").select_related("match")
                .order_by("match", "number", "pk"))

    @admin.display(description=_("revealed sheets"))
    def revealed_json(self, phase: Phase) -> str:
        return pretty_json(phase.revealed) if is_revealed(phase) else SEALED

    @admin.display(description=_("events"))
    def events_json(self, phase: Phase) -> str:
        return pretty_json(phase.events)

    @admin.action(description=_("Retry the resolution of quarantined phases"),
                  permissions=["moderate"])
    def retry_quarantined(self, request: HttpRequest, queryset: QuerySet[Phase]):
        page, reason = reason_asked(self, request, queryset,
                                    gettext("Retry the resolution of quarantined phases"),
                                    "retry_quarantined")
        if page is not None:
            return page
        retried = 0
        for phase_id in queryset.values_list("pk", flat=True):
            try:
                retried += services.phase_retry(phase_id=phase_id, by=request.user,
                                                reason=reason)
            except ServiceError as error:
                self.message_user(request, gettext("Phase %(id)s: %(error)s")
                                  % {"id": phase_id, "error": error.message}, messages.WARNING)
        self.message_user(request, ngettext(
            "Queued %(count)d quarantined phase for another try; the others were not "
            "quarantined.",
            "Queued %(count)d quarantined phases for another try; the others were not "
            "quarantined.", retried) % {"count": retried})
        return None

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")


def is_revealed(phase: Phase) -> bool:
    """A phase's sheets are public once it resolved, even if it was rolled back (voided) later;
    the sheets of a phase voided before it resolved stay sealed for good."""
    return phase.status == Phase.Status.RESOLVED or (
        phase.status == Phase.Status.VOIDED and phase.resolved_at is not None
        and phase.revealed is not None)


def sheet_or_sealed(submission: Submission) -> str:
    if not is_revealed(submission.phase):
        return SEALED
    return pretty_json(submission.data)


@admin.register(Submission)
class SubmissionAdmin(ReceiptMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "source", "revision", "sheet", "receipt_code", "updated_at"]
    list_filter = ["source", "phase__status", "phase__match__game"]
    search_fields = ["=phase__match__id", "seat__user__username", "receipt"]
    list_select_related = ["phase__match", "seat__match"]
    fields = ["phase", "seat", "source", "revision", "sheet", "receipt", "salt_if_revealed",
              "submitted_at", "updated_at"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).defer("phase__state_before", "phase__match__state")

    @admin.display(description=_("sheet"))
    def sheet(self, submission: Submission) -> str:
        return sheet_or_sealed(submission)

    @admin.display(description=_("salt"))
    def salt_if_revealed(self, submission: Submission) -> str:
        return submission.salt if is_revealed(submission.phase) else SEALED


@admin.register(MatchStatusChange)
class MatchStatusChangeAdmin(StatusNoteMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["match", "old_status", "new_status", "changed_by", "note_in_words",
                    "changed_at"]
    # The record as before, its note read like the list's.
    fields = ["match", "old_status", "new_status", "changed_by", "note_in_words"]
    readonly_fields = fields
    list_filter = ["new_status"]
    search_fields = ["=match__id", "changed_by__username", "note"]
    list_select_related = ["match", "changed_by"]
    fields = ["match", "old_status", "new_status", "changed_by", "note_in_words", "changed_at"]
    readonly_fields = fields


@admin.register(SweepRun)
class SweepRunAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["name", "last_run_at", "last_gap_in_words", "extended_total"]

    @admin.display(description=_("last gap"))
    def last_gap_in_words(self, run: SweepRun) -> str:
        return duration(timedelta(seconds=run.last_gap_seconds))


class StrikeForm(forms.Form):
    reason = forms.CharField(max_length=255, label=_("Reason"),
                             help_text=_("Shown in the audit trail."))


@admin.register(Action)
class ActionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The logbook of continuous matches (actions and gameday ticks, in commit order)."""

    list_display = ["match", "seq", "kind", "seat", "source", "at", "gameday", "struck"]
    list_filter = ["kind", "struck", "source"]
    search_fields = ["match__id", "match__title"]
    list_select_related = ["match"]
    fields = ["match", "seq", "kind", "seat", "source", "at", "gameday", "data_json",
              "events_json", "struck", "struck_by", "struck_at", "struck_reason"]
    readonly_fields = fields
    actions = ["strike_out"]

    @admin.display(description=_("action"))
    def data_json(self, row: Action) -> str:
        return pretty_json(row.data)

    @admin.display(description=_("events"))
    def events_json(self, row: Action) -> str:
        return pretty_json(row.events)

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    @admin.action(description=_("Strike out the selected entries (the match is replayed)"),
                  permissions=["moderate"])
    def strike_out(self, request: HttpRequest, queryset: QuerySet[Action]):
        form = StrikeForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return TemplateResponse(request, "admin/games/action/strike.html", {
                **self.admin_site.each_context(request),
                "title": gettext("Strike out logbook entries"),
                "entries": queryset, "form": form, "opts": self.model._meta,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            })
        struck = unchanged = 0
        for action_id in queryset.order_by("-seq").values_list("pk", flat=True)[:50]:
            try:
                if services.logbook_strike(action_id=action_id, by=request.user,
                                           reason=form.cleaned_data["reason"]):
                    struck += 1
                else:
                    unchanged += 1
            except ServiceError as error:
                self.message_user(request, gettext("Entry %(id)s: %(error)s")
                                  % {"id": action_id, "error": error.message}, messages.WARNING)
        self.message_user(request, ngettext(
            "Struck out %(struck)d entry and replayed its match; %(unchanged)d were struck "
            "already.",
            "Struck out %(struck)d entries and replayed their matches; %(unchanged)d were "
            "struck already.", struck) % {"struck": struck, "unchanged": unchanged})
        return None


@admin.register(LogbookStrike)
class LogbookStrikeAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["match", "action", "by", "reason", "entries_replayed", "at"]
    list_select_related = ["match", "action", "by"]
    fields = list_display
    readonly_fields = fields


@admin.register(DeadlineMiss)
class DeadlineMissAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Missed deadlines: a moderator excuses one (it stops counting in the player's
    reliability record) or takes the excuse back; each goes through the service."""

    list_display = ("user", "match", "phase_number", "seat_number", "missed_at", "excused",
                    "excused_by", "excused_reason")
    list_filter = ("excused",)
    search_fields = ("user__username",)
    actions = ["excuse", "unexcuse"]

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return super().has_view_permission(request, obj) or self.has_moderate_permission(request)

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return self.has_moderate_permission(request)  # for the actions; fields stay read-only

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        return [field.name for field in DeadlineMiss._meta.fields]

    @admin.action(description=_("Excuse the selected misses (they stop counting)"),
                  permissions=["moderate"])
    def excuse(self, request: HttpRequest, queryset: QuerySet):
        return self._excuse(request, queryset, excused=True)

    @admin.action(description=_("Take the excuse back"), permissions=["moderate"])
    def unexcuse(self, request: HttpRequest, queryset: QuerySet):
        return self._excuse(request, queryset, excused=False)

    def _excuse(self, request: HttpRequest, queryset: QuerySet, *, excused: bool):
        action = "excuse" if excused else "unexcuse"
        title = (gettext("Excuse missed deadlines") if excused
                 else gettext("Take excuses back"))
        page, reason = reason_asked(self, request, queryset, title, action)
        if page is not None:
            return page
        changed = 0
        for miss in queryset.filter(excused=not excused).values_list("pk", flat=True):
            try:
                services.deadline_miss_excuse(miss_id=miss, by=request.user, reason=reason,
                                              excused=excused)
                changed += 1
            except ServiceError as error:
                self.message_user(request, gettext("Miss %(id)s: %(error)s")
                                  % {"id": miss, "error": error.message}, messages.WARNING)
        done = (ngettext("%(count)d miss excused.", "%(count)d misses excused.", changed)
                if excused else ngettext("%(count)d excuse taken back.",
                                         "%(count)d excuses taken back.", changed))
        self.message_user(request, done % {"count": changed})
        return None


@admin.register(Reliability)
class ReliabilityAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("user", "score", "matches_finished", "matches_abandoned", "deadlines",
                    "deadlines_missed", "misses_excused", "updated_at")
    search_fields = ("user__username",)
@admin.register(ModerationEntry)
class ModerationEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The audit trail of every moderator action (and of deadlines moved by players' leave)."""

    list_display = ["at", "match", "kind", "by", "summary", "reason"]
    list_filter = ["kind"]
    search_fields = ["=match__id", "by__username", "reason", "summary"]
    list_select_related = ["match", "by"]
    fields = ["at", "match", "phase_number", "kind", "by", "reason", "summary", "details_json"]
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).defer("match__state")

    @admin.display(description=_("details"))
    def details_json(self, entry: ModerationEntry) -> str:
        return pretty_json(entry.details)


class LeaveExtensionInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = LeaveExtension
    fields = ["match", "phase_number", "added_in_words", "at"]
    readonly_fields = fields

    @admin.display(description=LeaveExtension._meta.get_field("added").verbose_name)
    def added_in_words(self, extension: LeaveExtension) -> str:
        return duration(extension.added)
    extra = 0


@admin.register(Leave)
class LeaveAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["user", "starts_at", "ends_at", "days"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    fields = ["user", "starts_at", "ends_at", "days", "created_at"]
    readonly_fields = fields
    inlines = [LeaveExtensionInline]
