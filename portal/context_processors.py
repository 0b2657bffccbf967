"""Context for every page."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

# The links of every page's header and footer (base.html), by name.
SITE_LINKS = {
    "home": "home", "next_match": "next_match",
    "lobby": "games:lobby", "clubs": "competitions:clubs", "my_matches": "games:my_matches",
    "match_create": "games:match_create", "profile": "accounts_profile", "admin": "admin:index",
    "logout": "account_logout", "login": "account_login", "signup": "account_signup",
    "email": "account_email", "mail_resume": "mail_address_resume",
    "set_language": "set_language", "learn": "lessons:index",
}


@functools.cache
def _site_links() -> dict[str, str]:
    # Reversed once a process: reversing a URL on every page cost more than the rest of the
    # header (scripts/profile_pages.py).
    return {name: reverse(view) for name, view in SITE_LINKS.items()}


def site_links(request: HttpRequest) -> dict[str, Any]:
    return {"site_links": _site_links()}
