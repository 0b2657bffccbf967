"""How common mail clients build a reply to our "your move" mail, as raw RFC 822 bytes.

Each function reproduces one client's reply the way that client sends it: its MIME structure,
charset and transfer encoding, where it puts the new text (top or bottom), its attribution line
or header block (in the client's language, wrapped where the client wraps it), its signature
and sign-off lines, and the HTML class names and ids it writes (``gmail_quote``,
``divRplyFwdMsg``, ``moz-cite-prefix``, ``yahoo_quoted``, ``protonmail_quote``, ``qt``, ...).
``build.py`` runs them on our real mails and writes the ``.eml`` files beside this module;
``test_reply_corpus.py`` feeds those files back to the inbound path.

Headers carry two placeholders that the test swaps for the match's real addresses:
``PLAYER`` (the From address) and ``REPLY_TO`` (our play+token address).
"""

from __future__ import annotations

import base64
import html
import quopri
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

PLAYER = "player@corpus.invalid"
REPLY_TO = "reply-to@corpus.invalid"
OUR_ADDRESS = "notifications@play.tank-portal.example.org"
OUR = f"Tank Portal <{OUR_ADDRESS}>"  # long enough that Gmail wraps its attribution line


@dataclass
class Original:
    """Our mail as the player received it, and what the player types."""

    text: str
    html: str
    subject: str
    message_id: str
    orders: str
    name: str = "Alice Martin"


def _encode(body: str, charset: str, cte: str) -> bytes:
    data = body.replace("\r\n", "\n").replace("\n", "\r\n").encode(charset, errors="replace")
    if cte == "quoted-printable":
        return quopri.encodestring(data).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if cte == "base64":
        return base64.encodebytes(data).replace(b"\n", b"\r\n")
    return data


def part(body: str, subtype: str = "plain", charset: str = "utf-8", cte: str = "quoted-printable",
         flowed: bool = False) -> bytes:
    params = f"; charset=\"{charset}\"" + ("; format=flowed" if flowed else "")
    head = f"Content-Type: text/{subtype}{params}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n"
    return head.encode() + _encode(body, charset, cte)


def alternative(plain: bytes, rich: bytes, boundary: str) -> bytes:
    return (f"Content-Type: multipart/alternative; boundary=\"{boundary}\"\r\n\r\n"
            f"--{boundary}\r\n").encode() + plain + f"\r\n--{boundary}\r\n".encode() + rich + \
        f"\r\n--{boundary}--\r\n".encode()


def message(o: Original, body: bytes, *, mailer: str, message_id: str, date: str,
            subject_prefix: str = "Re: ", extra: str = "") -> bytes:
    head = (f"From: {o.name} <{PLAYER}>\r\nTo: {REPLY_TO}\r\n"
            f"Subject: {subject_prefix}{o.subject}\r\nDate: {date}\r\n"
            f"Message-ID: <{message_id}>\r\nIn-Reply-To: {o.message_id}\r\n"
            f"References: {o.message_id}\r\nMIME-Version: 1.0\r\n{mailer}{extra}")
    return head.encode() + body


def quote(text: str, prefix: str = "> ", empty: str = ">") -> str:
    return "\n".join(prefix + line if line.strip() else empty for line in text.split("\n"))


def html_lines(text: str) -> str:
    return "".join(f"<div>{html.escape(line) or '<br>'}</div>" for line in text.split("\n"))


def _inner(page: str) -> str:
    """The body of our HTML mail, as clients paste it into their quote."""
    start = page.find(">", page.lower().find("<body")) + 1
    end = page.lower().rfind("</body>")
    return page[start:end if end > 0 else None]


# -- Gmail --------------------------------------------------------------------------------------

GMAIL_ATTR = {
    "en": f"On Sun, 22 Nov 2026 at 04:00, {OUR} wrote:",
    "fr": f"Le dim. 22 nov. 2026 à 04:00, {OUR} a écrit :",
    "de": f"Am So., 22. Nov. 2026 um 04:00 Uhr schrieb {OUR}:",
}


