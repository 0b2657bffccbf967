from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from games.fields import BOUNDED_JSON
from portal.accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "time_zone", "mail_delivery", "reminder_hours", "updated_at"]
    list_filter = ["mail_delivery", "time_zone"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
    readonly_fields = ["updated_at"]
    formfield_overrides = BOUNDED_JSON


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fields = ["time_zone", "mail_delivery", "channels", "reminder_hours"]
    formfield_overrides = BOUNDED_JSON


User = get_user_model()
if admin.site.is_registered(User):
    base = type(admin.site._registry[User])
    admin.site.unregister(User)
else:
    base = UserAdmin


@admin.register(User)
class UserWithProfileAdmin(base):
    """The user admin as it was, with the player's profile on the same page."""

    inlines = [*getattr(base, "inlines", []), ProfileInline]
