"""The signals queue: a positive and a negative case for every signal, declared pairs, the
moderators' actions (with their audit rows), and who may see any of it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import plugins
from games.models import Seat, Submission
from games.services import ServiceError, match_create, seat_join, seat_leave, seat_take
from portal.reports.services import report_file
from portal.signals.detect import signals_scan
from portal.signals.models import ClientTrace, Relationship, Signal, SignalAction
from portal.signals.services import relationship_declare, signal_act
from tests.helpers import client_for, submit
from tests.portal.builders import duel, make_user

pytestmark = pytest.mark.django_db


def _trace(user, match, *, network="203.0.113.0/24", device=None, kind="submission"):
    return ClientTrace.objects.create(user=user, kind=kind, network=network,
                                      device=device or f"{user.pk:032x}", match=match,
                                      at=timezone.now())


def _kinds(match):
    return sorted(s.kind for s in signals_scan(match_id=match.pk))


# --- two accounts of one match: one network, one device ------------------------------------

def test_two_accounts_of_a_match_sharing_a_device_are_a_signal():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    _trace(alice, match, network="203.0.113.0/24", device="a" * 32)
    _trace(bob, None, network="198.51.100.0/24", device="a" * 32, kind="login")
    [signal] = signals_scan(match_id=match.pk)
    assert (signal.kind, signal.first, signal.second, signal.match) == (
        "shared_device", alice, bob, match)
    assert signal.evidence == {"devices": ["aaaaaaaa…"]}
    assert not signal.declared
    # Found again: the same signal, not a second one.
    signals_scan(match_id=match.pk)
    assert Signal.objects.count() == 1


def test_two_accounts_of_a_match_sharing_a_network_are_a_signal():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    _trace(alice, match, network="203.0.113.0/24")
    _trace(bob, match, network="203.0.113.0/24")
    assert _kinds(match) == ["shared_network"]
    assert Signal.objects.get().evidence == {"networks": ["203.0.113.0/24"]}


def test_accounts_apart_or_outside_the_match_are_no_signal():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob)
    _trace(alice, match, network="203.0.113.0/24")
    _trace(bob, match, network="198.51.100.0/24")
    _trace(carol, None, network="203.0.113.0/24", device=f"{alice.pk:032x}")  # not a player
    assert _kinds(match) == []


def test_a_declared_pair_is_not_flagged_for_a_network_and_its_device_is_shown_apart():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    relationship_declare(by=bob, username="alice", kind="household")
    _trace(alice, match, network="203.0.113.0/24", device="c" * 32)
    _trace(bob, match, network="203.0.113.0/24", device="c" * 32)
    [signal] = signals_scan(match_id=match.pk)
    assert (signal.kind, signal.declared, signal.evidence["declared"]) == (
        "shared_device", True, "household")


# --- sheets that arrive together, again and again -----------------------------------------

def _played(times: list[float], prefix: str = ""):
    """A Toy Duel whose resolved phases' two sheets arrived ``times`` seconds apart."""
    alice, bob = make_user(f"{prefix}alice"), make_user(f"{prefix}bob")
    match = duel(alice, bob, options={"target": 9})
    start = timezone.now() - timedelta(days=1)
    for number, gap in enumerate(times, start=1):
        submit(match, alice, 1, 3)
        submit(match, bob, 2, 3)
        from games.services import phase_resolve

        phase_resolve(match_id=match.pk, phase_number=number)
        at = start + timedelta(hours=number)
        Submission.objects.filter(phase__match=match, phase__number=number,
                                  seat__number=1).update(updated_at=at)
        Submission.objects.filter(phase__match=match, phase__number=number,
                                  seat__number=2).update(updated_at=at + timedelta(seconds=gap))
    return match


def test_sheets_arriving_within_seconds_again_and_again_are_a_signal():
    match = _played([2, 4, 300, 9.5])
    [signal] = signals_scan(match_id=match.pk)
    assert signal.kind == "synchronised"
    assert [c["phase"] for c in signal.evidence["close"]] == [1, 2, 4]
    assert signal.evidence["phases_both_sent"] == 4


def test_sheets_arriving_together_now_and_then_are_no_signal():
    assert _kinds(_played([2, 4, 300, 600, 900])) == []  # 2 of 5: not again and again
    assert _kinds(_played([30, 40, 60], prefix="other")) == []  # never within 10 seconds


# --- a seat whose moves always spare one other seat ---------------------------------------

class Sparing(plugins.GamePlugin):
    """A game's plug-in that can tell who could attack whom (Toy Count's, for this test)."""

    table: dict = {}

    def seat_hostility(self, match):
        return self.table


@pytest.fixture
def sparing_plugin():
    before = plugins._plugins.get("toy-count")
    plugin = plugins.register(Sparing("toy-count"))
    yield plugin
    if before is None:
        plugins._plugins.pop("toy-count")
    else:
        plugins.register(before)


def _three_seats():
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = match_create(creator=alice, game="toy-count", options={},
                         seats=[{"kind": "human", "user": alice},
                                {"kind": "human", "user": None},
                                {"kind": "human", "user": None}], hours_per_phase=24)
    for user in (bob, carol):
        seat_join(match_id=match.pk, user=user, invite_token=match.invite_token)
    match.refresh_from_db()
    return match