def gmail(o: Original, language: str, device: str = "web", bottom: bool = False) -> bytes:
    attr = GMAIL_ATTR[language]
    # Gmail wraps the plain-text attribution at 78 characters, like any other line it writes.
    wrapped = "\n".join(textwrap.wrap(attr, 78, break_on_hyphens=False))
    if bottom:
        plain = f"{wrapped}\n\n{quote(o.text)}\n\n{o.orders}\n"
    else:
        plain = f"{o.orders}\n\n{wrapped}\n\n{quote(o.text)}\n"
    rich = (f'<div dir="ltr">{html_lines(o.orders)}</div><br><div class="gmail_quote">'
            f'<div dir="ltr" class="gmail_attr">{html.escape(attr)}<br></div>'
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px '
            f'solid rgb(204,204,204);padding-left:1ex">{_inner(o.html)}</blockquote></div>')
    cte = "base64" if device == "android" else "quoted-printable"
    body = alternative(part(plain, cte=cte), part(rich, "html", cte=cte),
                       f"000000000000gmail{device}{language}")
    return message(o, body, mailer="", message_id=f"CAGmail{device}{language}@mail.gmail.com",
                   date="Sun, 22 Nov 2026 05:12:09 +0100")


# -- Outlook ------------------------------------------------------------------------------------

OUTLOOK_BLOCK = {
    "en": ("From", "Sent", "To", "Subject", "Sunday, November 22, 2026 4:00 AM"),
    "fr": ("De", "Envoyé", "À", "Objet", "dimanche 22 novembre 2026 04:00"),
}


def _outlook_block(o: Original, language: str, separator: str) -> str:
    f, s, t, subj, when = OUTLOOK_BLOCK[language]
    colon = " :" if language == "fr" else ":"
    lines = [separator] if separator else []
    lines += [f"{f}{colon} {OUR}", f"{s}{colon} {when}",
              f"{t}{colon} {o.name} <alice@example.test>", f"{subj}{colon} {o.subject}"]
    return "\n".join(lines)


def _outlook_html_block(o: Original, language: str, web: bool) -> str:
    f, s, t, subj, when = OUTLOOK_BLOCK[language]
    colon = " :" if language == "fr" else ":"
    rows = [(f, f"{html.escape(OUR)}"), (s, when),
            (t, f"{html.escape(o.name)} &lt;alice@example.test&gt;"),
            (subj, html.escape(o.subject))]
    if web:  # Outlook on the web and the new Outlook
        inner = "<br>".join(f"<b>{k}{colon}</b> {v}" for k, v in rows)
        return ('<div id="appendonsend"></div><hr style="display:inline-block;width:98%" '
                'tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, '
                f'sans-serif" style="font-size:11pt" color="#000000">{inner}</font>'
                "<div>&nbsp;</div></div>")
    inner = "<br>\n".join(f'<b><span lang="{language.upper()}">{k}{colon}</span></b>'
                          f'<span lang="{language.upper()}"> {v}</span>' for k, v in rows)
    return ('<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm '
            f'0cm"><p class="MsoNormal">{inner}<o:p></o:p></p></div></div>'
            '<p class="MsoNormal"><o:p>&nbsp;</o:p></p>')


