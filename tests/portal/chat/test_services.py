"""Sending messages and who reads them: the channels, the press options, the limits, mute,
report and hide, through the services (as every channel uses them)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games.models import Match
from games.services import match_abort, orders_submit
from games.services.errors import ServiceError
from portal.chat import selectors
from portal.chat.access import Reader
from portal.chat.models import Channel, ChannelRead, Message, MessageHide
from portal.chat.services import message_hide, player_mute
from portal.reports.models import Report
from portal.reports.services import message_report
from tests.portal.builders import make_user
from tests.portal.chat.builders import huddle, moderator, post

pytestmark = pytest.mark.django_db


def texts(match, user, key="public") -> list[str]:
    reader = Reader(Match.objects.get(pk=match.pk), user or AnonymousUser())
    muted = selectors.muted_ids(reader.user_id)
    views = selectors.reader_channels(reader, muted)
    view = selectors.channel_view(reader, views, key)
    if view is None:
        return []
    return [m.text for m in selectors.channel_messages(reader, view, muted)]


def keys(match, user) -> list[str]:
    reader = Reader(Match.objects.get(pk=match.pk), user or AnonymousUser())
    return [view.key for view in selectors.reader_channels(reader)]


def refused(code: str, **kwargs) -> None:
    with pytest.raises(ServiceError) as caught:
        post(**kwargs)
    assert caught.value.code == code, caught.value.message


def test_the_public_channel_is_read_by_everyone_who_sees_the_match():
    match = huddle()
    ann, ben, cat = match.players
    message = post(match, ann, "public", "Hello all")
    assert message.channel.kind == Channel.Kind.PUBLIC and message.seat_number == 1
    spectator = make_user("spectator")
    for reader in (ann, ben, cat, spectator, None, moderator()):
        assert texts(match, reader) == ["Hello all"]


def test_a_private_channel_is_read_by_its_seats_only():
    match = huddle()
    ann, ben, cat = match.players
    post(match, ann, [2], "Ann to Ben only")
    assert texts(match, ann, "seats-1-2") == texts(match, ben, "seats-1-2") == ["Ann to Ben only"]
    for outsider in (cat, make_user("spectator"), None, moderator()):
        assert texts(match, outsider, "seats-1-2") == []
        assert "seats-1-2" not in keys(match, outsider)
    # The author's seat is in the channel whether named or not: the same channel.
    again = post(match, ben, [1, 2], "Ben back to Ann")
    assert again.channel.key == "seats-1-2"


def test_a_game_channel_follows_the_game_state():
    match = huddle()
    ann, ben, cat = match.players
    # Seat 1's turn: the huddle is seats 2 and 3.
    refused("not_allowed", match=match, user=ann, channel="huddle", text="let me in")
    post(match, ben, "huddle", "While Ann thinks")
    assert texts(match, cat, "huddle") == ["While Ann thinks"]
    assert texts(match, ann, "huddle") == [] and "huddle" not in keys(match, ann)
    assert texts(match, None, "huddle") == []
    orders_submit(match_id=match.pk, seat_number=1, user=ann, phase_number=1, data={"add": 1},
                  source="web")
    # Seat 2's turn now: Ann is in the huddle (and reads what it said), Ben is out.
    assert texts(match, ann, "huddle") == ["While Ann thinks"]
    assert texts(match, ben, "huddle") == []
    refused("invalid", match=match, user=ann, channel="nonesuch", text="hi")


def test_a_gunboat_match_refuses_every_message():
    match = huddle(press=Match.Press.NONE)
    ann = match.players[0]
    for channel in ("public", [2], "huddle"):
        refused("no_press", match=match, user=ann, channel=channel, text="psst")
    assert not Message.objects.exists()


def test_public_press_refuses_private_and_game_channels():
    match = huddle(press=Match.Press.PUBLIC)
    ann, ben, _cat = match.players
    refused("no_private_press", match=match, user=ann, channel=[2], text="psst")
    refused("no_private_press", match=match, user=ben, channel="huddle", text="psst")
    post(match, ann, "public", "Out loud")
    assert Message.objects.count() == 1


def test_only_players_send_and_only_while_the_match_is_on():
    match = huddle()
    refused("not_your_seat", match=match, user=make_user("spectator"), channel="public",
            text="hi")
    refused("not_your_seat", match=match, user=AnonymousUser(), channel="public", text="hi")
    match_abort(match_id=match.pk, by=match.players[0], note="test")
    refused("not_active", match=match, user=match.players[0], channel="public", text="hi")


def test_bad_channels_and_texts_are_refused_with_the_reason():
    match = huddle()
    ann = match.players[0]
    for channel in ([9], [1], [], ["x"], "seats-x", 5, None, "Public!"):
        refused("invalid", match=match, user=ann, channel=channel, text="hi")
    for text in ("", "   ", None, "x" * 2001, "bell\x07", "nul\x00"):
        refused("invalid", match=match, user=ann, channel="public", text=text)
    assert post(match, ann, "public", "  two\r\nlines  ").text == "two\nlines"
    assert Message.objects.count() == 1


def test_a_bot_seat_is_not_in_a_private_channel(make_user):
    from games.services import match_create

    ann = make_user("ann-bot")
    match = match_create(creator=ann, game="toy-duel", options={}, hours_per_phase=24,
                         seats=[{"kind": "human", "user": ann},
                                {"kind": "bot", "bot": "random"}])
    with pytest.raises(ServiceError) as caught:
        post(match, ann, [2], "hello bot")
    assert "bot" in caught.value.message


def test_each_seat_sends_a_few_messages_a_minute(settings):
    settings.CHAT_MESSAGES_PER_MINUTE = 3
    match = huddle()
    ann, ben, _cat = match.players
    for n in range(3):
        post(match, ann, "public", f"m{n}")
    refused("rate_limited", match=match, user=ann, channel="public", text="one more")
    post(match, ben, "public", "another seat is not limited by Ann's")
    assert Message.objects.filter(seat_number=1).count() == 3


def test_private_messages_stay_private_after_the_end_unless_the_match_reveals_them():
    for reveal in (False, True):
        match = huddle(names=(f"a{reveal}", f"b{reveal}", f"c{reveal}"), reveal_private=reveal)
        ann, _ben, cat = match.players
        post(match, ann, [2], "our plan")
        match_abort(match_id=match.pk, by=ann, note="over")
        shown = texts(match, cat, "seats-1-2")
        assert shown == (["our plan"] if reveal else [])
        assert texts(match, None, "seats-1-2") == shown


def test_a_message_with_a_dedupe_key_is_posted_once():
    from portal.chat.services import message_post

    match = huddle()
    first = message_post(match_id=match.pk, user=match.players[0], channel="public",
                         text="once", source="email", dedupe_key="mail:1")
    again = message_post(match_id=match.pk, user=match.players[0], channel="public",
                         text="once", source="email", dedupe_key="mail:1")
    assert first.pk == again.pk and Message.objects.count() == 1


def test_muted_players_are_not_shown_nor_counted_for_who_muted_them():
    match = huddle()
    ann, ben, cat = match.players
    post(match, ben, "public", "noise")
    post(match, cat, "public", "signal")
    player_mute(user=ann, muted_id=ben.pk)
    assert texts(match, ann) == ["signal"]
    assert texts(match, cat) == ["noise", "signal"]
    reader = Reader(match, ann)
    assert selectors.reader_channels(reader)[0].unread == 1
    with pytest.raises(ServiceError):
        player_mute(user=ann, muted_id=ann.pk)


def test_unread_counts_start_after_what_the_reader_read():
    match = huddle()
    ann, ben, _cat = match.players
    first = post(match, ann, "public", "one")
    post(match, ann, "public", "two")
    reader = Reader(match, ben)
    assert selectors.reader_channels(reader)[0].unread == 2
    ChannelRead.objects.create(channel=first.channel, user=ben, last_read_id=first.pk)
    assert selectors.reader_channels(reader)[0].unread == 1
    assert selectors.reader_channels(Reader(match, ann))[0].unread == 0  # one's own


def test_a_reader_reports_a_message_and_the_report_holds_it():
    match = huddle()
    ann, ben, cat = match.players
    message = post(match, ann, [2], "rude words")
    with pytest.raises(ServiceError) as caught:  # Cat cannot read it, so cannot report it
        message_report(message_id=message.pk, reporter=cat, reason="?")
    assert caught.value.code == "not_found"
    with pytest.raises(ServiceError):
        message_report(message_id=message.pk, reporter=ann, reason="my own")
    report = message_report(message_id=message.pk, reporter=ben, reason="Insults")
    assert Report.objects.get() == report
    assert report.message == message and report.reported_user == ann and report.match == match


def test_only_moderators_hide_and_the_text_is_never_shown_again():
    match = huddle()
    ann, ben, _cat = match.players
    message = post(match, ann, "public", "something awful")
    with pytest.raises(ServiceError) as caught:
        message_hide(message_id=message.pk, by=ben, reason="I dislike it")
    assert caught.value.code == "not_allowed"
    mod = moderator()
    with pytest.raises(ServiceError):
        message_hide(message_id=message.pk, by=mod, reason="  ")
    hide = message_hide(message_id=message.pk, by=mod, reason="Abuse")
    assert message_hide(message_id=message.pk, by=mod, reason="again") == hide
    assert MessageHide.objects.count() == 1
    assert MessageHide.objects.get().message.text == "something awful"  # kept for the audit
    for reader in (ann, ben, mod, None):
        assert texts(match, reader) == [None]  # its place, without its text
