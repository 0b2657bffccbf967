"""Activate the signed-in player's time zone and language for every request."""

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation


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


class LanguageMiddleware:
    """The language of the profile, for a signed-in player who has not picked one in the
    footer (the footer's choice is a cookie, which ``LocaleMiddleware`` already applied)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated and \
                settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            language = getattr(getattr(request.user, "profile", None), "language", "")
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
