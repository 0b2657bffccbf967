from django.contrib import admin

from clocks.models import ActiveHours


@admin.register(ActiveHours)
class ActiveHoursAdmin(admin.ModelAdmin):
    list_display = ["user", "start", "end", "time_zone", "updated_at"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