def outlook(o: Original, language: str, kind: str = "desktop", html_only: bool = False,
            charset: str = "utf-8") -> bytes:
    signature = f"{o.name}\nTank club Lyon" if kind == "desktop" else ""
    separator = "________________________________" if kind in ("web", "mobile") else ""
    sign_off = "Get Outlook for iOS<https://aka.ms/o0ukef>" if kind == "mobile" else ""
    top = "\n\n".join(x for x in (o.orders, signature, sign_off) if x)
    plain = f"{top}\n\n{_outlook_block(o, language, separator)}\n\n{o.text}\n"
    web = kind != "desktop"
    word = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta '
            'http-equiv="Content-Type" content="text/html; charset=' + charset + '">'
            '<style><!-- p.MsoNormal {margin:0cm;} --></style></head>')
    top_html = "".join(f'<p class="MsoNormal">{html.escape(line) or "&nbsp;"}<o:p></o:p></p>'
                       for line in top.split("\n"))
    if web:
        top_html = (f'<div class="elementToProof" style="font-family: Aptos, sans-serif; '
                    f'font-size: 12pt;">{html_lines(top)}</div>')
    rich = (f'{word}<body lang="{language.upper()}" link="#0563C1"><div class="WordSection1">'
            f'{top_html}{_outlook_html_block(o, language, web)}{_inner(o.html)}</div></body>'
            "</html>")
    cte = "base64" if kind == "mobile" else "quoted-printable"
    if html_only:
        body = part(rich, "html", charset=charset, cte=cte)
    else:
        body = alternative(part(plain, charset=charset, cte=cte),
                           part(rich, "html", charset=charset, cte=cte),
                           f"_000_outlook{kind}{language}_")
    mailer = ("X-Mailer: Microsoft Outlook 16.0\r\nThread-Index: AdtcQ1a2b3c4d5e6\r\n"
              if kind == "desktop" else "X-MS-Has-Attach: \r\nX-MS-TNEF-Correlator: \r\n")
    if language == "fr":
        mailer += "Content-Language: fr-FR\r\n"
    return message(o, body, mailer=mailer, date="Sun, 22 Nov 2026 04:30:00 +0000",
                   message_id=f"AM0PR01MB{kind}{language}{int(html_only)}@outlook.com",
                   subject_prefix="RE: " if language == "en" else "RE : ")


# -- Apple --------------------------------------------------------------------------------------

APPLE_ATTR = {
    "en": f"On 22 Nov 2026, at 04:00, {OUR} wrote:",
    "fr": f"Le 22 nov. 2026 à 04:00, {OUR} a écrit :",
    "de": f"Am 22.11.2026 um 04:00 schrieb {OUR}:",
}
IPHONE = {"en": "Sent from my iPhone", "fr": "Envoyé de mon iPhone",
          "de": "Von meinem iPhone gesendet"}


def apple_mail(o: Original, language: str = "en") -> bytes:
    """macOS Mail with a signature: plain is quoted-printable, the HTML quote a cite block."""
    signature = f"{o.name}\nTank club Lyon · +33 6 00 00 00 00"
    plain = f"{o.orders}\n\n{signature}\n\n{APPLE_ATTR[language]}\n\n{quote(o.text)}\n"
    rich = (f'<html><head></head><body style="overflow-wrap: break-word;">{html_lines(o.orders)}'
            f'<br id="lineBreakAtBeginningOfSignature"><div dir="ltr">{html_lines(signature)}'
            f'</div><div><br><blockquote type="cite"><div>{html.escape(APPLE_ATTR[language])}'
            f'</div><br><div>{_inner(o.html)}</div></blockquote></div></body></html>')
    body = alternative(part(plain), part(rich, "html"), "Apple-Mail=_5B1C3D2E-0F4A")
    return message(o, body, mailer="X-Mailer: Apple Mail (2.3774.200.91.1.1)\r\n",
                   message_id=f"A1B2C3D4-apple-{language}@example.test",
                   date="Sun, 22 Nov 2026 05:01:44 +0100")


def ios_mail(o: Original, language: str = "en") -> bytes:
    """iOS Mail: "Sent from my iPhone" above the quote, the attribution quoted too."""
    plain = (f"{o.orders}\n\n{IPHONE[language]}\n\n> {APPLE_ATTR[language]}\n>\n"
             f"{quote(o.text)}\n")
    rich = (f'<html><head></head><body dir="auto">{html_lines(o.orders)}<div dir="ltr"><br>'
            f'<div id="AppleMailSignature">{IPHONE[language]}</div></div><div dir="ltr"><br>'
            f'<blockquote type="cite">{html.escape(APPLE_ATTR[language])}<br><br></blockquote>'
            f'</div><blockquote type="cite"><div dir="ltr">{_inner(o.html)}</div></blockquote>'
            "</body></html>")
    body = alternative(part(plain), part(rich, "html"), "Apple-Mail-ios-" + language)
    return message(o, body, mailer="X-Mailer: iPhone Mail (22B91)\r\n",
                   message_id=f"IOS-{language}-0001@example.test",
                   date="Sun, 22 Nov 2026 05:03:00 +0100")


