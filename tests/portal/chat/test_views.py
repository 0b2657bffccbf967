"""The messages panel on the match page (HTMX and without it): sending, refusals with the text
kept, the poll that answers 204 while nothing changed, mute, report and hide."""

from __future__ import annotations

import re

import pytest

from games.models import Match
from portal.chat.models import Message, MessageHide, Mute
from portal.reports.models import Report
from tests.helpers import client_for
from tests.portal.builders import make_user
from tests.portal.chat.builders import huddle, moderator, post

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def panel_url(match, key="") -> str:
    return f"/matches/{match.pk}/messages/" + (f"?channel={key}" if key else "")


def test_the_match_page_shows_the_panel_and_the_panel_shows_the_channels():
    match = huddle()
    ann, ben, _cat = match.players
    post(match, ann, [2], "Ann to Ben")
    post(match, ann, "public", "Hello <b>all</b>")
    page = client_for(ann).get(f"/matches/{match.pk}/").content.decode()
    # Rendered with the page (no second request on arrival), then polled by its own.
    assert 'id="chat-live"' in page and "Hello &lt;b&gt;all&lt;/b&gt;" in page
    assert f'hx-get="/matches/{match.pk}/messages/?channel=public&amp;state=' in page
    assert 'hx-trigger="load"' not in page
    body = client_for(ben).get(panel_url(match), **HTMX).content.decode()
    assert "Hello &lt;b&gt;all&lt;/b&gt;" in body and "<b>all</b>" not in body  # plain text
    assert "Private: Seat 1 (ann)" in body
    assert re.search(r"1 unread", body)  # the private channel, not read yet
    assert 'name="text"' in body and 'for="chat-text"' in body


def test_sending_from_the_panel_and_the_errors_keep_the_text():
    match = huddle()
    ann = match.players[0]
    client = client_for(ann)
    sent = client.post(f"/matches/{match.pk}/messages/send/",
                       {"channel": "public", "text": "On the web"}, **HTMX)
    assert sent.status_code == 200 and "On the web" in sent.content.decode()
    assert Message.objects.get().source == "web"
    long = "y" * 2001
    refused = client.post(f"/matches/{match.pk}/messages/send/",
                          {"channel": "public", "text": long}, **HTMX)
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "at most 2000 characters" in body and long in body and 'role="alert"' in body
    # A new private conversation with no seat ticked, then with seat 3.
    none = client.post(f"/matches/{match.pk}/messages/send/",
                       {"channel": "new", "text": "psst"}, **HTMX)
    assert none.status_code == 400 and "Choose the seats" in none.content.decode()
    made = client.post(f"/matches/{match.pk}/messages/send/",
                       {"channel": "new", "seats": ["3"], "text": "psst"})
    assert made.status_code == 302 and made["Location"].endswith("?channel=seats-1-3")
    assert Message.objects.filter(channel__key="seats-1-3").count() == 1


def test_a_gunboat_match_refuses_on_the_web_with_a_clear_error():
    match = huddle(press=Match.Press.NONE)
    client = client_for(match.players[0])
    answer = client.post(f"/matches/{match.pk}/messages/send/",
                         {"channel": "public", "text": "psst"}, **HTMX)
    assert answer.status_code == 403
    assert "gunboat" in answer.content.decode()
    assert not Message.objects.exists()
    assert "gunboat" in client.get(panel_url(match), **HTMX).content.decode()


def test_spectators_and_visitors_read_public_but_cannot_send_or_open_private():
    match = huddle()
    ann = match.players[0]
    post(match, ann, [2], "SECRET-PLAN")
    post(match, ann, "public", "open words")
    for user in (make_user("watcher"), None):
        client = client_for(user)
        body = client.get(panel_url(match), **HTMX).content.decode()
        assert "open words" in body and "SECRET-PLAN" not in body and "seats-1-2" not in body
        assert client.get(panel_url(match, "seats-1-2"), **HTMX).status_code == 404
        answer = client.post(f"/matches/{match.pk}/messages/send/",
                             {"channel": "public", "text": "hi"}, **HTMX)
        assert answer.status_code in (302, 403)
    assert Message.objects.count() == 2


def test_the_poll_answers_no_content_while_nothing_changed():
    match = huddle()
    ann, ben, _cat = match.players
    client = client_for(ben)
    body = client.get(panel_url(match), **HTMX).content.decode()
    state = re.search(r"state=([0-9a-f]+)", body).group(1)
    poll = f"{panel_url(match)}?channel=public&state={state}".replace("/?channel", "/?channel")
    assert client.get(f"/matches/{match.pk}/messages/?channel=public&state={state}",
                      **HTMX).status_code == 204
    post(match, ann, "public", "news")
    fresh = client.get(f"/matches/{match.pk}/messages/?channel=public&state={state}", **HTMX)
    assert fresh.status_code == 200 and "news" in fresh.content.decode()
    assert "New messages in Public" in fresh.content.decode()
    assert poll


