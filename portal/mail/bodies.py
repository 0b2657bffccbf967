"""Reading a received email: sender, loop signs, recipients, attachments and the order text.

Parsing is Python's ``email`` package with ``policy.default`` (``format=flowed`` text is
unwrapped as RFC 3676 says). An HTML-only message is turned into text with a small
``html.parser`` converter. What the player wrote is found in three steps (``strip_reply``):

1. every mail that invites orders starts with the reply marker ("— write your orders above this
   line —", ``reply_marker``); the reply is cut at the first line that carries it, quoted or
   not, in any language we write it in, whatever the client did to its dashes;
2. above it, ``mail-parser-reply`` finds the client's attribution ("On … wrote:", "Le … a
   écrit :", "Am … schrieb …:", Outlook's "From: / Sent: / To: / Subject:" block and its
   French and German twins) and signatures ("-- ", "Sent from my iPhone", "Best regards");
3. the project's own rules cover what the library misses (sign-offs of phones and web mail in
   French and German, Proton Mail / Yahoo / Fastmail footers, a two-line attribution).

Lines that are dropped become empty lines, so an error's "line 3" is line 3 of the reply as the
player sees it.
"""

from __future__ import annotations

import codecs
import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from django.utils.translation import gettext as _
from mailparser_reply.parser import EmailMessage as ReplyParser

AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
LOOP_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Reply", "List-Id", "List-Unsubscribe",
                "X-Loop", "X-Failed-Recipients")
# Subjects of out-of-office answers from clients that set none of the headers above.
AUTO_SUBJECT = re.compile(
    r"^\s*(out of (the )?office|automatic reply|auto(matic)?[- ]?reply|autoreply|"
    r"r\u00e9ponse automatique|absence|abwesenheit\w*|automatische antwort|"
    r"respuesta autom\u00e1tica|risposta automatica|fuera de la oficina)\b",
    re.IGNORECASE,
)
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


def sender_name(message: EmailMessage) -> str:
    """The From display name ("" when there is none)."""
    return parseaddr(header(message, "From"))[0].strip()


