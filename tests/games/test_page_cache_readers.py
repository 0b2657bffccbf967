"""What the match page keeps (games.pagecache: the position in words, the grammar's help, the
order panel, the boards; portal.translations: the looked-up words), and the lobby's lists and
the home page kept for what they show, never cross readers and never go stale.

Each reader of a Final Act match in play (the player whose sheet is sealed, her opponent who
has not sealed, a signed-in spectator, an anonymous one; in English and in French) gets, with
one cache warmed by every other reader's pages, exactly the page and messages panel they get
from an empty cache; and nobody but the author sees a trace of her sealed sheet. Run on both
caches the site uses: the process's local memory (the default) and Redis (``CACHE_URL``).
"""

from __future__ import annotations

import os
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

import engine
from games import pagecache
from games.models import Submission
from games.services import orders_submit, phase_resolve
from tests.french import english_in
from tests.portal.builders import PASSWORD, duel, make_user

pytestmark = pytest.mark.django_db

GAME = engine.get("final-act")
ROUNDS = 2


@pytest.fixture(params=["local memory", "redis"])
def fresh_cache(request, settings):
    """Makes the page cache anew (empty: a key prefix never used) on the backend named by the
    parameter; returns the function that does it."""
    url = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")
    if request.param == "redis" and not url:
        pytest.skip("needs Redis (CACHE_URL)")

    def fresh() -> None:
        name = f"test-pages-{uuid.uuid4().hex}"
        settings.CACHES = {"default": (
            {"BACKEND": "portal.cache.RedisCache", "LOCATION": url, "KEY_PREFIX": name}
            if request.param == "redis" else
            {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": name})}
        pagecache.forget_local()

    fresh()
    yield fresh
    pagecache.forget_local()


@pytest.fixture
def match():
    """A Final Act match in round ``ROUNDS`` (bots' sheets before), alice's sheet sealed,
    bob's not; a few messages, public and private."""
    from portal.chat.services import message_post

    alice, bob = make_user("alice"), make_user("bob")
    make_user("carol")
    created = duel(alice, bob, game="final-act")
    players = {1: alice, 2: bob}
    import random

    rng = random.Random(7)
    while created.state["round"] < ROUNDS:
        for seat, user in players.items():
            orders_submit(match_id=created.pk, seat_number=seat, user=user,
                          phase_number=created.phase_number, source="web",
                          data=GAME.bot_submission(created.state, seat, "random", rng)
                          if created.state["phase"] == "orders"
                          else GAME.default_submission(created.state, seat))
        phase_resolve(match_id=created.pk, phase_number=created.phase_number)
        created.refresh_from_db()
    assert created.state["phase"] == "orders"
    orders_submit(match_id=created.pk, seat_number=1, user=alice, source="web",
                  phase_number=created.phase_number,
                  data=GAME.bot_submission(created.state, 1, "random", rng))
    message_post(match_id=created.pk, user=alice, channel="public", source="web",
                 text="Good luck, commander.")
    message_post(match_id=created.pk, user=bob, channel=[1, 2], source="web",
                 text="A word between us.")
    return created


READERS = [("alice", "en"), ("bob", "en"), ("carol", "en"), (None, "en"),
           ("alice", "fr"), ("bob", "fr"), (None, "fr")]

# What differs between two requests of the same reader whatever the cache: the CSRF token, the
# countdown to the deadline (a minute may pass), the messages poll's state.
VARYING = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), 'name="csrfmiddlewaretoken"'),
    (re.compile(r'"X-CSRFToken": "[^"]*"'), '"X-CSRFToken"'),
    (re.compile(r'<span class="fa-countdown".*?</span>', re.S), "<countdown>"),
    (re.compile(r"\((?:in|dans) [^()]*\)"), "(…)"),
]


