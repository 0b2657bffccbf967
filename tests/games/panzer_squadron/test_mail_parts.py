"""Panzer Squadron by e-mail: the board as text with offset rows, the rolled points in the
"your move" mail of the path step, the grammar, replies read as orders (a whole path in one
reply, reactions in a reply of their own), and refusals naming their line."""

from __future__ import annotations

import pytest

import engine
from engine import RuleError
from games import plugins
from games.models import Match, Phase, Seat
from games.services import sheet_submit
from portal.mail.services.notify import phase_email_content
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db
GAME = engine.get("panzer-squadron")


@pytest.fixture
def match():
    alice, bob = make_user("alice"), make_user("bob")
    m = duel(alice, bob, game="panzer-squadron", options={"dice": [3]})
    m.players = {1: alice, 2: bob}
    return m


def mail_for(match, seat_number):
    m = Match.objects.get(pk=match.pk)
    phase = Phase.objects.get(match=m, number=m.phase_number)
    seat = Seat.objects.get(match=m, number=seat_number)
    return phase_email_content(match=m, phase=phase, seat=seat)


def reply(match, seat, text):
    m = Match.objects.get(pk=match.pk)
    return sheet_submit(match_id=m.pk, seat_number=seat, user=match.players[seat],
                        phase_number=m.phase_number, source="email", text=text)


def test_a_whole_activation_by_two_replies_with_the_roll_in_between(match):
    first = mail_for(match, 1)
    assert "activate TANK move" in first["body_text"] and " 1  c1" not in first["body_text"]
    assert "M1   seat 1 medium f1 facing 12" in first["body_text"]
    reply(match, 1, "activate M1 move")
    second = mail_for(match, 1)
    assert "the dice show 3, 2 movement points" in second["body_text"]
    assert "path HEX FACING" in second["body_text"]
    reply(match, 2, "\n".join(f"reaction {n} hold" for n in ("L3", "L4", "M3", "M4", "H2")))
    reply(match, 1, "path f2 12, f3 12\nend moving")
    m = Match.objects.get(pk=match.pk)
    assert next(t for t in m.state["tanks"] if t["name"] == "M1")["at"] == "f3"
    assert m.state["to_move"] == 2


def test_reactions_by_reply_change_no_turn(match):
    reply(match, 2, "reaction L3 side-rear max 5")
    m = Match.objects.get(pk=match.pk)
    assert m.state["reactions"]["L3"] == {"mode": "side-rear", "max_range": 5}
    assert m.state["to_move"] == 1 and m.phase_number == match.phase_number


def test_refusals_name_the_line():
    plugin = plugins.plugin_for("panzer-squadron")
    s = GAME.start(2, {"dice": [3]}, 1)
    text = "hello\nactivate M1 move"
    try:
        GAME.parse_text(s, 1, text)
    except RuleError as error:
        assert plugin.problem_lines(error.problems, text) == ["Line 1: Cannot read 'hello'."]
    else:
        pytest.fail("not refused")
    text = "# my orders\nactivate Q9 move"
    with pytest.raises(RuleError) as caught:
        GAME.validate(s, 1, GAME.parse_text(s, 1, text))
    assert plugin.problem_lines(caught.value.problems, text)[0].startswith("Line 2:")


def test_the_board_as_text_has_offset_rows():
    text = GAME.board_text(GAME.start(2, {}, 1), 1)
    rows = {line[:2].strip(): line for line in text.splitlines()[1:12]}
    assert rows["11"].startswith("11    ") is False and rows["10"][4:6] == "  "
    assert "[]" in text and "##" in text and "~~" in text
