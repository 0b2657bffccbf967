"""Seats that find a new commander (games.services.seeking) and the one missed-turn policy:
a seat left by its player or flagged by the match's policy seeks a commander (lobby, link),
the bot covers it if the match allows, a newcomer takes it through its link with a record of
their own (tenures), ladders rate the tenure holding the seat at the end; the match's policy
alone takes a Final Strategy seat off the board."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import engine
from competitions.services.ladders import match_ranking_users
from durable import outbox
from durable.models import OutboxEvent
from engine.record import phase_replay
from games import services
from games.models import (
    DeadlineMiss,
    Match,
    MatchReliability,
    ModerationEntry,
    Phase,
    Reliability,
    Seat,
    SeatTenure,
    Submission,
)
from games.services import ServiceError
from portal.mail.models import OutgoingEmail
from tests.games.test_reliability import give_record
from tests.helpers import client_for, submit

pytestmark = pytest.mark.django_db


def dispatch() -> None:
    """Carry out every promised side effect (bots' turns, mails, records), as the workers do
    after each commit, until nothing is left."""
    while ids := list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk",
                                                                                 flat=True)):
        outbox.outbox_dispatch(ids=ids)


def duel(alice, bob, **kwargs) -> Match:
    args = {"options": {"target": 9}, "hours_per_phase": 24}
    args.update(kwargs)
    return services.match_create(
        creator=alice, game="toy-duel", title="Seat duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}], **args)


def miss_deadline(match) -> None:
    """The open phase's deadline passes and the sweeper's resolution runs."""
    match.refresh_from_db()
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, status="open").update(deadline=past)
    assert services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)


def seat(match, number) -> Seat:
    return Seat.objects.get(match=match, number=number)


def take_url(token: str) -> str:
    return reverse("games:seat_take", args=[token])


# -- the acceptance story ------------------------------------------------------------------

def test_a_flagged_seat_is_covered_by_the_bot_then_taken_through_its_link(make_user):
    """Bob misses his limit: his command ends, the seat is offered by a link and the bot
    plays it; Carol takes it through the link; Bob's record keeps his misses, Carol's starts
    clean; the ladder rates Carol, who held the seat at the end."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob, miss_limit=2, autopilot=True, options={"target": 3})
    for _ in range(2):
        submit(match, alice, 1, 3)
        miss_deadline(match)  # Bob's default: a miss, then his limit
    dispatch()
    flagged = seat(match, 2)
    assert (flagged.user, flagged.status, flagged.bot) == (None, Seat.Status.FLAGGED, "random")
    assert flagged.offer_token and flagged.on_autopilot
    # Bob cannot act in it any more.
    with pytest.raises(ServiceError) as refused:
        submit(match, bob, 2, 5)
    assert refused.value.code == "not_your_seat"
    # Meanwhile the bot covers the seat's turns: its sheet comes with the phase.
    match.refresh_from_db()
    covered = match.phase_number
    assert Submission.objects.get(phase__match=match, phase__number=covered,
                                  seat__number=2).source == Submission.Source.BOT
    submit(match, alice, 1, 1)  # the phase is complete: resolved now
    assert services.phase_resolve(match_id=match.pk, phase_number=covered)
    dispatch()
    assert Phase.objects.get(match=match, number=covered).revealed["2"]["source"] == "bot"
    # The seat's link: Carol sees it as a spectator, confirms, and takes command.
    page = client_for(carol).get(reverse("games:seat_offer", args=[flagged.offer_token]))
    assert page.status_code == 200 and "Take command of seat 2" in page.content.decode()
    answer = client_for(carol).post(take_url(flagged.offer_token), {"confirm": "on"})
    assert answer.status_code == 302 and answer["Location"] == f"/matches/{match.pk}/"
    taken = seat(match, 2)
    assert (taken.user, taken.status, taken.bot, taken.offer_token, taken.missed_in_row) == (
        carol, Seat.Status.TAKEN, "", None, 0)
    # The link is spent.
    assert client_for(make_user("dave")).get(
        reverse("games:seat_offer", args=[flagged.offer_token])).status_code == 404
    # Carol plays to the end (first to 3 points).
    while Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE:
        submit(match, alice, 1, 1)
        submit(match, carol, 2, 5)
        match.refresh_from_db()
        services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
    dispatch()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [2]

    assert set(DeadlineMiss.objects.filter(match=match).values_list("user__username",
                                                                    flat=True)) == {"bob"}
    tenures = {t.user.username: t for t in SeatTenure.objects.filter(match=match)}
    assert (tenures["bob"].ending, tenures["carol"].ending, tenures["alice"].ending) == (
        SeatTenure.Ending.MISSED, SeatTenure.Ending.END, SeatTenure.Ending.END)
    bob_record, carol_record = (Reliability.objects.get(user=u) for u in (bob, carol))
    assert (bob_record.matches_abandoned, bob_record.deadlines, bob_record.deadlines_missed,
            bob_record.score) == (1, 2, 2, 0)
    assert (carol_record.matches_finished, carol_record.deadlines_missed,
            carol_record.score) == (1, 0, 100)
    assert carol_record.deadlines == match.phase_number - covered
    rows = MatchReliability.objects.filter(update__match=match)
    assert sorted(rows.values_list("outcome", flat=True)) == ["abandoned", "finished",
                                                             "finished"]
    assert match_ranking_users(match) == [[carol.pk], [alice.pk]]


def test_without_autopilot_a_flagged_seat_plays_its_defaults_and_counts_against_nobody(
        make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, miss_limit=1)
    submit(match, alice, 1, 3)
    miss_deadline(match)
    dispatch()
    assert seat(match, 2).bot == "" and seat(match, 2).seeking
    for _ in range(2):
        submit(match, alice, 1, 3)
        miss_deadline(match)
    dispatch()
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # never forfeited: nobody holds it
    assert DeadlineMiss.objects.filter(match=match).count() == 1  # Bob's only
    assert seat(match, 2).status == Seat.Status.FLAGGED


# -- leaving a match in play -----------------------------------------------------------------

def test_a_player_who_leaves_a_match_in_play_hands_the_seat_over(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, autopilot=True)
    page = client_for(bob).get(reverse("games:match", args=[match.pk])).content.decode()
    assert "Leave and hand my seat over" in page
    # Without the box ticked: refused, nothing changed.
    refused = client_for(bob).post(reverse("games:leave", args=[match.pk]))
    assert refused.status_code == 400
    assert "Tick the box to confirm" in refused.content.decode()
    assert seat(match, 2).user == bob
    answer = client_for(bob).post(reverse("games:leave", args=[match.pk]), {"confirm": "on"})
    assert answer.status_code == 302
    left = seat(match, 2)
    assert (left.user, left.status, left.bot) == (None, Seat.Status.FLAGGED, "random")
    tenure = SeatTenure.objects.get(match=match, user=bob)
    assert tenure.ending == SeatTenure.Ending.LEFT and tenure.ended_at is not None
    # The bot owes the open phase's sheet: promised at once, played by the worker.
    dispatch()
    assert Submission.objects.get(phase__match=match, phase__number=1,
                                  seat__number=2).source == Submission.Source.BOT
    # The match page says so, with the link, to anyone (a public match).
    html = client_for(None).get(reverse("games:match", args=[match.pk])).content.decode()
    assert "Seeking a commander" in html and "on autopilot (random bot)" in html
    assert reverse("games:seat_offer", args=[left.offer_token]) in html
    # Bob may not leave twice.
    with pytest.raises(ServiceError) as again:
        services.seat_leave(match_id=match.pk, user=bob)
    assert again.value.code == "not_your_seat"


def test_the_newcomers_sheet_replaces_the_bots_for_the_open_phase(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob, autopilot=True)
    services.seat_leave(match_id=match.pk, user=bob)
    dispatch()
    token = seat(match, 2).offer_token
    services.seat_take(token=token, user=carol)
    receipt = submit(match, carol, 2, 4)
    sheet = Submission.objects.get(phase__match=match, phase__number=1, seat__number=2)
    assert (sheet.source, sheet.data, sheet.revision) == ("web", {"number": 4}, 2)
    assert receipt.revision == 2


# -- taking: who may --------------------------------------------------------------------------

def test_taking_a_seat_is_refused_with_a_reason(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    mod = make_user("mod", is_staff=True, is_superuser=True)
    match = duel(alice, bob, min_reliability=80)
    services.seat_leave(match_id=match.pk, user=bob)
    token = seat(match, 2).offer_token
    cases = [
        (None, {"confirm": "on"}, 302),  # log in first
        (carol, {}, 400),  # not confirmed
        (alice, {"confirm": "on"}, 409),  # already seated
        (carol, {"confirm": "on"}, 403),  # no reliability record: below the minimum
    ]
    for user, data, status in cases:
        answer = client_for(user).post(take_url(token), data)
        assert answer.status_code == status, (user, data, answer.content.decode()[:300])
        if user is None:
            assert "login" in answer["Location"]
    assert "reliability of at least 80" in client_for(carol).post(
        take_url(token), {"confirm": "on"}).content.decode()
    # Every refusal in the reader's language, the seats named as the match page names them.
    french = client_for(alice).post(take_url(token), {"confirm": "on"},
                                    HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Vous avez déjà une place dans cette partie." in french
    assert "Cette partie demande une fiabilité" in client_for(carol).post(
        take_url(token), {"confirm": "on"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    # A player a moderator removed may not come back by the link.
    give_record(carol, finished=3)
    dave = make_user("dave")
    give_record(dave, finished=3)
    services.seat_take(token=token, user=carol)
    services.seat_kick(match_id=match.pk, seat_number=2, by=mod, reason="abuse")
    kicked = seat(match, 2)
    assert kicked.seeking and SeatTenure.objects.get(match=match, user=carol).ending == "kicked"
    with pytest.raises(ServiceError) as refused:
        services.seat_take(token=kicked.offer_token, user=carol)
    assert refused.value.code == "kicked"
    services.seat_take(token=kicked.offer_token, user=dave)
    # Junk, spent and ended links: 404 with a sentence, nothing taken.
    for junk in ("x", "no-such-token-at-all", token):
        assert client_for(dave).get(reverse("games:seat_offer", args=[junk])).status_code == 404
        assert client_for(carol).post(take_url(junk), {"confirm": "on"}).status_code == 404
    services.seat_leave(match_id=match.pk, user=dave)
    token = seat(match, 2).offer_token
    services.match_abort(match_id=match.pk, by=alice, note="over")
    page = client_for(carol).get(reverse("games:seat_offer", args=[token]))
    assert page.status_code == 404 and "no longer looking" in page.content.decode()
    with pytest.raises(ServiceError):
        services.seat_take(token=token, user=carol)
    assert ModerationEntry.objects.filter(match=match, kind="kick").count() == 1


def test_a_player_flagged_after_misses_may_take_the_seat_back_as_a_new_tenure(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, miss_limit=1)
    submit(match, alice, 1, 3)
    miss_deadline(match)
    services.seat_take(token=seat(match, 2).offer_token, user=bob)
    tenures = list(SeatTenure.objects.filter(match=match, user=bob).order_by("started_at"))
    assert [(t.ending, t.ended_at is None) for t in tenures] == [("missed", False), ("", True)]


def test_a_private_matchs_seat_is_offered_by_its_link_only(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob, is_public=False)
    services.seat_leave(match_id=match.pk, user=bob)
    token = seat(match, 2).offer_token
    lobby = client_for(carol).get(reverse("games:lobby")).content.decode()
    assert token not in lobby
    assert client_for(carol).get(reverse("games:match", args=[match.pk])).status_code == 404
    page = client_for(carol).get(reverse("games:seat_offer", args=[token]))
    assert page.status_code == 200 and "Seat duel" in page.content.decode()
    assert reverse("games:seat_offer", args=[token]) in client_for(alice).get(
        reverse("games:match", args=[match.pk])).content.decode()
    services.seat_take(token=token, user=carol)
    assert client_for(carol).get(reverse("games:match", args=[match.pk])).status_code == 200


def test_the_lobby_lists_public_seats_seeking_a_commander(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, autopilot=True)
    assert "Seeking a commander" not in client_for(None).get(
        reverse("games:lobby")).content.decode()
    services.seat_leave(match_id=match.pk, user=bob)
    html = client_for(None).get(reverse("games:lobby")).content.decode()
    assert "Seeking a commander" in html and "Seat 2 (South) of Seat duel" in html
    assert reverse("games:seat_offer", args=[seat(match, 2).offer_token]) in html
    assert "a bot plays it meanwhile" in html
    french = Client(HTTP_ACCEPT_LANGUAGE="fr")
    html = french.get(reverse("games:lobby")).content.decode()
    assert "Cherche un commandant" in html
    # A seat whose game names it in English words is named in the reader's language.
    trio = [make_user(name) for name in ("rosa", "blaise", "vera")]
    fs = services.match_create(creator=trio[0], game="final-strategy", options={},
                               hours_per_phase=24, title="Trio",
                               seats=[{"kind": "human", "user": user} for user in trio])
    services.seat_leave(match_id=fs.pk, user=trio[1])
    html = french.get(reverse("games:lobby")).content.decode()
    assert "Place 2 (Bleu) de Trio" in html
    offer = french.get(reverse("games:seat_offer", args=[seat(fs, 2).offer_token]))
    assert "La place 2 (Bleu) de Trio" in offer.content.decode()
    assert "2. Bleu :" in offer.content.decode() and "Blue" not in offer.content.decode()


# -- notifications ---------------------------------------------------------------------------

def test_the_other_players_are_mailed_the_link_and_who_took_the_seat(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob, miss_limit=1)
    submit(match, alice, 1, 3)
    miss_deadline(match)
    dispatch()
    token = seat(match, 2).offer_token
    offered = {m.to: m for m in OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.SEAT)}
    assert set(offered) == {alice.email, bob.email}
    assert token in offered[alice.email].body_text and "seeks a new commander" in \
        offered[alice.email].subject
    assert "you may take it back" in offered[bob.email].body_text
    dispatch()  # again: nothing new
    assert OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.SEAT).count() == 2
    services.seat_take(token=token, user=carol)
    dispatch()
    [taken] = OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.SEAT,
                                           subject__contains="took command")
    assert taken.to == alice.email and "carol took command of seat 2" in taken.body_text


def test_a_player_who_left_or_was_removed_gets_no_link(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    services.seat_leave(match_id=match.pk, user=bob)
    dispatch()
    assert list(OutgoingEmail.objects.filter(kind="seat").values_list("to", flat=True)) == [
        alice.email]


# -- ladders ---------------------------------------------------------------------------------

def test_a_seat_nobody_holds_at_the_end_is_left_out_of_the_rating(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, autopilot=True, options={"target": 1})
    services.seat_leave(match_id=match.pk, user=bob)
    while match.status == Match.Status.ACTIVE:  # (the bot may tie a round: play on)
        dispatch()  # the bot plays seat 2
        submit(match, alice, 1, 5)
        services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)
        match.refresh_from_db()
    dispatch()
    assert match.status == Match.Status.FINISHED
    assert match_ranking_users(match) is None  # one person left: nothing to rate
    assert Reliability.objects.get(user=bob).matches_abandoned == 1


# -- the API ---------------------------------------------------------------------------------

def test_the_api_lists_takes_and_leaves_seats(make_user):
    from portal.api.services import api_token_create

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob, autopilot=True)

    tokens = {user.pk: api_token_create(user=user, name="t").token for user in (alice, bob,
                                                                              carol)}

    def call(user, method, path, body=None):
        client = Client(HTTP_AUTHORIZATION=f"Bearer {tokens[user.pk]}")
        send = client.get if method == "get" else client.post
        return send(f"/api/v1{path}", *([body] if body is not None else []),
                    content_type="application/json")

    refused = call(bob, "post", f"/matches/{match.pk}/leave", {})
    assert refused.status_code == 400 and "confirm" in refused.json()["message"]
    left = call(bob, "post", f"/matches/{match.pk}/leave", {"confirm": True})
    assert left.status_code == 200 and left.json()["seeking"] is True
    [listed] = call(carol, "get", "/lobby/seeking").json()
    assert (listed["match_id"], listed["seat"], listed["autopilot"]) == (match.pk, 2, True)
    view = call(carol, "get", f"/matches/{match.pk}").json()
    assert [s["seeking"] for s in view["seats"]] == [False, True]
    assert call(carol, "post", "/seeking/take", {"token": listed["token"]}).status_code == 400
    assert call(alice, "post", "/seeking/take",
                {"token": listed["token"], "confirm": True}).status_code == 409
    took = call(carol, "post", "/seeking/take", {"token": listed["token"], "confirm": True})
    assert took.status_code == 200 and took.json() == {"match_id": match.pk, "seat": 2,
                                                       "match_status": "active"}
    assert call(carol, "get", "/lobby/seeking").json() == []
    assert call(carol, "post", "/seeking/take",
                {"token": listed["token"], "confirm": True}).status_code == 404


# -- one missed-turn policy: Final Strategy -------------------------------------------------

def final_strategy(alice, **kwargs) -> Match:
    return services.match_create(
        creator=alice, game="final-strategy", options={}, hours_per_phase=24,
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "greedy"},
               {"kind": "bot", "bot": "random"}], **kwargs)


