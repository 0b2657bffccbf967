from django.contrib import admin

from portal.push.models import PushMessage, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "label", "your_move", "reminders", "results", "created_at",
                    "last_sent_at")
    search_fields = ("user__username", "label")
    readonly_fields = ("endpoint", "p256dh", "auth", "created_at", "last_sent_at")


@admin.register(PushMessage)
class PushMessageAdmin(admin.ModelAdmin):
    list_display = ("kind", "subscription", "status", "attempts", "response_status",
                    "created_at", "sent_at")
    list_filter = ("status", "kind")
    readonly_fields = [field.name for field in PushMessage._meta.fields]
