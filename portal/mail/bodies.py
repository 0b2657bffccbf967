"""Reading a received email: sender, loop signs, recipients, attachments and the order text.

Parsing is Python's ``email`` package with ``policy.default``. An HTML-only message is turned
into text with a small ``html.parser`` converter. Quoted reply text, "On ... wrote:" lines and
everything after a signature separator are blanked out, keeping line numbers, so an error's
"line 3" is line 3 of what the player wrote.
"""

from __future__ import annotations

import codecs
import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
LOOP_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Reply", "List-Id", "List-Unsubscribe",
                "X-Loop", "X-Failed-Recipients")
ROBOT_LOCALPARTS = {"mailer-daemon", "postmaster", "noreply", "no-reply", "bounce", "bounces"}
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To")


class BodyError(Exception):
    """The message has no usable text (the message says why, for the reply)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def parse(raw: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    return message


def parse_headers(raw: bytes) -> EmailMessage:
    message = BytesHeaderParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    return message


def header(message: EmailMessage, name: str) -> str:
    """A header as text, "" when missing or unreadable."""
    try:
        value = message.get(name)
    except Exception:  # a malformed header the parser could not make sense of
        return ""
    return str(value).strip() if value is not None else ""


def sender_address(message: EmailMessage) -> str:
    """The From address, lower-cased; "" if there is none that looks like an address."""
    address = parseaddr(header(message, "From"))[1].strip().lower()
    return address if re.fullmatch(r"[^@\s]+@[^@\s]+\.?[^@\s]*", address) else ""


def recipient_addresses(message: EmailMessage) -> list[str]:
    values = []
    for name in RECIPIENT_HEADERS:
        try:
            values += [str(v) for v in message.get_all(name) or []]
        except Exception:
            continue
    return [address for _, address in getaddresses(values) if address]


def loop_reason(message: EmailMessage, own_addresses: set[str]) -> str | None:
    """Why this message must not be answered (an auto-reply, a list, a bounce, ourselves)."""
    auto = header(message, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = header(message, "Precedence").lower()
    if precedence in AUTO_PRECEDENCE:
        return f"Precedence: {precedence}"
    for name in LOOP_HEADERS:
        if header(message, name):
            return f"{name} header"
    sender = sender_address(message)
    if sender in own_addresses:
        return "sent by this site"
    if sender.split("@")[0] in ROBOT_LOCALPARTS:
        return f"sent by {sender}"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    if header(message, "Return-Path") == "<>":
        return "a bounce (empty Return-Path)"
    return None


def attachment_names(message: EmailMessage) -> list[str]:
    """Parts that are not the message's text: files, images, anything not text/plain|html."""
    names = []
    for part in message.walk():
        if part.is_multipart():
            continue
        disposition = part.get_content_disposition()
        if disposition == "attachment" or part.get_content_type() not in (
            "text/plain", "text/html"
        ):
            names.append(part.get_filename() or part.get_content_type())
    return names


def _decode(part: EmailMessage) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "us-ascii"
    try:
        codecs.lookup(charset)
    except LookupError:
        raise BodyError("charset", f"its text is in an unknown character set ({charset!r}); "
                        "please send plain text in UTF-8.") from None
    try:
        return payload.decode(charset)
    except UnicodeDecodeError:
        raise BodyError("charset", f"its text is not valid {charset} as the message says; "
                        "please send plain text in UTF-8.") from None


class _TextFromHtml(HTMLParser):
    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
              "ul", "ol"}
    SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        elif tag in self.BLOCKS and not self.skipping:
            self.chunks.append("\n")

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag == "br" and not self.skipping:
            self.chunks.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS and not self.skipping:
            self.chunks.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.chunks.append(data)


def html_to_text(html: str) -> str:
    """The visible text of an HTML body (quoted blockquotes, scripts and styles left out)."""
    parser = _TextFromHtml()
    parser.feed(html)
    parser.close()
    text = "".join(parser.chunks).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def body_text(message: EmailMessage) -> str:
    """The text the sender wrote: the text/plain part, else the HTML part as text."""
    plain = message.get_body(preferencelist=("plain",))
    if plain is not None:
        return _decode(plain)  # type: ignore[arg-type]
    html = message.get_body(preferencelist=("html",))
    if html is not None:
        return html_to_text(_decode(html))  # type: ignore[arg-type]
    if message.get_content_maintype() == "text" or not message.is_multipart():
        if message.get_content_type() not in ("text/plain", "text/html", "text/enriched"):
            raise BodyError("no_text", f"it has no text (only {message.get_content_type()}).")
        return _decode(message)
    raise BodyError("no_text", "it has no text part.")


_WROTE = re.compile(r"^\s*(On|Am|Le|El|Il|Op)\b.*(wrote|schrieb|a écrit|escribió|ha scritto|"
                    r"schreef)\s*:\s*$", re.IGNORECASE)
_CUT = re.compile(r"^\s*(-- ?|-----\s*Original Message\s*-----|_{10,})\s*$", re.IGNORECASE)


def strip_reply(text: str) -> str:
    """The new text of a reply: quoted lines, "On ... wrote:" and signature blanked out.

    Line numbers are kept (blanked lines stay as empty lines) so errors point at the right line.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if _CUT.match(line):
            break
        if stripped.startswith(">"):
            kept.append("")
            continue
        if _WROTE.match(line):
            kept.append("")
            continue
        # "On <date>, <name> <" / "address> wrote:" wrapped over two lines.
        if (stripped.lower().endswith("wrote:") and index > 0
                and lines[index - 1].strip().lower().startswith("on ")):
            kept[-1] = ""
            kept.append("")
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)