def alice_misses_her_turn(match, *, then_bots: bool = True) -> None:
    dispatch()  # the bots play until it is Alice's turn
    match.refresh_from_db()
    assert match.state["to_move"] == 1
    miss_deadline(match)
    if then_bots:
        dispatch()


def test_final_strategy_removes_a_seat_by_the_matchs_policy_only(make_user):
    """The match's limit (5) decides, not the engine's old own limit of 3: after three missed
    turns Alice is still on the board; after five the policy (forfeit) takes her seat out as
    the game says (her troops stay, she ranks last) and the others play on. The removal is an
    input of the phase: replaying it gives the same events and state."""
    alice = make_user("alice")
    match = final_strategy(alice, miss_policy="forfeit", miss_limit=5)
    for _ in range(3):
        alice_misses_her_turn(match)
    match.refresh_from_db()
    assert match.state["removed"] == [] and seat(match, 1).status == Seat.Status.TAKEN
    alice_misses_her_turn(match)
    alice_misses_her_turn(match, then_bots=False)
    match.refresh_from_db()
    assert match.state["removed"] == [1] and seat(match, 1).status == Seat.Status.FORFEITED
    assert match.status == Match.Status.ACTIVE and match.state["to_move"] == 2
    game = engine.get("final-strategy")
    assert 1 not in game.prompts(match.state)
    [phase] = [p for p in Phase.objects.filter(match=match, status="resolved")
               if p.revealed.get("1", {}).get("removed")]
    assert phase.revealed["1"]["source"] == "default"
    assert phase.events[-1] == {"type": "remove", "seat": 1}
    state, events = phase_replay(game, phase.state_before, match.seed, {
        "number": phase.number, "kind": phase.kind, "resolved_at": phase.resolved_at.isoformat(),
        "submissions": [{"seat": int(n), "data": s["data"]} for n, s in phase.revealed.items()],
        "removed": [1]})
    assert events == [phase.events] and state == match.state
    assert SeatTenure.objects.get(match=match, user=alice).ending == "forfeited"
    dispatch()  # the two bots play on to the end; Alice's seat ranks last
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"][-1] == [1]


def test_final_strategy_replace_policy_keeps_the_seat_on_the_board_for_a_new_commander(
        make_user):
    alice = make_user("alice")
    match = final_strategy(alice, miss_limit=2, autopilot=True)
    alice_misses_her_turn(match)
    alice_misses_her_turn(match, then_bots=False)
    match.refresh_from_db()
    offered = seat(match, 1)
    assert offered.seeking and offered.on_autopilot and match.state["removed"] == []
    assert match.status == Match.Status.ACTIVE
    dispatch()  # the bots, the autopilot in seat 1 among them, play on
    turns = [p for p in Phase.objects.filter(match=match, status="resolved")
             if p.revealed.get("1", {}).get("source") == "bot"]
    assert turns  # the bot played seat 1's turns
    match.refresh_from_db()
    assert 1 not in match.state["removed"]