# -- Thunderbird, Yahoo, Proton Mail, Fastmail ---------------------------------------------------

def thunderbird(o: Original, language: str = "en", bottom: bool = False,
                charset: str = "utf-8") -> bytes:
    """Thunderbird: format=flowed plain text (long lines soft-broken at 72), 8bit."""
    attr = {"en": "On 22/11/2026 04:00, Tank Portal wrote:",
            "fr": "Le 22/11/2026 à 04:00, Tank Portal a écrit :"}[language]
    signature = f"-- \n{o.name}"
    quoted = quote(o.text, "> ", ">")
    if bottom:
        text = f"{attr}\n{quoted}\n\n{o.orders}\n\n{signature}\n"
    else:
        text = f"{o.orders}\n\n{signature}\n\n{attr}\n{quoted}\n"
    flowed = []
    for line in text.split("\n"):
        if line == "-- ":
            flowed.append(line)
            continue
        depth = len(line) - len(line.lstrip(">"))
        prefix, rest = line[:depth], line[depth:]
        if depth:  # quoted: ">" marks, one space, then the text (each wrapped line the same)
            prefix, rest = ">" * depth + " ", rest[1:] if rest.startswith(" ") else rest
            depth += 1
        chunks = textwrap.wrap(rest, 72 - depth, drop_whitespace=False) or [""]
        for index, chunk in enumerate(chunks):
            soft = index < len(chunks) - 1
            chunk = chunk if soft else chunk.rstrip()
            flowed.append(prefix + chunk + (" " if soft and not chunk.endswith(" ") else ""))
    return message(o, part("\n".join(flowed), charset=charset, cte="8bit", flowed=True),
                   mailer="User-Agent: Mozilla Thunderbird\r\nContent-Language: "
                          f"{language}\r\n",
                   message_id=f"tb-{language}-{int(bottom)}-{charset}@example.test",
                   date="Sun, 22 Nov 2026 06:00:00 +0100")


def yahoo(o: Original) -> bytes:
    """Yahoo Mail: the original copied below, without any ">"."""
    attr = ("On Sunday, November 22, 2026 at 04:00:00 AM GMT+1, Tank Portal "
            "<notifications@play.tank-portal.example.org> wrote:")
    plain = f"{o.orders}\n\nSent from Yahoo Mail for iPhone\n\n\n    {attr}  \n\n{o.text}\n"
    rich = (f'<html><head></head><body><div class="ydp1a2b3c4dyahoo-style-wrap" style="font-'
            f'family: Helvetica Neue, Helvetica, Arial, sans-serif;">{html_lines(o.orders)}'
            '<div><br></div><div id="ydp1a2b3c4dyahoo_quoted_1234" class="ydp1a2b3c4dyahoo_'
            'quoted"><div style="font-family:\'Helvetica Neue\', Helvetica, Arial, sans-serif;'
            f'font-size:13px;color:#26282a;"><div>{html.escape(attr)}</div><div><br></div>'
            f'<div><br></div><div><div dir="ltr">{_inner(o.html)}</div></div></div></div></div>'
            "</body></html>")
    body = alternative(part(plain), part(rich, "html"),
                       "----=_Part_1234567_89012345.1700000000000")
    return message(o, body, mailer="X-Mailer: WebService/1.1.22876 YMailNorrin\r\n",
                   message_id="1234567890.9876543.1700000000000@mail.yahoo.com",
                   date="Sun, 22 Nov 2026 04:40:00 +0000")


