"""django-allauth's account adapter, with one thing added for development."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest

# The session key of the last verification link mailed in development.
DEV_VERIFICATION_LINK = "dev_verification_link"


class AccountAdapter(DefaultAccountAdapter):
    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation: Any) -> str:
        """The verification link of the mail about to go; in development (DEBUG) also kept in
        the session: the "check your mail" page shows it, since no mail leaves a development
        site and its one line in the terminal was lost among the others."""
        url = super().get_email_confirmation_url(request, emailconfirmation)
        if settings.DEBUG and request is not None and hasattr(request, "session"):
            request.session[DEV_VERIFICATION_LINK] = url
        return url
