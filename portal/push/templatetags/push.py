from django import template
from django.templatetags.static import static

from portal.push import vapid
from portal.push.models import PushSubscription

register = template.Library()


@register.inclusion_tag("push/devices.html", takes_context=True)
def push_devices(context: template.Context) -> dict:
    """The profile's push section: this browser's button and the player's devices."""
    user = context["user"]
    worker = static("push/sw.js")
    return {
        "csrf_token": context.get("csrf_token"),
        "push": {
            "enabled": vapid.enabled(),
            "public_key": vapid.public_key(),
            "worker_scope": worker.rsplit("/", 1)[0] + "/",
            "devices": list(PushSubscription.objects.filter(user=user)),
        },
    }
