"""What the receiving mail server found when it checked a message's DKIM signatures and its
DMARC policy, read from its ``Authentication-Results`` header (RFC 8601).

Only a header of a server we trust counts: those whose authserv-id is in
settings.MAIL_AUTHSERV_IDS or, when that is empty, the topmost ones (every server puts its own
above what it received, so the headers at the top that share the first one's authserv-id were
added by the last server, ours; a sender can write any header below them). The parser is small
and lenient on purpose: PyPI's ``authres`` (unmaintained since 2019) refuses headers real
servers write, such as Microsoft's without an authserv-id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage

from django.conf import settings

_METHOD = re.compile(r"\s*([a-z0-9_.-]+)\s*(?:/\s*\d+\s*)?=\s*([a-z0-9_-]+)", re.IGNORECASE)


def _without_comments(text: str) -> str:
    """``text`` with its (nested) parenthesised comments removed, quoted strings kept."""
    out, depth, quoted, escaped = [], 0, False, False
    for char in text:
        if escaped:
            escaped = False
            if not depth:
                out.append(char)
            continue
        if char == "\\":
            escaped = True
            if not depth:
                out.append(char)
            continue
        if quoted:
            quoted = char != '"'
            out.append(char)
        elif char == '"' and not depth:
            quoted = True
            out.append(char)
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def _split(text: str) -> list[str]:
    """``text`` cut at each ";" outside quoted strings."""
    parts, current, quoted = [], [], False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def parse(value: str) -> tuple[str, list[tuple[str, str]]]:
    """(authserv-id, [(method, result), ...]) of one header's value, lower-cased."""
    parts = _split(" ".join(_without_comments(value).split()))
    authserv_id = ""
    if parts and "=" not in parts[0]:  # Microsoft's headers have no authserv-id
        authserv_id = parts.pop(0).split()[0].lower() if parts[0].split() else ""
    results = []
    for part in parts:
        found = _METHOD.match(part)
        if found:
            results.append((found.group(1).lower(), found.group(2).lower()))
    return authserv_id, results


@dataclass(frozen=True)
class Verdict:
    """DKIM and DMARC results the trusted headers report (empty: no trusted header)."""

    dkim: tuple[str, ...] = ()
    dmarc: tuple[str, ...] = ()
    servers: tuple[str, ...] = ()

    @property
    def failed(self) -> str:
        """Why the message fails authentication, "" when it does not."""
        if "fail" in self.dmarc:
            return "the sender's domain says (DMARC) it did not send it"
        if "fail" in self.dkim and "pass" not in self.dkim:
            return "its DKIM signature is wrong (the message was altered or forged)"
        return ""

    def __str__(self) -> str:
        if not self.servers:
            return ""
        words = [f"dkim={'/'.join(self.dkim) or 'none'}",
                 f"dmarc={'/'.join(self.dmarc) or 'none'}"]
        return " ".join(words) + f" (by {', '.join(self.servers)})"


def verdict(message: EmailMessage) -> Verdict:
    """The verdict of the trusted ``Authentication-Results`` headers of ``message``."""
    try:
        values = [str(v) for v in message.get_all("Authentication-Results") or []]
    except Exception:  # a header the parser could not make sense of
        values = []
    headers = [parse(value) for value in values]
    trusted_ids = {server.lower() for server in settings.MAIL_AUTHSERV_IDS}
    if trusted_ids:
        trusted = [h for h in headers if h[0] in trusted_ids]
    else:
        trusted = []
        for header in headers:
            if trusted and header[0] != trusted[0][0]:
                break
            trusted.append(header)
    results = [result for _, found in trusted for result in found]
    return Verdict(
        dkim=tuple(result for method, result in results if method == "dkim"),
        dmarc=tuple(result for method, result in results if method == "dmarc"),
        servers=tuple(dict.fromkeys(server or "?" for server, _ in trusted)),
    )
