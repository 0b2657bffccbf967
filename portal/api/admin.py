from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from portal.api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens by user; the token itself is nowhere (only its hash), so nothing here can leak
    it. A moderator may revoke one."""

    list_display = ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["user", "name", "prefix", "key_hash", "created_at", "last_used_at",
                       "revoked_at"]
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, ngettext("%(count)s token revoked.",
                                            "%(count)s tokens revoked.", count) % {
            "count": count})
