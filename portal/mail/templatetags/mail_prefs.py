"""``{% mail_opt_outs user as opted_out %}``: the kinds of mail a user unsubscribed from, for
the profile page (kept here so that accounts need not import the mail app)."""

from __future__ import annotations

from typing import Any

from django import template

from portal.mail.unsubscribe import opted_out

register = template.Library()


@register.simple_tag
def mail_opt_outs(user: Any) -> list[dict[str, str]]:
    return opted_out(user) if getattr(user, "is_authenticated", False) else []