def test_mute_report_and_hide_from_the_panel():
    match = huddle()
    ann, ben, _cat = match.players
    message = post(match, ann, "public", "nasty")
    client = client_for(ben)
    client.post(f"/matches/{match.pk}/messages/mute/", {"seat": "1"}, **HTMX)
    assert Mute.objects.filter(user=ben, muted=ann).exists()
    assert "nasty" not in client.get(panel_url(match), **HTMX).content.decode()
    client.post(f"/matches/{match.pk}/messages/mute/", {"seat": "1", "undo": "1"}, **HTMX)
    assert not Mute.objects.exists()
    reported = client.post(f"/matches/{match.pk}/messages/{message.pk}/report/",
                           {"reason": "rude"}, **HTMX)
    assert reported.status_code == 200 and Report.objects.get().message == message
    refused = client.post(f"/matches/{match.pk}/messages/{message.pk}/hide/",
                          {"reason": "mine to hide?"}, **HTMX)
    assert refused.status_code == 403 and not MessageHide.objects.exists()
    mod = client_for(moderator())
    assert 'hide/"' in mod.get(panel_url(match), **HTMX).content.decode()
    empty = mod.post(f"/matches/{match.pk}/messages/{message.pk}/hide/", {"reason": ""}, **HTMX)
    assert empty.status_code == 400
    hidden = mod.post(f"/matches/{match.pk}/messages/{message.pk}/hide/", {"reason": "abuse"},
                      **HTMX)
    assert hidden.status_code == 200 and "nasty" not in hidden.content.decode()
    assert "A moderator hid this message." in hidden.content.decode()
    assert "nasty" not in client.get(panel_url(match), **HTMX).content.decode()


def test_the_panel_without_htmx_is_a_page_of_its_own():
    match = huddle()
    ann = match.players[0]
    post(match, ann, "public", "plain page")
    page = client_for(None).get(panel_url(match))
    assert page.status_code == 200 and "plain page" in page.content.decode()
    assert "<html" in page.content.decode()


def test_the_create_form_sets_the_press_and_the_match_page_shows_it():
    ann = make_user("creator")
    client = client_for(ann)
    form = client.get("/matches/new/?game=toy-duel").content.decode()
    assert 'name="press"' in form and 'name="reveal_private"' in form
    created = client.post("/matches/new/", {
        "game": "toy-duel", "preset": "", "seat_count": "2", "seat_1": "me", "seat_2": "open",
        "hours_per_phase": "24", "miss_policy": "replace", "miss_limit": "3",
        "is_public": "on", "press": "none", "reveal_private": "on", "options_game": "toy-duel",
        "title": "Silent duel"})
    assert created.status_code == 302, created.content.decode()[:2000]
    match = Match.objects.get(title="Silent duel")
    assert (match.press, match.reveal_private) == ("none", True)
    assert "No messages at all (gunboat)" in client.get(f"/matches/{match.pk}/").content.decode()
    refused = client.post("/matches/new/", {
        "game": "toy-duel", "seat_count": "2", "seat_1": "me", "seat_2": "open",
        "hours_per_phase": "24", "miss_policy": "replace", "miss_limit": "3",
        "press": "loud", "options_game": "toy-duel", "title": "Loud duel"})
    assert refused.status_code == 400 and not Match.objects.filter(title="Loud duel").exists()


def test_the_panel_names_the_seats_in_the_readers_language():
    """The channels name their seats as the match page does: a game whose seats have English
    names (Final Strategy's Red, Blue, Green) has them translated."""
    from games.services import match_create

    players = [make_user(name) for name in ("rosa", "blaise", "vera")]
    match = match_create(creator=players[0], game="final-strategy", options={},
                         hours_per_phase=24,
                         seats=[{"kind": "human", "user": user} for user in players])
    post(match, players[0], [2], "Entre nous")
    body = client_for(players[1]).get(panel_url(match), HTTP_ACCEPT_LANGUAGE="fr",
                                      **HTMX).content.decode()
    assert "Privé : Rouge (rosa)" in body and "Vert (vera)" in body
    assert "Red (" not in body and "Green (" not in body
    english = client_for(players[1]).get(panel_url(match), **HTMX).content.decode()
    assert "Private: Red (rosa)" in english