def test_a_seat_that_never_attacks_one_seat_while_able_is_a_signal(sparing_plugin):
    match = _three_seats()
    sparing_plugin.table = {(1, 2): (6, 0), (1, 3): (6, 4), (2, 1): (6, 3), (2, 3): (6, 2),
                            (3, 1): (6, 2), (3, 2): (6, 1)}
    [signal] = signals_scan(match_id=match.pk)
    assert (signal.kind, signal.first.username, signal.second.username) == (
        "support", "alice", "bob")
    assert signal.evidence["could_attack"] == 6 and signal.evidence["attacks_on_others"] == 4


def test_no_sparing_signal_when_it_attacked_it_or_had_few_chances_or_the_game_cannot_tell(
        sparing_plugin):
    match = _three_seats()
    sparing_plugin.table = {(1, 2): (6, 1), (1, 3): (6, 4), (2, 3): (3, 0), (2, 1): (3, 2)}
    assert _kinds(match) == []
    sparing_plugin.table = None  # a game that cannot provide the measure: skipped
    assert _kinds(match) == []
    two = duel(make_user("dave"), make_user("erin"))  # two seats: not looked for
    assert _kinds(two) == []


# --- a new account taking a seat seeking a commander --------------------------------------

def _taken_by(age: timedelta):
    alice, bob, newcomer = make_user("alice"), make_user("bob"), make_user("newcomer")
    type(newcomer).objects.filter(pk=newcomer.pk).update(date_joined=timezone.now() - age)
    match = duel(alice, bob)
    seat_leave(match_id=match.pk, user=bob)
    seat_take(token=Seat.objects.get(match=match, number=2).offer_token, user=newcomer)
    return match


def test_an_account_made_just_before_taking_a_seeking_seat_is_a_signal():
    match = _taken_by(timedelta(hours=3))
    [signal] = signals_scan(match_id=match.pk)
    assert (signal.kind, signal.first.username, signal.second) == (
        "new_account", "newcomer", None)
    assert signal.evidence["seat"] == 2 and signal.evidence["hours_between"] == 3.0


def test_an_older_account_taking_a_seeking_seat_is_no_signal():
    assert _kinds(_taken_by(timedelta(days=10))) == []
    # nor are the players who started the match, however new their accounts
    assert _kinds(duel(make_user("fresh1"), make_user("fresh2"))) == []


# --- the moderators' actions ---------------------------------------------------------------

def _signal():
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    _trace(alice, match, device="e" * 32)
    _trace(bob, match, device="e" * 32, network="198.51.100.0/24")
    return signals_scan(match_id=match.pk)[0]


def test_a_moderator_dismisses_notes_or_opens_a_case_with_an_audit_row_each(moderator):
    signal = _signal()
    noted = signal_act(signal_id=signal.pk, by=moderator, action="note", note="Same flat?")
    assert (noted.action, noted.by, noted.note) == ("note", moderator, "Same flat?")
    signal.refresh_from_db()
    assert signal.status == "open"
    signal_act(signal_id=signal.pk, by=moderator, action="dismiss", note="Brothers.")
    signal.refresh_from_db()
    assert signal.status == "dismissed"
    assert signal_act(signal_id=signal.pk, by=moderator, action="dismiss", note="again") is None
    assert list(SignalAction.objects.values_list("action", flat=True)) == ["note", "dismiss"]
    # Found again, a dismissed signal stays dismissed.
    signals_scan(match_id=signal.match_id)
    signal.refresh_from_db()
    assert signal.status == "dismissed"
    signal_act(signal_id=signal.pk, by=moderator, action="open_case", note="New evidence.")
    signal.refresh_from_db()
    assert signal.status == "case"


def test_acting_on_a_signal_refuses_bad_input_and_players(moderator):
    signal = _signal()
    player = make_user("player")
    cases = [
        ({"by": player, "action": "dismiss", "note": "x"}, "not_allowed"),
        ({"by": moderator, "action": "dismiss", "note": "  "}, "invalid"),
        ({"by": moderator, "action": "ban", "note": "x"}, "invalid"),
        ({"by": moderator, "action": "dismiss", "note": "x" * 2001}, "invalid"),
    ]
    for kwargs, code in cases:
        with pytest.raises(ServiceError) as error:
            signal_act(signal_id=signal.pk, **kwargs)
        assert error.value.code == code
    with pytest.raises(ServiceError) as error:
        signal_act(signal_id="9" * 40, by=moderator, action="note", note="x")
    assert error.value.code == "not_found"
    assert not SignalAction.objects.exists()
    signal.refresh_from_db()
    assert signal.status == "open"


