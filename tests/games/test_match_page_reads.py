"""The match page's reads (issue 43): what the match alone decides (its seats, phases, votes,
moderation log and the reader's sheets entered ahead) in one round trip on PostgreSQL; the
sheets-ahead read only where the game offers conditions; the messages panel's channels,
unread counts, messages and permission as a reader may see them; one CSRF token a response."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from dbops.bulk import readable
from games import services
from portal.chat import services as chat
from portal.chat.models import Message
from tests.helpers import client_for, play_round
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db

ON_POSTGRES = connection.vendor == "postgresql"


@pytest.fixture
def final_act(make_user):  # noqa: F811
    ann, ben = make_user("ann"), make_user("ben")
    match = services.match_create(creator=ann, game="final-act", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    match.players = {1: ann, 2: ben}
    play_round(match)
    return match


def page_queries(client: Client, match) -> list[str]:
    """The page's SQL, the second time it is read: each statement prepared in the session
    the first time (``games.prepared``'s ``server_side``) written out as what it runs."""
    client.get(reverse("games:match", args=[match.pk]))
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(reverse("games:match", args=[match.pk]))
    assert answer.status_code == 200
    sent = [query["sql"] for query in captured.captured_queries]
    assert not any("PREPARE" in sql for sql in sent)
    return [readable(sql) for sql in sent]


@pytest.mark.skipif(not ON_POSTGRES, reason="one round trip: PostgreSQL's (run_together)")
def test_the_page_reads_what_the_match_decides_in_one_round_trip(final_act):
    queries = page_queries(client_for(final_act.players[1]), final_act)
    together = [sql for sql in queries if '"games_seat"' in sql and '"games_matchvote"' in sql]
    assert len(together) == 1
    for table in ("games_phase", "games_moderationentry", "games_conditionalsheet"):
        assert f'"{table}"' in together[0]
    # and nowhere else
    assert sum('"games_conditionalsheet"' in sql for sql in queries) == 1
    assert sum('FROM "games_matchvote"' in sql for sql in queries) == 1


def test_a_game_without_conditions_reads_no_sheet_ahead(make_user):  # noqa: F811
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    queries = page_queries(client_for(alice), match)
    assert not any("games_conditionalsheet" in sql for sql in queries)
    # (Final Act offers conditions; anonymous visitors read none either)


def test_an_anonymous_visitor_reads_no_sheet_ahead(final_act):
    queries = page_queries(client_for(None), final_act)
    assert not any("games_conditionalsheet" in sql for sql in queries)


def test_the_sheet_ahead_read_with_the_page_is_the_readers_own(final_act, make_user):  # noqa: F811
    ann, ben = final_act.players[1], final_act.players[2]
    services.sheet_ahead_set(match_id=final_act.pk, seat_number=1, user=ann,
                             conditions_text="C on board", text="C stay")
    url = reverse("games:match", args=[final_act.pk])
    assert "C is still on the board" in client_for(ann).get(url).content.decode()
    for other in (client_for(ben), client_for(None), client_for(make_user("carol"))):
        assert "C is still on the board" not in other.get(url).content.decode()


def test_the_panels_unread_counts_follow_reads_and_mutes(final_act):
    ann, ben = final_act.players[1], final_act.players[2]
    for n in range(3):
        chat.message_post(match_id=final_act.pk, user=ben, channel="public",
                          text=f"public {n}", source=Message.Source.WEB)
    # (one's own message marks the channel read up to it)
    chat.message_post(match_id=final_act.pk, user=ann, channel=[1, 2], text="mine",
                      source=Message.Source.WEB)
    chat.message_post(match_id=final_act.pk, user=ben, channel=[1, 2], text="private one",
                      source=Message.Source.WEB)
    panel = reverse("chat:panel", args=[final_act.pk])
    # The page shows the public channel (read then) and counts the private one's: ben's
    # message after ann's own.
    page = client_for(ann).get(reverse("games:match", args=[final_act.pk])).content.decode()
    assert "public 2" in page and "1 unread" in page
    again = client_for(ann).get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert "unread" in again and "3 unread" not in again  # the public ones are read now
    private = client_for(ann).get(panel + "?channel=seats-1-2", HTTP_HX_REQUEST="true")
    assert "private one" in private.content.decode()
    assert "unread" not in client_for(ann).get(panel, HTTP_HX_REQUEST="true").content.decode()
    # Muted, ben's messages are neither shown nor counted.
    chat.message_post(match_id=final_act.pk, user=ben, channel=[1, 2], text="private two",
                      source=Message.Source.WEB)
    assert "1 unread" in client_for(ann).get(panel, HTTP_HX_REQUEST="true").content.decode()
    chat.player_mute(user=ann, muted_id=ben.pk)
    muted = client_for(ann).get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert "unread" not in muted and "public 2" not in muted
    # A spectator sees no private channel at all.
    shown = Client().get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert "private one" not in shown and "seats-1-2" not in shown


def test_one_csrf_token_a_response_and_it_is_accepted(final_act):
    ann = final_act.players[1]
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    page = client.get(reverse("games:match", args=[final_act.pk])).content.decode()
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
    assert len(tokens) == 1 and page.count("csrfmiddlewaretoken") > 3
    sent = client.post(reverse("chat:send", args=[final_act.pk]),
                       {"channel": "public", "text": "with the page's token",
                        "csrfmiddlewaretoken": tokens.pop()})
    assert sent.status_code == 302
    assert Message.objects.filter(text="with the page's token").exists()
    # the next response masks it anew
    later = client.get(reverse("games:match", args=[final_act.pk])).content.decode()
    assert set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', later)) != tokens


def test_a_token_rotated_during_a_request_is_made_again():
    from django.middleware.csrf import rotate_token
    from django.test import RequestFactory

    from games import csrf

    request = RequestFactory().get("/")
    first = csrf.token(request)
    assert csrf.token(request) == first
    rotate_token(request)
    assert csrf.token(request) != first


def test_remembered_addresses_are_reverses_in_every_language():
    from portal.jinja2 import url

    for language in ("en", "fr"):
        with translation.override(language):
            for name, args in (("reports:message", [3, 44]), ("games:match", [7]),
                               ("players:page", ["zoé"]), ("games:lobby", [])):
                assert url(name, args=args) == reverse(name, args=args)
                assert url(name, args=args) == reverse(name, args=args)  # remembered
