"""Reading emails (quotes, signatures, HTML, loops) and the signed reply token."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from portal.mail import bodies
from portal.mail.tokens import (
    BadToken,
    reply_address,
    token_in_address,
    token_make,
    token_read,
)


def test_quotes_wrote_lines_and_signatures_are_blanked_keeping_line_numbers():
    text = ("1A F\n\nC stay\nOn Sun, 22 Nov 2026 at 04:00, Tank Portal <\n"
            "portal@example.test> wrote:\n> 1A B\n> more\n-- \nAlice\n1A B")
    assert bodies.strip_reply(text).split("\n") == ["1A F", "", "C stay"]
    assert bodies.strip_reply("x\nOn Mon, Bob wrote:\n> old").split("\n") == ["x"]
    assert bodies.strip_reply("1A F\n-----Original Message-----\nFrom: x") == "1A F"
    assert bodies.strip_reply("> only a quote\n> and more\n") == ""


def test_html_becomes_text_without_quoted_blocks():
    html = ("<html><head><style>p{}</style></head><body><div>1A F</div><p>C&nbsp;stay<br>"
            "2 F</p><blockquote>1A B</blockquote></body></html>")
    # Blocks next to each other are one line break, as they look (Outlook's paragraphs).
    assert bodies.html_to_text(html).split("\n") == ["1A F", "C stay", "2 F"]


def message(**headers) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = headers.pop("From", "alice@example.test")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content("hi")
    return msg


@pytest.mark.parametrize("headers", [
    {"Auto_Submitted": "auto-generated"}, {"Precedence": "list"}, {"X_Autoreply": "yes"},
    {"List_Id": "<x.example.test>"}, {"From": "MAILER-DAEMON@example.test"},
    {"Return_Path": "<>"},
])
def test_loops_are_recognised(headers):
    assert bodies.loop_reason(message(**headers), {"portal@example.test"})


def test_a_person_writing_is_not_a_loop():
    assert bodies.loop_reason(message(Auto_Submitted="no"), {"portal@example.test"}) is None
    assert bodies.loop_reason(message(From="portal@example.test"), {"portal@example.test"})


def test_a_token_names_match_seat_phase_and_player_and_cannot_be_altered():
    token = token_make(match_id=12, seat_number=2, phase_number=7, user_id=40)
    target = token_read(token)
    assert (target.match_id, target.seat_number, target.phase_number, target.user_id) == (
        12, 2, 7, 40)
    for altered in ("c-1-7-14", "c-2-7-15", "d-2-7-14"):
        with pytest.raises(BadToken):
            token_read(token.replace("c-2-7-14", altered))
    with pytest.raises(BadToken):
        token_read("c-2-7-14")
    assert token != token_make(match_id=12, seat_number=2, phase_number=7, user_id=41)


def test_a_token_survives_a_mail_server_that_changes_its_case():
    token = token_make(match_id=12, seat_number=2, phase_number=7, user_id=40)
    assert token == token.lower()
    assert token_read(token.upper()).user_id == 40


def test_a_token_signed_with_a_retired_secret_key_still_reads(settings):
    token = token_make(match_id=3, seat_number=1, phase_number=2, user_id=5)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the new key of the site, long enough to be a key 0123456789"
    assert token_read(token).match_id == 3
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(BadToken, match="signature"):
        token_read(token)


def test_the_reply_address_carries_the_token(settings):
    settings.MAIL_REPLY_DOMAIN = "play.example.test"
    address = reply_address(match_id=3, seat_number=1, phase_number=2, user_id=9)
    assert token_read(token_in_address(address)).match_id == 3
    big = reply_address(match_id=2_000_000_000, seat_number=100, phase_number=1_000_000,
                        user_id=2_000_000_000)
    assert len(big.split("@")[0]) <= 64  # an email local part's limit (RFC 5321)
    assert token_read(token_in_address(big)).phase_number == 1_000_000
    assert token_in_address("play+abc@elsewhere.test") is None
    assert token_in_address("someone@play.example.test") is None


@pytest.mark.parametrize("line", [
    "— write your orders above this line —", "> — write your orders above this line —",
    ">> -- Write your orders above this line --", "? write your orders above this line ?",
    "— écrivez vos ordres au-dessus de cette ligne —",
])
def test_the_reply_marker_is_found_quoted_or_not_whatever_the_dashes(line):
    assert bodies.is_marker(line)
    text = f"1A F\n\n{line}\nHello alice\n1A B"
    assert bodies.strip_reply(text) == "1A F"


def test_the_marker_is_written_in_the_readers_language():
    assert bodies.reply_marker("fr-fr") == "— écrivez vos ordres au-dessus de cette ligne —"
    assert bodies.reply_marker("xx") == bodies.reply_marker("en")


def test_a_bottom_posted_reply_is_read_below_the_quote_keeping_line_numbers():
    text = ("On Sun, 22 Nov 2026, Tank Portal wrote:\n> — write your orders above this line —\n"
            "> Hello alice\n\n1A F\nC F\n\n-- \nAlice")
    assert bodies.strip_reply(text).split("\n") == ["", "", "", "", "1A F", "C F"]


def test_format_flowed_is_unwrapped_as_the_reader_sees_it():
    flowed = "1A F\nthis is one \nline\n> quoted \n> too\n-- \nsig"
    assert bodies.unflow(flowed) == "1A F\nthis is one line\n> quoted too\n-- \nsig"
    assert bodies.unflow("a \nb", delsp=True) == "ab"


def test_a_signature_without_separator_is_found_by_the_senders_name():
    text = "1A F\nC F\n\nAlice Martin\nTank club Lyon"
    assert bodies.strip_reply(text, "Alice Martin") == "1A F\nC F"
    assert bodies.strip_reply("1A F\nAlice", "Alice Martin") == "1A F"
    assert bodies.strip_reply(text, "") == text  # no name: nothing to recognise


def test_a_reply_too_long_to_be_an_order_sheet_is_refused_clearly():
    with pytest.raises(bodies.BodyError) as refused:
        bodies.strip_reply("1A F\n" * (bodies.MAX_REPLY_LINES + 1))
    assert refused.value.code == "too_long" and "lines" in refused.value.reason
    long_quote = "1A F\n\n> " + "\n> ".join(["old"] * 5000)
    assert bodies.strip_reply(long_quote) == "1A F"  # a long quote alone is fine
