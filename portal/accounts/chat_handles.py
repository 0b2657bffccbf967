"""A player's chat handle (the profile's ``chat_handle``): the id of one chat's user, and the
one chat it may be sent to. The profile form accepts only these; the webhooks mention a player
only in the chat their handle is an id of."""

from __future__ import annotations

import re

DISCORD_ID = re.compile(r"^\d{17,20}$")
SLACK_ID = re.compile(r"^[UW][A-Z0-9]{6,20}$")
MATRIX_ID = re.compile(r"^@[^:\s]+:[A-Za-z0-9.\-]+(:\d+)?$")


def chat_platform(handle: str) -> str | None:
    """The one format a chat handle may be sent to (the chat it is an id of), or None."""
    for format_, pattern in (("discord", DISCORD_ID), ("slack", SLACK_ID),
                             ("matrix", MATRIX_ID)):
        if pattern.match(handle):
            return format_
    return None