def sender_address(message: EmailMessage) -> str:
    """The From address, lower-cased; "" if there is none that looks like an address."""
    address = parseaddr(header(message, "From"))[1].strip().lower()
    # No control characters (a NUL could not even be stored in PostgreSQL).
    valid = re.fullmatch(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+", address)
    return address if valid else ""


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
    if AUTO_SUBJECT.match(header(message, "Subject")):
        return "an automatic answer (its subject says so)"
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
        raise BodyError("charset", _("its text is in an unknown character set (“%(charset)s”); "
                                     "please send plain text in UTF-8.") % {
            "charset": charset}) from None
    try:
        text = payload.decode(charset)
    except LookupError:  # a codec that is not a character set ("hex", "rot13", "zip")
        raise BodyError("charset", _("its text is in “%(charset)s”, which is not a character "
                                     "set we can read; please send plain text in UTF-8.") % {
            "charset": charset}) from None
    except UnicodeDecodeError:
        raise BodyError("charset", _("its text is not valid %(charset)s as the message says; "
                                     "please send plain text in UTF-8.") % {
            "charset": charset}) from None
    if "\x00" in text:
        raise BodyError("nul", _("its text has a NUL character, which no mail text may carry; "
                                 "please send plain text."))
    return text


class _TextFromHtml(HTMLParser):
    """Visible text, a line per block: blocks next to each other make one line break (as
    Outlook's margin-less ``MsoNormal`` paragraphs look), ``<br>`` makes one each, and
    whitespace inside text collapses as a browser does (except in ``<pre>``)."""

    BLOCKS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
              "ul", "ol", "hr"}
    SKIP = {"script", "style", "head", "title", "blockquote"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.skipping = 0
        self.pre = 0

    def _block(self) -> None:
        if not self.skipping and self.chunks and self.chunks[-1] != "\n":
            self.chunks.append("\n")

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        elif tag == "br" and not self.skipping:
            self.chunks.append("\n")
        elif tag in self.BLOCKS:
            self._block()
        if tag == "pre":
            self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag == "br" and not self.skipping:
            self.chunks.append("\n")
        elif tag in self.BLOCKS:
            self._block()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS:
            self._block()
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if not self.pre:
            data = re.sub(r"[ \t\r\n]+", " ", data)
            if data == " " and (not self.chunks or self.chunks[-1] == "\n"):
                return
        self.chunks.append(data)


def html_to_text(html: str) -> str:
    """The visible text of an HTML body (quoted blockquotes, scripts and styles left out)."""
    parser = _TextFromHtml()
    parser.feed(html)
    parser.close()
    text = "".join(parser.chunks).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def unflow(text: str, *, delsp: bool = False) -> str:
    """``format=flowed`` text (RFC 3676) as the reader sees it: a line ending in a space goes on
    in the next line (of the same quote depth); space-stuffing is undone; "-- " stays."""
    out: list[str] = []
    carry: tuple[str, str] | None = None  # (quote prefix, text so far) of an open paragraph
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        prefix, line = raw[:depth], raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffed
        if carry is not None and carry[0] == prefix:
            line = carry[1] + line
        elif carry is not None:
            out.append(carry[0] + (" " if carry[0] else "") + carry[1])
        carry = None
        if line.endswith(" ") and line != "-- ":
            carry = (prefix, line[:-1] if delsp else line)
            continue
        out.append(prefix + (" " if prefix and line else "") + line)
    if carry is not None:
        out.append(carry[0] + (" " if carry[0] else "") + carry[1])
    return "\n".join(out)


def _plain(part: EmailMessage) -> str:
    text = _decode(part)
    if part.get_param("format", "", header="content-type").lower() == "flowed":
        delsp = part.get_param("delsp", "", header="content-type").lower() == "yes"
        text = unflow(text, delsp=delsp)
    return text


def body_text(message: EmailMessage) -> str:
    """The text the sender wrote: the text/plain part, else the HTML part as text."""
    plain = message.get_body(preferencelist=("plain",))
    if plain is not None:
        return _plain(plain)  # type: ignore[arg-type]
    html = message.get_body(preferencelist=("html",))
    if html is not None:
        return html_to_text(_decode(html))  # type: ignore[arg-type]
    if message.get_content_maintype() == "text" or not message.is_multipart():
        if message.get_content_type() not in ("text/plain", "text/html", "text/enriched"):
            raise BodyError("no_text", _("it has no text (only %(type)s).") % {
                "type": message.get_content_type()})
        return _plain(message)
    raise BodyError("no_text", _("it has no text part."))



# -- what the player wrote --------------------------------------------------------------------

# The first line of every mail that invites orders; a reply is cut where its copy begins.
REPLY_MARKERS = {
    "en": "write your orders above this line",
    "fr": "écrivez vos ordres au-dessus de cette ligne",
    "de": "schreiben Sie Ihre Befehle über diese Zeile",
}
# The same line in a message notice, whose reply is a message to the channel.
MESSAGE_MARKERS = {
    "en": "write your message above this line",
    "fr": "écrivez votre message au-dessus de cette ligne",
}
# More lines than this above our mail is not an order sheet (and would be slow to read).
MAX_REPLY_LINES = 2000
# Languages whose attribution lines and signatures mail-parser-reply should know.
REPLY_LANGUAGES = ["en", "fr", "de", "es", "it", "nl"]


def reply_marker(language: str = "en", *, message: bool = False) -> str:
    """The marker line in ``language`` (English when we do not write that language yet); the
    message notices' own with ``message``."""
    markers = MESSAGE_MARKERS if message else REPLY_MARKERS
    words = markers.get(language.split("-")[0].lower(), markers["en"])
    return f"\u2014 {words} \u2014"


def _words(line: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", line.casefold()).split())


_MARKER_WORDS = {_words(words) for words in (*REPLY_MARKERS.values(),
                                              *MESSAGE_MARKERS.values())}


def is_marker(line: str) -> bool:
    """Whether ``line`` is the reply marker (quoted or not, any dashes, any of its languages)."""
    return _words(line) in _MARKER_WORDS


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


# Our own rules, for what mail-parser-reply does not know (checked on tests/.../corpus).
# Sign-offs that phones and web mail put under the text: everything from them on is theirs.
_SIGN_OFF = re.compile(
    r"^\s*(sent from (my |yahoo|mail for|outlook|proton)|sent with proton|sent via|"
    r"get outlook for|envoy\u00e9 (de|depuis|avec|\u00e0 partir)|obtenir outlook|"
    r"t\u00e9l\u00e9chargez outlook|von meinem .*gesendet|gesendet (von|mit|\u00fcber)|"
    r"outlook f\u00fcr (ios|android) (herunterladen|beziehen)|"
    r"-+\s*original message\s*-+|-+\s*message d'origine\s*-+|"
    r"-+\s*urspr\u00fcngliche nachricht\s*-+|_{10,})",
    re.IGNORECASE,
)
# An attribution line, possibly wrapped over two or three lines ("Le dim. 22 nov. 2026 à 04:00,
# Tank Portal <" / "portal@example.test> a écrit :").
_ATTRIBUTION_START = re.compile(r"^\s*(on|le|am|el|il|op)\s.*\d", re.IGNORECASE)
_ATTRIBUTION_END = re.compile(
    r"(wrote|a \u00e9crit|schrieb\b.*|escribi\u00f3|ha scritto|schreef)\s*:\s*$", re.IGNORECASE)


def _library_cut(lines: list[str]) -> list[str]:
    """``lines`` with what mail-parser-reply takes for attribution, headers of an earlier mail
    and signature blanked (same length; the first reply's lines kept where they were)."""
    parsed = ReplyParser(text="\n".join(lines), languages=list(REPLY_LANGUAGES),
                         keep_hyphen_lists=True).read()
    body = next((reply.body for reply in parsed.replies if reply.body.strip()), "")
    wanted = [line.strip() for line in body.split("\n")]
    out, at = [], 0
    for line in lines:
        if at < len(wanted) and line.strip() == wanted[at]:
            out.append(line)
            at += 1
        else:
            out.append("")
    if at < len(wanted):  # the library rewrote a line: trust nothing it said
        return list(lines)
    return out


def _own_cut(lines: list[str]) -> list[str]:
    """Blank (wrapped) attribution lines, and everything from the first sign-off on."""
    out = list(lines)
    for index, line in enumerate(lines):
        if _SIGN_OFF.match(line):
            return out[:index] + [""] * (len(lines) - index)
        if _ATTRIBUTION_START.match(line):
            for end in range(index, min(index + 3, len(lines))):
                if _ATTRIBUTION_END.search(lines[end]):
                    out[index:end + 1] = [""] * (end + 1 - index)
                    break
    return out


def _name_words(name: str) -> set[str]:
    return {word for word in _words(name).split() if len(word) > 1}


def _signature_cut(lines: list[str], name: str) -> list[str]:
    """Blank a signature without a "-- " line, found by the sender's name (as talon does): the
    last paragraph when its first line is the name (an Outlook or Apple Mail signature block),
    or a last line that is only the name or first name ("Alice", "- Alice Martin")."""
    words = _name_words(name)
    if not words:
        return lines
    out = list(lines)
    filled = [index for index, line in enumerate(out) if line.strip()]
    if not filled:
        return out
    last = filled[-1]
    start = last
    while start > 0 and out[start - 1].strip():
        start -= 1
    first = set(_words(out[start]).split())
    if start > 0 and any(out[:start]) and first and first <= words and last - start < 6:
        out[start:last + 1] = [""] * (last + 1 - start)
        return out
    line_words = set(_words(out[last]).split())
    if line_words and line_words <= words and len(filled) > 1:
        out[last] = ""
    return out


def _authored(lines: list[str], name: str = "") -> list[str]:
    """The player's own lines of ``lines`` (others blanked): quotes, then the library, then
    our rules."""
    unquoted = ["" if _quoted(line) else line for line in lines]
    return _signature_cut(_own_cut(_library_cut(unquoted)), name)


def strip_reply(text: str, sender_name: str = "") -> str:
    """The new text of a reply: our own mail, the client's attribution and header block, quoted
    lines and signatures dropped.

    Line numbers are kept (dropped lines inside the text become empty lines; the end is cut) so
    errors point at the line the player sees.
    """
    lines = [line.rstrip() for line in
             text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ").split("\n")]
    marker = next((index for index, line in enumerate(lines) if is_marker(line)), None)
    written = lines[:marker] if marker is not None else lines
    if sum(1 for line in written if line.strip() and not _quoted(line)) > MAX_REPLY_LINES:
        raise BodyError("too_long", _("it has more than %(lines)s lines of text outside the "
                                      "quoted mail; order sheets are much shorter.") % {
            "lines": MAX_REPLY_LINES})
    if marker is None:
        kept = _authored(lines, sender_name)
    else:
        kept = _authored(lines[:marker], sender_name)
        if not any(line.strip() for line in kept) and _quoted(lines[marker]):
            # Bottom-posted: nothing above our quoted mail, the player wrote under it.
            kept = _authored(lines, sender_name)
    kept = [line.rstrip() for line in kept]
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept)
