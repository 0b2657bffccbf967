from django import template
from django.urls import reverse

from portal.push import vapid
from portal.push.models import PushSubscription

register = template.Library()


@register.inclusion_tag("push/devices.html", takes_context=True)
def push_devices(context: template.Context) -> dict:
    """The profile's push section: this browser's button and the player's devices."""
    user = context["user"]
    return {
        "csrf_token": context.get("csrf_token"),
        "push": {
            "enabled": vapid.enabled(),
            "public_key": vapid.public_key(),
            # The site's one service worker (portal.webapp), which controls every page.
            "worker_url": reverse("service_worker"),
            "worker_scope": "/",
            "devices": list(PushSubscription.objects.filter(user=user)),
        },
    }
