"""The bodies each kind of target takes, from one neutral :class:`Message`, and the signature
of the generic format.

- Discord (execute webhook): ``{"content": ..., "allowed_mentions": ...}``; Discord markdown in
  what users wrote is escaped, and only the players named by a Discord user id are pinged.
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

DISCORD_ID = re.compile(r"^\d{17,20}$")
SLACK_ID = re.compile(r"^[UW][A-Z0-9]{6,20}$")
MATRIX_ID = re.compile(r"^@[^:\s]+:[A-Za-z0-9.\-]+(:\d+)?$")
DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]()@])")
SIGNATURE_HEADER = "X-Webhook-Signature"
TIMESTAMP_HEADER = "X-Webhook-Timestamp"
SENDER = "Tank Portal"


@dataclass(frozen=True)
class Player:
    """A player named in a message: their user name and, if their profile has one, the chat
    handle to mention them by."""

    name: str
    handle: str = ""


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

    def plain(self) -> str:
        names = ", ".join(_plain_player(p) for p in self.players)
        return self.text % {**self.values, "players": names}


def _plain_player(player: Player) -> str:
    return f"{player.name} ({player.handle})" if player.handle else player.name


def discord(message: Message) -> dict[str, Any]:
    users, names = [], []
    for player in message.players:
        if DISCORD_ID.match(player.handle):
            users.append(player.handle)
            names.append(f"<@{player.handle}>")
        else:
            names.append(_discord_escape(_plain_player(player)))
    values = {key: _discord_escape(value) for key, value in message.values.items()}
    content = message.text % {**values, "players": ", ".join(names)} + f"\n<{message.url}>"
    return {"content": content[:2000], "username": SENDER,
            "allowed_mentions": {"parse": [], "users": sorted(set(users))[:100]}}


def _discord_escape(text: str) -> str:
    return DISCORD_MARKDOWN.sub(r"\\\1", text)


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(message: Message) -> dict[str, Any]:
    names = [f"<@{p.handle}>" if SLACK_ID.match(p.handle) else _slack_escape(_plain_player(p))
             for p in message.players]
    values = {key: _slack_escape(value) for key, value in message.values.items()}
    text = _slack_escape(message.text) % {**values, "players": ", ".join(names)}
    return {"text": f"{text}\n<{message.url}>", "mrkdwn": True}


def matrix(message: Message) -> dict[str, Any]:
    names = []
    for player in message.players:
        if MATRIX_ID.match(player.handle):
            link = html.escape(f"https://matrix.to/#/{player.handle}")
            names.append(f'<a href="{link}">{html.escape(player.handle)}</a>')
        else:
            names.append(html.escape(_plain_player(player)))
    values = {key: html.escape(value) for key, value in message.values.items()}
    body = html.escape(message.text) % {**values, "players": ", ".join(names)}
    link = html.escape(message.url)
    return {"text": f"{message.plain()}\n{message.url}", "username": SENDER,
            "html": f'{body}<br><a href="{link}">{link}</a>'}


def generic(message: Message) -> dict[str, Any]:
    return {"event": message.event, "text": message.plain(), "url": message.url,
            "players": [{"name": p.name, "chat_handle": p.handle} for p in message.players],
            **message.data}


BODY = {"discord": discord, "slack": slack, "matrix": matrix, "generic": generic}


def body_for(format_: str, message: Message) -> dict[str, Any]:
    return BODY[format_](message)


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """``sha256=`` and the hex HMAC-SHA256 of ``"<timestamp>.<body>"`` under ``secret``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()
