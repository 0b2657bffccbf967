"""The player pages, the privacy page, the profile's new sections and the moderators' signal
pages, read in French: no English left (tests/french.py)."""

from __future__ import annotations

import re

import pytest

from competitions.services.ladders import match_rate
from games.services import match_create, phase_resolve
from portal.accounts.services import profile_update
from portal.signals.detect import signals_scan
from portal.signals.models import ClientTrace, Signal
from portal.signals.services import relationship_declare
from tests.french import english_in, text_of, typography_in
from tests.helpers import client_for, submit

pytestmark = pytest.mark.django_db
NAMES = ["amelie", "bob", "Toy Duel", "Tank Portal", "JSON", "IPv4", "IPv6"]


def _main(html: str) -> str:
    return text_of(html[html.index("<main"):html.index("</main>")])


def test_the_new_pages_have_no_english_left_in_french(make_user, moderator):
    amelie, bob = make_user("amelie"), make_user("bob")
    for user in (amelie, moderator):
        profile_update(user=user, language="fr")
    for winner in (1, 2, 1, 1, 1):
        match = match_create(creator=amelie, game="toy-duel", options={"target": 1},
                             seats=[{"kind": "human", "user": amelie},
                                    {"kind": "human", "user": bob}], hours_per_phase=24)
        submit(match, amelie, 1, 5 if winner == 1 else 1)
        submit(match, bob, 2, 5 if winner == 2 else 1)
        phase_resolve(match_id=match.pk, phase_number=1)
        match_rate(match_id=match.pk)
    relationship_declare(by=amelie, username="bob", kind="household")
    client = client_for(amelie)
    for url in ("/players/amelie/", "/players/bob/", "/privacy/", "/accounts/profile/"):
        response = client.get(url)
        html = response.content.decode()
        assert response.status_code == 200 and '<html lang="fr">' in html, url
        main = _main(re.sub(r'(?s)<section id="reliability".*?</section>', " ", html)
                     if url == "/accounts/profile/" else html)
        assert not english_in(main, names=NAMES), (url, english_in(main, names=NAMES))
        assert not typography_in(main, names=NAMES), (url, typography_in(main, names=NAMES))
    assert "Classement" in client.get("/players/amelie/").content.decode()

    live = match_create(creator=amelie, game="toy-duel", options={},
                        seats=[{"kind": "human", "user": amelie}, {"kind": "human", "user": bob}],
                        hours_per_phase=24)
    for user in (amelie, bob):
        ClientTrace.objects.create(user=user, kind="login", network="203.0.113.0/24",
                                   device="b" * 32, at=live.created_at)
    signals_scan(match_id=live.pk)
    signal = Signal.objects.get()
    staff = client_for(moderator)
    for url in ("/admin/signals/signal/?all=1", f"/admin/signals/signal/{signal.pk}/change/",
                f"/admin/signals/signal/account/{amelie.pk}/"):
        response = staff.get(url)
        html = response.content.decode()
        assert response.status_code == 200, url
        content = text_of(html[html.index('id="content"'):])
        found = [line for line in english_in(content, names=NAMES + ["Toy Duel #"])
                 if "Django" not in line]
        assert not found, (url, found)
