"""A match's sealed sheet is in none of what it shares: its embed, its link preview (tags and
picture) and its feed, whoever asks (the sheet's author included: a shared page is the same
for everybody). Once the phase resolves and the notes are revealed, the feed tells them: so
the checks can fail."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

import tests.portal.notegame  # noqa: F401  (registers Sealed Notes: sheets of free text)
from games.models import Submission
from games.services import phase_resolve
from portal.sharing import preview
from tests.helpers import client_for, submit
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db

MARKER = "SHARED-SEALED-MARKER-2f81"


def test_nothing_sealed_is_in_the_embed_preview_or_feed_of_a_match():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="sealed-notes", title="Notes")
    before = preview.draw(match)
    submit(match, alice, 1, text=MARKER)
    sheet = Submission.objects.get(phase__match=match, seat__number=1)
    secrets = [MARKER, sheet.receipt, sheet.salt]
    urls = [reverse("sharing:embed", args=[match.pk]),
            reverse("feeds:match", args=[match.pk]),
            reverse("games:match", args=[match.pk])]  # (its head: the preview tags)
    for who in (None, bob, alice):
        for url in urls:
            response = client_for(who).get(url)
            assert response.status_code == 200
            text = response.content.decode()
            if url == urls[-1]:
                text = text.split("</head>")[0]
            assert not [s for s in secrets if s in text], (url, who)
    # The picture is the spectator's board: the same pixels as before the sheet was sealed.
    cache.clear()
    picture = client_for(alice).get(reverse("sharing:preview_image", args=[match.pk])).content
    assert picture == before
    # Resolved, the notes are told: the feed now has the marker.
    submit(match, bob, 2, text="bob's note")
    phase_resolve(match_id=match.pk, phase_number=1)
    feed = client_for().get(reverse("feeds:match", args=[match.pk])).content.decode()
    assert MARKER in feed
