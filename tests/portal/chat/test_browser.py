"""Two players talk privately on the match page, in a real browser, while a spectator watches
the same page: new messages appear without a reload, with unread counts, and the spectator
never sees either message (nor that the conversation exists)."""

from __future__ import annotations

import time

import pytest

from tests.browser import BROWSER_MARKS, log_in
from tests.portal.builders import make_user
from tests.portal.chat.builders import huddle

pytestmark = BROWSER_MARKS

FIRST = "Ann to Ben: let us share the north."
SECOND = "Ben to Ann: agreed, I take the east."


@pytest.fixture(autouse=True)
def quick_poll(settings):
    settings.CHAT_POLL_SECONDS = 1


def open_match(new_page, username, match):
    page = new_page()
    log_in(page, username)
    page.goto(f"{page.base}/matches/{match.pk}/")
    page.wait_for_selector("#chat-live")  # the panel loaded with the page
    return page


def test_two_players_talk_privately_and_a_spectator_sees_neither_message(new_page):
    match = huddle()
    make_user("watcher")
    ann = open_match(new_page, "ann", match)
    ben = open_match(new_page, "ben", match)
    watcher = open_match(new_page, "watcher", match)
    assert watcher.locator("#chat-form").count() == 0  # spectators read, never send
    assert "spectators read the public ones" in watcher.inner_text("#messages")

    # Ann starts a private conversation with Ben, with the keyboard and the labels only.
    ann.get_by_label("Send to").select_option("new")
    ann.get_by_label("Seat 2 (ben)").check()
    ann.get_by_label("Your message").fill(FIRST)
    ann.get_by_label("Your message").press("Tab")
    ann.keyboard.press("Enter")  # (the focus is on the Send button)
    ann.wait_for_selector("#chat-live >> text=" + FIRST)
    assert "Private: Seat 2 (ben)" in ann.inner_text("#chat-channel-heading")
    assert ann.get_by_label("Your message").input_value() == ""
    # The keyboard stays in the panel, ready for the next message (not back at the top).
    ann.wait_for_function("document.activeElement.id === 'chat-text'")

    # Ben's page shows the new channel with its unread count, without a reload.
    ben.wait_for_selector('#chat-live a[data-channel="seats-1-2"] .badge')
    assert "1 unread" in ben.inner_text('#chat-live a[data-channel="seats-1-2"]')
    ben.focus('#chat-live a[data-channel="seats-1-2"]')
    ben.keyboard.press("Enter")
    ben.wait_for_selector("#chat-live >> text=" + FIRST)
    # The focus stays on the channel chosen, and the panel keeps polling meanwhile.
    ben.wait_for_function("document.activeElement.dataset.channel === 'seats-1-2'")
    assert ben.get_by_label("Send to").input_value() == "seats-1-2"
    ben.get_by_label("Your message").fill(SECOND)
    ben.click("#chat-form button[type=submit]")
    ben.wait_for_selector("#chat-live >> text=" + SECOND)

    # Ann's open page follows the conversation by itself, her focus on a channel's link.
    ann.focus('#chat-live a[data-channel="public"]')
    ann.wait_for_selector("#chat-live >> text=" + SECOND)
    assert ann.evaluate("document.activeElement.dataset.channel") == "public"

    # The spectator's page polled all along: neither message, no sign of the conversation.
    time.sleep(2.5)
    for content in (watcher.content(), watcher.inner_text("body")):
        assert FIRST not in content and SECOND not in content and "seats-1-2" not in content
    watcher.reload()
    watcher.wait_for_selector("#chat-live")
    assert FIRST not in watcher.content() and SECOND not in watcher.content()
    answer = watcher.request.get(f"{watcher.base}/matches/{match.pk}/messages/"
                                 "?channel=seats-1-2")
    assert answer.status == 404 and FIRST not in answer.text()
