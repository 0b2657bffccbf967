"""Private notes (their author alone ever sees them, on every page, partial and API answer) and
commentary (sealed to its author until the match ends, then shown to all who may see the
match); bad input is a clear 4xx and changes nothing."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games import services
from portal.api.services import api_token_create
from portal.timeline.models import COMMENTARY_MAX, NOTE_MAX, Commentary, Note
from tests.portal.timeline.conftest import note

pytestmark = pytest.mark.django_db

NOTE = "ALICE-PRIVATE-NOTE-0d3e <script>alert(1)</script>"
COMMENTARY = "ALICE-COMMENTARY-6b7a: I bluffed on the left"
HTMX = {"HTTP_HX_REQUEST": "true"}
ROLES = ("anonymous", "spectator", "player", "moderator")


def notebook(match) -> str:
    return reverse("timeline:notebook", args=[match.pk])


def save(world, role, what, text, **extra):
    name = "timeline:note_save" if what == "note" else "timeline:commentary_save"
    return world.client(role).post(reverse(name, args=[world.match.pk]), {"text": text},
                                   **extra)


def pages(world, role, token=None) -> str:
    """Every page, partial and API answer about the match ``role`` may read, in one text."""
    client = world.client(role)
    match = world.match
    urls = [reverse("games:match", args=[match.pk]),
            reverse("games:submission_status", args=[match.pk]),
            reverse("games:history", args=[match.pk]),
            reverse("timeline:timeline", args=[match.pk]),
            notebook(match)]
    texts = []
    for path in urls:
        for headers in ({}, HTMX):
            texts.append(client.get(path, **headers).content.decode())
    if token:
        texts.append(client.get(f"/api/v1/matches/{match.pk}",
                                HTTP_AUTHORIZATION=f"Bearer {token}").content.decode())
    return html.unescape("\n".join(texts))


def finish(world):
    match = world.match
    note(match, world.bob, "b2", 2)
    assert services.phase_resolve(match_id=match.pk, phase_number=2)
    note(match, world.alice, "a3", 3)
    note(match, world.bob, "b3", 3)
    assert services.phase_resolve(match_id=match.pk, phase_number=3)
    match.refresh_from_db()
    assert match.status == "finished"


def test_a_note_is_saved_with_htmx_escaped_and_shown_to_its_author_alone(world):
    response = save(world, "owner", "note", NOTE, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Notes saved." in body and "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;" in body
    assert Note.objects.get(match=world.match, author=world.alice).text == NOTE
    assert NOTE in pages(world, "owner")  # (unescaped: the author reads it back)
    bob_token = api_token_create(user=world.bob, name="bot").token
    for role in ROLES:
        assert "ALICE-PRIVATE-NOTE" not in pages(world, role, bob_token if role == "player"
                                                  else None), role
    finish(world)  # still private once the match is over
    for role in ROLES:
        assert "ALICE-PRIVATE-NOTE" not in pages(world, role), role


def test_without_htmx_a_saved_note_goes_back_to_the_notebook(world):
    response = save(world, "owner", "note", "plain")
    assert response.status_code == 302 and response["Location"] == notebook(world.match)


def test_an_empty_note_deletes_it(world):
    save(world, "owner", "note", NOTE, **HTMX)
    assert save(world, "owner", "note", "   ", **HTMX).status_code == 200
    assert not Note.objects.exists()


@pytest.mark.parametrize("what, limit", [("note", NOTE_MAX), ("commentary", COMMENTARY_MAX)])
def test_a_text_too_long_is_a_400_that_keeps_the_old_one(world, what, limit):
    save(world, "owner", what, "kept", **HTMX)
    response = save(world, "owner", what, "x" * (limit + 1), **HTMX)
    assert response.status_code == 400
    assert "at most" in response.content.decode().lower()  # says what is wrong
    model = Note if what == "note" else Commentary
    assert model.objects.get(author=world.alice).text == "kept"


def test_a_form_without_its_text_is_a_400_that_deletes_nothing(world):
    save(world, "owner", "note", "kept", **HTMX)
    response = world.client("owner").post(reverse("timeline:note_save", args=[world.match.pk]),
                                          {"other": "x"}, **HTMX)
    assert response.status_code == 400 and "The text is missing." in response.content.decode()
    assert Note.objects.get().text == "kept"


@pytest.mark.parametrize("role", ["anonymous", "spectator", "moderator"])
def test_only_a_player_writes_notes_or_commentary(world, role):
    for what in ("note", "commentary"):
        assert save(world, role, what, "mine now", **HTMX).status_code == 403
    assert not Note.objects.exists() and not Commentary.objects.exists()
    # Before the match ends there is nothing in the notebook for them.
    assert world.client(role).get(notebook(world.match)).status_code == 403


def test_a_private_match_notebook_is_a_404_to_outsiders(world):
    world.match.is_public = False
    world.match.save(update_fields=["is_public"])
    assert world.client("spectator").get(notebook(world.match)).status_code == 404
    assert save(world, "spectator", "note", "x").status_code == 404


def test_commentary_is_sealed_until_the_match_ends_then_shown_to_all(world):
    assert save(world, "owner", "commentary", COMMENTARY, **HTMX).status_code == 200
    assert COMMENTARY in pages(world, "owner")
    for role in ROLES:
        assert "ALICE-COMMENTARY" not in pages(world, role), role
    finish(world)
    for role in ("owner", *ROLES):
        response = world.client(role).get(notebook(world.match))
        assert response.status_code == 200, role
        assert COMMENTARY in html.unescape(response.content.decode()), role
        assert "Left (alice)" in html.unescape(response.content.decode())
    # ... and it no longer changes.
    response = save(world, "owner", "commentary", "rewritten after the fact", **HTMX)
    assert response.status_code == 409
    assert Commentary.objects.get().text == COMMENTARY


def test_the_notebook_is_in_french(world):
    from portal.accounts.models import Profile

    Profile.objects.update_or_create(user=world.alice, defaults={"language": "fr"})
    text = html.unescape(world.client("owner").get(notebook(world.match)).content.decode())
    assert "Vos notes privées" in text
