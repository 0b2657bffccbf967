"""``portal.mail.wire`` writes the bytes Django's builder (``EmailMultiAlternatives`` and the
stdlib's generator) would write, or declines; and the mail channel sends those bytes over SMTP."""

from __future__ import annotations

import re

import pytest
from django.core.mail import BadHeaderError

from portal.mail.services.outbox import OutboxMessage
from portal.mail.wire import message_bytes

LONG_URL = "<https://portal.example.test/mail/unsubscribe/" + "u" * 90 + ">"
FRENCH = ("Bonjour Zoé,\n\nÀ vous de jouer : la partie « Blindés n° 3 » attend vos ordres "
          "avant vendredi 27 novembre à 18 h.\n— Le portail\n")


def django_bytes(*, subject, from_email, to, reply_to, headers, text, html=""):
    mail = OutboxMessage(subject=subject, body=text, from_email=from_email, to=[to],
                         reply_to=[reply_to] if reply_to else None, headers=headers)
    if html:
        mail.attach_alternative(html, "text/html")
    return mail.message().as_bytes(linesep="\r\n")


def same_bytes(ours: bytes, theirs: bytes) -> None:
    """Equal but for the multipart boundary and the Date (each made afresh)."""
    def normal(data: bytes) -> bytes:
        data = re.sub(rb"={15}\d{19}==", b"BOUNDARY", data)
        return re.sub(rb"Date: [^\r]+", b"Date: D", data)
    assert normal(ours) == normal(theirs)


CASES = {
    "english, both bodies": {
        "subject": "Your move: Email duel 1, orders 1",
        "text": "Your orders for Email duel 1 are due.\n\nhttps://x.example.test/m/1/\n",
        "html": "<p>Your orders for <strong>Email duel 1</strong> are due.</p>\n"},
    "french, both bodies": {
        "subject": "À vous de jouer : « Blindés n° 3 », ordres du tour 2",
        "text": FRENCH, "html": "<p>" + FRENCH + "</p>"},
    "text only": {"subject": "Receipt", "text": "Accepted.\n"},
    "french text only": {"subject": "Reçu", "text": FRENCH},
    "long subject": {"subject": "A long subject " * 8, "text": "x\n", "html": "<p>x</p>"},
    "awkward subjects": {"subject": " padded  twice\tand tabbed ", "text": "x\n"},
    "CRLF bodies": {"subject": "s", "text": "one\r\ntwo\r\n", "html": "<p>\r\n</p>"},
    "no final newline": {"subject": "s", "text": "no newline", "html": "<p>x</p>"},
    "empty bodies": {"subject": "s", "text": ""},
    "long line 998": {"subject": "s", "text": "a" * 998 + "\n"},
    "named addresses": {"subject": "s", "text": "x\n", "from_email": "Zoé's Portal <p@x.test>",
                        "to": "Zoé Ünal <z@example.test>", "reply_to": "reply+tok@x.test"},
    "non-ASCII extra header": {"subject": "s", "text": "x\n",
                               "headers": {"X-Club": "Les Blindés de l'Aube"}},
    "date given": {"subject": "s", "text": "x\n",
                   "headers": {"Date": "Sun, 22 Nov 2026 04:00:00 -0000"}},
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_wire_writes_the_bytes_djangos_builder_writes(case):
    spec = {"from_email": "Tank Portal <portal@example.test>", "to": "p@example.test",
            "reply_to": "", "html": "", **CASES[case]}
    spec["headers"] = {"Auto-Submitted": "auto-generated", "List-Unsubscribe": LONG_URL,
                       "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                       **spec.get("headers", {}), "Message-ID": "<outbox-1.abc@example.test>"}
    ours = message_bytes(**spec)
    assert ours is not None
    same_bytes(ours, django_bytes(**spec))


@pytest.mark.parametrize("text", [
    "a" * 999 + "\n",  # Django sends it as quoted-printable
    "lone\rcarriage return",
    "form\x0cfeed",
])
def test_the_wire_declines_what_django_encodes_its_own_way(text):
    spec = {"subject": "s", "from_email": "p@x.test", "to": "t@x.test", "reply_to": "",
            "headers": {"Message-ID": "<m@x>"}, "text": text}
    assert message_bytes(**spec) is None
    assert django_bytes(**spec)  # which the channel then uses


def test_the_wire_refuses_a_header_with_a_line_break_as_django_does():
    spec = {"subject": "hi\r\nBcc: victim@x.test", "from_email": "p@x.test", "to": "t@x.test",
            "reply_to": "", "headers": {"Message-ID": "<m@x>"}, "text": "x\n"}
    with pytest.raises(BadHeaderError):
        message_bytes(**spec)
    with pytest.raises(BadHeaderError):
        django_bytes(**spec)


@pytest.mark.parametrize("address", [
    "p@example.test", "first.last+tag@sub.example.test", "Tank Portal <portal@example.test>",
    "Zoé Ünal <z@example.test>", "o'brien@example.test", "a@b",
])
def test_envelope_addresses_are_what_djangos_backend_gives_sendmail(address):
    from django.core.mail.message import sanitize_address

    from portal.mail.services.outbox import _envelope

    assert _envelope(address) == sanitize_address(address, "utf-8")
