"""Development's console mail backend: one line per mail, with its links."""

import io

from django.core.mail import EmailMultiAlternatives

from portal.mail.console import SummaryEmailBackend


def test_each_mail_is_one_line_with_its_links_and_no_mime():
    out = io.StringIO()
    backend = SummaryEmailBackend(stream=out)
    mail = EmailMultiAlternatives(
        "Confirm your e-mail address", "Hello,\n\nopen http://127.0.0.1:8000/accounts/confirm-email/"
        "abc123/ to confirm.\nOr http://127.0.0.1:8000/accounts/confirm-email/abc123/ again.",
        to=["alice@example.test"])
    mail.attach_alternative("<p>html <a href='http://x.test/'>x</a></p>", "text/html")
    second = EmailMultiAlternatives("Your move", "No link here", to=["bob@example.test"])
    assert backend.send_messages([mail, second]) == 2
    lines = out.getvalue().splitlines()
    assert lines == [
        'mail to alice@example.test: "Confirm your e-mail address" '
        "http://127.0.0.1:8000/accounts/confirm-email/abc123/",
        'mail to bob@example.test: "Your move" (no links)',
    ]