def test_the_admin_queue_dismisses_with_a_note(moderator):
    signal = _signal()
    client = client_for(moderator)
    page = client.get("/admin/signals/signal/")
    assert page.status_code == 200
    assert f"/admin/signals/signal/{signal.pk}/change/" in page.content.decode()
    asked = client.post("/admin/signals/signal/", {"action": "dismiss",
                                                   "_selected_action": [signal.pk]})
    assert asked.status_code == 200 and 'name="note"' in asked.content.decode()
    empty = client.post("/admin/signals/signal/", {"action": "dismiss", "apply": "1",
                                                   "_selected_action": [signal.pk], "note": ""})
    assert empty.status_code == 400
    done = client.post("/admin/signals/signal/", {"action": "dismiss", "apply": "1",
                                                  "_selected_action": [signal.pk],
                                                  "note": "They share a flat."})
    assert done.status_code == 302
    signal.refresh_from_db()
    assert signal.status == "dismissed"
    assert SignalAction.objects.get().note == "They share a flat."
    detail = client.get(f"/admin/signals/signal/{signal.pk}/change/").content.decode()
    assert "They share a flat." in detail and f"/admin/games/match/{signal.match_id}/" in detail


def test_the_signal_page_acts_with_a_note_and_refuses_without(moderator):
    signal = _signal()
    client = client_for(moderator)
    page = client.get(f"/admin/signals/signal/{signal.pk}/change/").content.decode()
    assert 'id="signal-act"' in page and 'name="_save"' not in page
    url = f"/admin/signals/signal/{signal.pk}/act/"
    assert client.post(url, {"act": "open_case", "note": ""}).status_code == 302
    assert client.post(url, {"act": "ban", "note": "x"}).status_code == 302
    signal.refresh_from_db()
    assert signal.status == "open" and not SignalAction.objects.exists()
    assert client.post(url, {"act": "open_case", "note": "Look closer."}).status_code == 302
    signal.refresh_from_db()
    assert signal.status == "case"
    assert client.get(url).status_code == 405
    assert client.post("/admin/signals/signal/999999/act/",
                       {"act": "note", "note": "x"}).status_code == 404
    for user in (signal.first, None):
        assert client_for(user).post(url, {"act": "dismiss", "note": "x"}).status_code in (
            302, 403)
    signal.refresh_from_db()
    assert signal.status == "case" and SignalAction.objects.count() == 1


def test_a_moderator_sees_the_reports_and_signals_of_one_account_together(moderator):
    signal = _signal()
    alice, bob = signal.first, signal.second
    report_file(reporter=bob, reason="Alice plays two seats", match_id=signal.match_id,
                reported_user=alice)
    body = client_for(moderator).get(f"/admin/signals/signal/account/{alice.pk}/")
    text = body.content.decode()
    assert body.status_code == 200
    assert "Alice plays two seats" in text and f"/admin/signals/signal/{signal.pk}/" in text
    assert "203.0.113.0/24" in text
    assert client_for(moderator).get("/admin/signals/signal/account/999999/").status_code == 404


def test_signals_networks_and_devices_are_for_moderators_only(moderator):
    signal = _signal()
    staff = make_user("staffer", staff=True)  # staff, not a moderator
    for user in (signal.first, signal.second, make_user("carol"), staff, None):
        client = client_for(user)
        for url in ("/admin/signals/signal/", f"/admin/signals/signal/{signal.pk}/change/",
                    "/admin/signals/clienttrace/", "/admin/signals/relationship/",
                    f"/admin/signals/signal/account/{signal.first_id}/"):
            response = client.get(url)
            assert response.status_code in (302, 403), (user, url)
            assert "203.0.113.0/24" not in response.content.decode()


# --- players declare relationships -------------------------------------------------------

def test_declaring_a_relationship_from_the_profile_and_its_bad_input():
    alice, bob = make_user("alice"), make_user("bob")
    client = client_for(alice)
    assert client.post("/accounts/relationships/", {"username": "bob", "kind": "club_room"}
                       ).status_code == 302
    assert Relationship.objects.get().kind == "club_room"
    assert "bob" in client.get("/accounts/profile/").content.decode()
    for data, status in (({"username": "nobody", "kind": "household"}, 404),
                         ({"username": "alice", "kind": "household"}, 400),
                         ({"username": "bob", "kind": "household"}, 400),  # declared already
                         ({"username": "bob", "kind": "lovers"}, 400),
                         ({"username": "", "kind": "household"}, 400)):
        assert client.post("/accounts/relationships/", data).status_code == status, data
    mine = Relationship.objects.get()
    assert client_for(make_user("carol")).post(
        f"/accounts/relationships/{mine.pk}/withdraw/").status_code == 404
    assert client_for(bob).post(f"/accounts/relationships/{mine.pk}/withdraw/").status_code == 302
    assert not Relationship.objects.exists()


def test_beat_scans_the_matches_in_play_and_those_ended_lately():
    from games.models import Match
    from portal.signals import tasks

    alice, bob = make_user("alice"), make_user("bob")
    playing, ended = duel(alice, bob), duel(alice, bob)
    Match.objects.filter(pk=ended.pk).update(status="finished",
                                             finished_at=timezone.now() - timedelta(days=8))
    _trace(alice, None, device="f" * 32, kind="login")
    _trace(bob, None, device="f" * 32, kind="login", network="198.51.100.0/24")
    assert tasks.signals_scan.apply().get() == 1
    assert list(Signal.objects.values_list("kind", "match_id")) == [("shared_device", playing.pk)]
