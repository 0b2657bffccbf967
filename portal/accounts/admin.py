from django.contrib import admin

from portal.accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "time_zone", "notifications", "reminder_hours", "updated_at"]
    list_filter = ["notifications", "time_zone"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    readonly_fields = ["updated_at"]
