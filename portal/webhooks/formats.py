"""The bodies each kind of target takes, from one neutral :class:`Message`, and the signature
of the generic format.

- Discord (execute webhook): ``{"content": ..., "allowed_mentions": ...}``; Discord markdown in
  what users wrote is escaped, and only the players named by a Discord user id are pinged.
- A player's chat handle goes only to the chat it is an id of, and only if they allowed
  mentions (``messages``); the generic format never carries one.
- Slack (incoming webhook): ``{"text": ..., "mrkdwn": true}``; ``& < >`` escaped (so nobody's
  text can become ``<!channel>``), a Slack member id becomes a mention.
- Matrix: the matrix-hookshot generic webhook, ``{"text": ..., "html": ..., "username": ...}``
  (hookshot posts it to its room as ``m.room.message``); a Matrix user id becomes a pill.
- Generic: the event as JSON, signed with HMAC-SHA256 over ``"<timestamp>.<body>"``.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from portal.accounts.chat_handles import chat_platform

DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()@])")
SIGNATURE_HEADER = "X-Webhook-Signature"
TIMESTAMP_HEADER = "X-Webhook-Timestamp"
SENDER = "Tank Portal"


@dataclass(frozen=True)
class Player:
    """A player named in a message: their user name and, if they allowed mentions, their chat
    handle. A format writes the handle only if it is an id of that format's own chat, and the
    generic format never does (a handle is private: no page shows it)."""

    name: str
    handle: str = ""

    def handle_for(self, format_: str) -> str:
        """The handle if it may go to a chat of ``format_``; empty otherwise."""
        return self.handle if chat_platform(self.handle) == format_ else ""


@dataclass(frozen=True)
class Message:
    """What happened, in words already translated: ``text`` with ``%(name)s`` placeholders
    filled by ``values`` (text users wrote, escaped per format) and ``%(players)s`` by
    ``players`` (mentioned per format); ``url`` links to the page; ``data`` is the generic
    format's facts (public ones only)."""

    event: str
    text: str
    url: str
    values: dict[str, str] = field(default_factory=dict)
    players: tuple[Player, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def plain(self, format_: str = "generic") -> str:
        """The text without markup, each player named (with the handle ``format_`` may get)."""
        names = ", ".join(_plain_player(p, format_) for p in self.players)
        return self.text % {**self.values, "players": names}


def _plain_player(player: Player, format_: str) -> str:
    handle = player.handle_for(format_)
    return f"{player.name} ({handle})" if handle else player.name


def discord(message: Message) -> dict[str, Any]:
    users, names = [], []
    for player in message.players:
        if handle := player.handle_for("discord"):
            users.append(handle)
            names.append(f"<@{handle}>")
        else:
            names.append(_discord_escape(player.name))
    values = {key: _discord_escape(value) for key, value in message.values.items()}
    content = message.text % {**values, "players": ", ".join(names)} + f"\n<{message.url}>"
    return {"content": content[:2000], "username": SENDER,
            "allowed_mentions": {"parse": [], "users": sorted(set(users))[:100]}}


def _discord_escape(text: str) -> str:
    return DISCORD_MARKDOWN.sub(r"\\\1", text)


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(message: Message) -> dict[str, Any]:
    names = [f"<@{p.handle}>" if p.handle_for("slack") else _slack_escape(p.name)
             for p in message.players]
    values = {key: _slack_escape(value) for key, value in message.values.items()}
    text = _slack_escape(message.text) % {**values, "players": ", ".join(names)}
    return {"text": f"{text}\n<{message.url}>", "mrkdwn": True}


def matrix(message: Message) -> dict[str, Any]:
    names = []
    for player in message.players:
        if handle := player.handle_for("matrix"):
            link = html.escape(f"https://matrix.to/#/{handle}")
            names.append(f'<a href="{link}">{html.escape(handle)}</a>')
        else:
            names.append(html.escape(player.name))
    values = {key: html.escape(value) for key, value in message.values.items()}
    body = html.escape(message.text) % {**values, "players": ", ".join(names)}
    link = html.escape(message.url)
    return {"text": f"{message.plain('matrix')}\n{message.url}", "username": SENDER,
            "html": f'{body}<br><a href="{link}">{link}</a>'}


def generic(message: Message) -> dict[str, Any]:
    """Any receiver at all: players by name only, never a chat handle."""
    return {"event": message.event, "text": message.plain(), "url": message.url,
            "players": [{"name": p.name} for p in message.players], **message.data}


BODY = {"discord": discord, "slack": slack, "matrix": matrix, "generic": generic}


def body_for(format_: str, message: Message) -> dict[str, Any]:
    return BODY[format_](message)


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """``sha256=`` and the hex HMAC-SHA256 of ``"<timestamp>.<body>"`` under ``secret``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()
