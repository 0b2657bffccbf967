"""Checks shared by the tests of mails in their readers' languages: Amélie reads French, Bob
English; each of their mails must read in that language alone."""

from __future__ import annotations

import re

from portal.accounts.services import profile_update
from tests.french import english_in, text_of

FRENCH = re.compile(r"\b(le|la|les|des|une|est|et|vous|votre|vos|bonjour|échéance|partie|ordres)\b",
                    re.IGNORECASE)
# What the test games say themselves (their engines' texts, "Seat 1" for a seat the game does
# not name), and names people chose.
GAME_TEXTS = ["Toy Duel", "Toy Race", "North", "South", "reached 2 points", "reached 1 points",
              "Seat 1", "Seat 2",
              "Duel du jeudi", "Course du soir", "Coupe d'hiver", "Les Chars du Jeudi"]


def make_readers(make_user):
    """Amélie reads French, Bob English (the site's language)."""
    amelie, bob = make_user("amelie"), make_user("bob")
    profile_update(user=amelie, language="fr", reminder_hours="1")
    profile_update(user=bob, language="en-gb", reminder_hours="1")
    return amelie, bob


def allowed(*users) -> list[str]:
    return GAME_TEXTS + [user.username for user in users] + [user.email for user in users]


def french(subject: str, body: str, *users) -> None:
    words = english_in(f"{subject}\n{body}", names=allowed(*users))
    assert not words, (words, subject, body)
    assert FRENCH.search(f"{subject}\n{body}"), (subject, body)


def english(subject: str, body: str, *users) -> None:
    text = f"{subject}\n{body}"
    for piece in allowed(*users):
        text = text.replace(piece, " ")
    assert not FRENCH.search(text), (subject, body)
    assert english_in(body), body


def kinds(rows) -> list[str]:
    return sorted({row.kind for row in rows})


def check_rows(rows, amelie, bob) -> None:
    """Every outbox row to Amélie reads French, every one to Bob English."""
    for row in rows:
        body = f"{row.body_text}\n{text_of(row.body_html)}"
        if row.to == amelie.email:
            french(row.subject, body, amelie, bob)
        else:
            assert row.to == bob.email
            english(row.subject, body, amelie, bob)


