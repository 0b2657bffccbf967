"""Admin for the outbox: the side effects promised and not carried out (a row that failed every
attempt is left here, its last error on it), with an action that tries them again. Rows hold
ids and names, never a sheet or a message."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from durable.models import OutboxEvent
from durable.outbox import OUTBOX


@admin.register(OutboxEvent)
class OutboxEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "name", "series", "status", "attempts",
                    "next_attempt_at", "done_at")
    list_filter = ("status", "kind")
    search_fields = ("name", "last_error")
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in OutboxEvent._meta.fields]
    actions = ["try_again"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # (a row deleted is a side effect lost)

    def has_try_again_permission(self, request) -> bool:
        return request.user.is_superuser

    @admin.action(description=_("Try the selected failed side effects again"),
                  permissions=["try_again"])
    def try_again(self, request, queryset) -> None:
        count = OUTBOX.requeue(queryset.values_list("pk", flat=True))
        self.message_user(request, ngettext(
            "%(count)s failed side effect queued again.",
            "%(count)s failed side effects queued again.", count) % {"count": count},
            messages.SUCCESS)
