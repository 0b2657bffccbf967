"""Activate the signed-in player's time zone for every request."""

import zoneinfo

from django.utils import timezone


class TimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
        tz_name = getattr(profile, "time_zone", "") or ""
        try:
            timezone.activate(zoneinfo.ZoneInfo(tz_name)) if tz_name else timezone.deactivate()
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            timezone.deactivate()
        return self.get_response(request)
