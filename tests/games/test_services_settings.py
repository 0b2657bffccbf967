"""Out-of-turn settings (DESIGN.md): a setting ``apply`` accepts from any seat, prompted or
not, is stored at once; it opens no phase, moves no deadline and stays secret. Panzer
Squadron's standing reactions are one."""

import pytest

from games import services
from games.models import Match, Phase
from games.services import ServiceError
from tests import helpers

pytestmark = pytest.mark.django_db

REACTION = {"reactions": {"L3": {"mode": "side-rear", "max_range": 6}}}


@pytest.fixture
def panzer(make_user):
    a, b = make_user("ann"), make_user("ben")
    match = services.match_create(
        creator=a, game="panzer-squadron", options={}, hours_per_phase=12,
        seats=[{"kind": "human", "user": u} for u in (a, b)])
    match.players = {1: a, 2: b}
    return match


def submit(match, seat, **orders):
    """Seat ``seat``'s orders (``data`` or ``text``), sent by its player."""
    return helpers.submit(match, match.players[seat], seat, **orders)


def test_a_seat_that_is_not_prompted_stores_a_setting_without_a_phase(panzer):
    before = Match.objects.get(pk=panzer.pk)
    receipt = submit(panzer, 2, data=REACTION)
    after = Match.objects.get(pk=panzer.pk)
    assert receipt.data == REACTION and receipt.receipt
    assert (after.phase_number, after.deadline) == (before.phase_number, before.deadline)
    assert Phase.objects.filter(match=panzer).count() == 1
    assert after.state["reactions"]["L3"] == {"mode": "side-rear", "max_range": 6}
    assert after.state["to_move"] == 1


def test_a_setting_from_the_prompted_seat_resolves_nothing(panzer):
    submit(panzer, 1, text="reaction M1 hold")
    after = Match.objects.get(pk=panzer.pk)
    assert after.phase_number == panzer.phase_number and after.state["phase"] == "activate"
    assert after.state["reactions"]["M1"]["mode"] == "hold"
    assert not Phase.objects.get(match=panzer, number=panzer.phase_number).submissions.exists()


def test_a_setting_stays_secret_from_the_other_seat(panzer):
    submit(panzer, 2, data=REACTION)
    state = Match.objects.get(pk=panzer.pk).state
    from engine import get
    assert "L3" not in get("panzer-squadron").view(state, 1)["reactions"]


def test_a_bad_setting_is_refused_with_its_problems(panzer):
    with pytest.raises(ServiceError) as caught:
        submit(panzer, 2, data={"reactions": {"M1": {"mode": "hold", "max_range": None}}})
    assert caught.value.code == "invalid"
    assert Match.objects.get(pk=panzer.pk).state["reactions"]["M1"]["mode"] == "first"


def test_an_ordinary_sheet_from_a_seat_not_prompted_is_still_refused(panzer):
    with pytest.raises(ServiceError) as caught:
        submit(panzer, 2, data={"activate": "L3", "action": "ambush"})
    assert caught.value.code == "not_your_turn"
