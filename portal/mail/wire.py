"""An outgoing e-mail written straight into the bytes SMTP sends, for the shape every mail of
the outbox has: a plain-text body, perhaps an HTML alternative, no attachment.

Django's ``EmailMultiAlternatives`` builds a tree of ``email.message`` objects and the stdlib's
generator then walks it, folding each header through an ``email.header.Header``: about 1 ms a
message, most of what a worker spent on one (see ``docs/benchmarks.md``). Here the same bytes
are written in one pass: the headers go through Django's own checks
(``forbid_multi_line_headers``: no newline, RFC 2047 for non-ASCII) and the stdlib's folding
where a header is long or encoded, the bodies as Django would encode them (7bit or 8bit).
Anything else (a body line over 998 bytes, which Django sends as quoted-printable, or a lone
carriage return) answers None, and the caller builds the message the general way. A test
checks, over a corpus of English, French and awkward messages, that both ways give the same
bytes.
"""

from __future__ import annotations

import random
import sys
from email.header import Header
from email.utils import formatdate

from django.conf import settings
from django.core.mail.message import RFC5322_EMAIL_LINE_LENGTH_LIMIT, forbid_multi_line_headers

CRLF = "\r\n"
MAX_HEADER_LINE = 78  # RFC 5322's recommended line length, the stdlib's folding width


def message_bytes(*, subject: str, from_email: str, to: str, reply_to: str,
                  headers: dict[str, str], text: str, html: str = "") -> bytes | None:
    """The message as SMTP data (CRLF line ends), or None when it needs the general builder.
    ``headers`` are the extra ones, in order (Message-ID among them)."""
    bodies = [_body(text), *([_body(html)] if html else [])]
    if None in bodies:
        return None
    lines = []
    if html:
        boundary = _boundary(text, html)
        lines.append(f'Content-Type: multipart/alternative;{CRLF} boundary="{boundary}"')
        lines.append("MIME-Version: 1.0")
    else:
        lines.extend(_part_headers("plain", bodies[0][1]))
    lines.append(_header("Subject", subject))
    lines.append(_header("From", headers.get("From", from_email)))
    lines.append(_header("To", to))
    if reply_to:
        lines.append(_header("Reply-To", reply_to))
    names = {name.lower() for name in headers}
    if "date" not in names:
        lines.append(_header("Date", formatdate(localtime=settings.EMAIL_USE_LOCALTIME)))
    if "message-id" not in names:
        return None  # (every outbox row has one; Django would make one up)
    lines.extend(_header(name, value) for name, value in headers.items()
                 if name.lower() not in ("from", "to", "cc", "reply-to"))
    head = CRLF.join(lines) + CRLF + CRLF
    if not html:
        return head.encode() + bodies[0][0]
    parts = [(CRLF.join(_part_headers(kind, cte)) + CRLF + CRLF).encode() + body
             for kind, (body, cte) in zip(("plain", "html"), bodies, strict=True)]
    delimiter = f"{CRLF}--{boundary}{CRLF}".encode()
    return (head.encode() + f"--{boundary}{CRLF}".encode() + delimiter.join(parts)
            + f"{CRLF}--{boundary}--{CRLF}".encode())


def _body(text: str) -> tuple[bytes, str] | None:
    """The body's bytes and transfer encoding, as Django's ``SafeMIMEText`` would send them;
    None where it would use quoted-printable (a line over 998 bytes) or the text holds a
    line break other than LF or CRLF (the stdlib's generator treats those its own way)."""
    if "\r" in text:
        if "\r" in text.replace("\r\n", ""):
            return None
        text = text.replace("\r\n", "\n")
    data = text.replace("\n", CRLF).encode("utf-8", "surrogateescape")
    if len(data) > RFC5322_EMAIL_LINE_LENGTH_LIMIT and any(
            len(line) > RFC5322_EMAIL_LINE_LENGTH_LIMIT for line in data.split(b"\r\n")):
        return None
    if any(sep in text for sep in "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        return None  # (str.splitlines, which Django's line-length check uses, breaks there)
    return data, "7bit" if data.isascii() else "8bit"


def _part_headers(kind: str, cte: str) -> list[str]:
    return [f'Content-Type: text/{kind}; charset="utf-8"', "MIME-Version: 1.0",
            f"Content-Transfer-Encoding: {cte}"]


def _header(name: str, value: str) -> str:
    """``name: value`` as Django sets it and the stdlib's compat32 policy writes it: checked
    for newlines (BadHeaderError), non-ASCII encoded, folded when long."""
    if name == "Subject" or not value.isascii() or "\n" in value or "\r" in value:
        name, value = forbid_multi_line_headers(name, value, settings.DEFAULT_CHARSET)
    if (value.isascii() and len(name) + 2 + len(value) <= MAX_HEADER_LINE
            and value.isprintable() and "  " not in value and value == value.strip()):
        return f"{name}: {value}"
    folded = Header(value, header_name=name).encode(linesep=CRLF, maxlinelen=MAX_HEADER_LINE)
    return f"{name}: {folded}"


def _boundary(*texts: str) -> str:
    """A multipart boundary as the stdlib makes one (15 "=", a random number, "=="), checked
    against the bodies (7bit and 8bit bodies are written as they are)."""
    while True:
        boundary = "=" * 15 + f"{random.randrange(sys.maxsize):019d}" + "=="
        if not any(f"--{boundary}" in text for text in texts):
            return boundary