def pages(match, reader: str | None, language: str) -> dict[str, str]:
    """The match page and the messages panel it loads on arrival, the lobby and (signed in) the
    home page, as ``reader`` reads them in ``language``."""
    client = Client()
    client.cookies["django_language"] = language
    if reader:
        assert client.login(username=reader, password=PASSWORD)
    got = {}
    for name, url, headers in [
            ("page", reverse("games:match", args=[match.pk]), {}),
            ("messages", reverse("chat:panel", args=[match.pk]), {"HTTP_HX_REQUEST": "true"}),
            ("lobby", reverse("games:lobby"), {}),
            *([("home", reverse("home"), {})] if reader else [])]:
        response = client.get(url, **headers)
        assert response.status_code == 200, (reader, language, name)
        if name == "page":  # (its blocks are kept: every part of its context is plain data)
            assert response.context["page_key"], (reader, language)
        body = response.content.decode()
        for pattern, stand_in in VARYING:
            body = pattern.sub(stand_in, body)
        got[name] = body
    return got


def test_a_reader_gets_from_a_warm_cache_the_page_an_empty_one_gives(fresh_cache, match):
    cold = {}
    for reader, language in READERS:
        fresh_cache()
        cold[reader, language] = pages(match, reader, language)
    # Every reader's own pages differ (else the comparison below would prove nothing).
    bodies = [got["page"] for got in cold.values()]
    assert len(set(bodies)) == len(bodies)

    fresh_cache()  # one cache for all, each reader's pieces made first by the others too
    for order in (READERS, list(reversed(READERS))):
        for reader, language in order:
            warm = pages(match, reader, language)
            for name in ("page", "messages"):
                assert warm[name] == cold[reader, language][name], (reader, language, name)


def test_a_sealed_sheet_and_a_private_message_stay_with_their_readers(fresh_cache, match):
    sheet = Submission.objects.get(phase__match=match, phase__number=match.phase_number,
                                   seat__number=1)
    fresh_cache()
    for reader, language in READERS * 2:  # (the second time round, from the cache)
        got = pages(match, reader, language)
        if reader == "alice":
            assert sheet.receipt in got["page"]
        else:
            assert sheet.receipt not in got["page"], (reader, language)
        seated = reader in ("alice", "bob")
        assert ('data-channel="seats-1-2"' in got["messages"]) is seated, (reader, language)
        for name, body in got.items():
            english = english_in(body, names=[match.title, "alice", "bob", "carol"])
            assert (english == []) is (language == "fr"), (reader, language, name, english)


def test_every_csrf_field_of_a_kept_part_is_the_readers_own(fresh_cache, match):
    """The kept parts (the typed-orders form, the order panel) hold a stand-in for the CSRF
    field, put in per request: two sessions of the same reader each get fields of their own
    token, from the cache as from an empty one."""
    from django.middleware.csrf import _unmask_cipher_token

    for _ in range(2):
        client = Client()
        assert client.login(username="alice", password=PASSWORD)
        body = client.get(reverse("games:match", args=[match.pk])).content.decode()
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        assert 'id="typed-orders"' in body and len(tokens) >= 3
        secret = client.cookies["csrftoken"].value
        assert {_unmask_cipher_token(token) for token in tokens} == {secret}


def test_the_lobby_and_home_show_what_changed_since_they_were_kept(fresh_cache, match,
                                                                  monkeypatch):
    """The lobby's lists and the home page are kept for what they show: a new match, a sheet
    sent, a moved deadline and the passing time each show at once."""
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.utils import timezone

    from games.models import Match

    bob = Client()
    assert bob.login(username="bob", password=PASSWORD)
    fresh_cache()
    home = bob.get(reverse("home")).content.decode()
    assert reverse("games:match", args=[match.pk]) in home.split('id="home-invitations"')[0]
    lobby = bob.get(reverse("games:lobby")).content.decode()
    assert "A new skirmish" not in lobby

    duel(make_user("dave"), game="final-act", title="A new skirmish")
    assert "A new skirmish" in bob.get(reverse("games:lobby")).content.decode()

    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(deadline=now + timedelta(hours=30, minutes=30))
    def home_text() -> str:
        return bob.get(reverse("home")).content.decode().replace("\xa0", " ")

    assert "(in 1 day, 6 hours)" in home_text()
    later = now + timedelta(hours=7)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert "(in 23 hours, 30 minutes)" in home_text()
    monkeypatch.undo()

    orders_submit(match_id=match.pk, seat_number=2, user=User.objects.get(username="bob"),
                  phase_number=match.phase_number, source="web",
                  data=GAME.default_submission(match.state, 2))
    home = bob.get(reverse("home")).content.decode()
    assert reverse("games:match", args=[match.pk]) not in home.split('id="home-invitations"')[0]