def proton(o: Original) -> bytes:
    attr = (f"On Sunday, November 22nd, 2026 at 04:00, {OUR} "
            "wrote:")
    plain = (f"{o.orders}\n\nSent with Proton Mail secure email.\n\n{attr}\n\n"
             f"{quote(o.text)}\n")
    rich = (f'<div style="font-family: Arial, sans-serif; font-size: 14px;">'
            f'{html_lines(o.orders)}</div><div class="protonmail_signature_block">'
            '<div class="protonmail_signature_block-proton">Sent with <a target="_blank" '
            'href="https://proton.me/mail/home">Proton Mail</a> secure email.</div></div>'
            f'<div class="protonmail_quote">{html.escape(attr)}<br><br><blockquote '
            f'class="protonmail_quote" type="cite">{_inner(o.html)}</blockquote><br></div>')
    body = alternative(part(plain, cte="base64"), part(rich, "html", cte="base64"),
                       "b1_protonmail0123456789")
    return message(o, body, mailer="", message_id="proton-AbCdEf==@proton.me",
                   date="Sun, 22 Nov 2026 04:50:00 +0000")


def fastmail(o: Original) -> bytes:
    attr = "On Sun, 22 Nov 2026, at 04:00, Tank Portal wrote:"
    plain = f"{o.orders}\n\n{attr}\n{quote(o.text)}\n"
    rich = (f'<!DOCTYPE html><html><head><title></title></head><body>{html_lines(o.orders)}'
            f'<div><br></div><div>{html.escape(attr)}</div><blockquote type="cite" id="qt">'
            f"{_inner(o.html)}</blockquote><div><br></div></body></html>")
    body = alternative(part(plain), part(rich, "html"), "8f2c1d0e9b7a4c3d")
    return message(o, body, mailer="User-Agent: Cyrus-JMAP/3.13.0\r\n",
                   message_id="fastmail-0001@app.fastmail.com",
                   date="Sun, 22 Nov 2026 05:05:00 +0100")


# name -> how that client replies; every one is built for each game.
CLIENTS: dict[str, Callable[[Original], bytes]] = {
    "gmail-web-en": lambda o: gmail(o, "en"),
    "gmail-web-fr": lambda o: gmail(o, "fr"),
    "gmail-web-de": lambda o: gmail(o, "de"),
    "gmail-android-en": lambda o: gmail(o, "en", "android"),
    "gmail-android-fr": lambda o: gmail(o, "fr", "android"),
    "gmail-ios-de": lambda o: gmail(o, "de", "ios"),
    "gmail-web-en-bottom-posted": lambda o: gmail(o, "en", bottom=True),
    "outlook-desktop-en": lambda o: outlook(o, "en", charset="windows-1252"),
    "outlook-desktop-fr": lambda o: outlook(o, "fr", charset="windows-1252"),
    "outlook-desktop-en-html-only": lambda o: outlook(o, "en", html_only=True),
    "outlook-web-en": lambda o: outlook(o, "en", "web"),
    "outlook-web-fr-html-only": lambda o: outlook(o, "fr", "web", html_only=True),
    "outlook-mobile-en": lambda o: outlook(o, "en", "mobile"),
    "outlook-mobile-fr": lambda o: outlook(o, "fr", "mobile"),
    "apple-mail-en-signature": lambda o: apple_mail(o, "en"),
    "apple-mail-fr-signature": lambda o: apple_mail(o, "fr"),
    "ios-mail-en": lambda o: ios_mail(o, "en"),
    "ios-mail-fr": lambda o: ios_mail(o, "fr"),
    "ios-mail-de": lambda o: ios_mail(o, "de"),
    "thunderbird-en-flowed": lambda o: thunderbird(o, "en"),
    "thunderbird-en-bottom-posted": lambda o: thunderbird(o, "en", bottom=True),
    "thunderbird-fr-iso-8859-1": lambda o: thunderbird(o, "fr", charset="iso-8859-1"),
    "yahoo-en": yahoo,
    "proton-en": proton,
    "fastmail-en": fastmail,
}
