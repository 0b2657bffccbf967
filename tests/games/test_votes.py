"""Votes to end a match (games.services.votes): a draw or a cancel passes only when every seat
still in said yes, fails at the first no, expires once; a moderator's lock stops voting; every
refusal is a clear error, and none does any work."""

from datetime import timedelta

import pytest
from django.utils import timezone

from engine.record import verify_record
from games import records, services
from games.models import Match, MatchBallot, MatchVote, ModerationEntry, Phase, Seat
from games.services import ServiceError
from games.votes import match_votes
from tests.outbox import promised

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio(make_user):
    """A three-seat Final Strategy match: seats 1-3 held by ann, ben and cy."""
    def make(**kwargs):
        users = [make_user(name) for name in ("ann", "ben", "cy")]
        match = services.match_create(
            creator=users[0], game="final-strategy", options={}, hours_per_phase=24,
            seats=[{"kind": "human", "user": u} for u in users], **kwargs)
        match.users = users
        return match
    return make


def propose(match, user, kind="draw", **kwargs):
    return services.vote_propose(match_id=match.pk, user=user, kind=kind, **kwargs)


def vote(match, the_vote, user, yes=True, **kwargs):
    return services.vote_cast(match_id=match.pk, vote_id=the_vote.pk, user=user, yes=yes,
                              **kwargs)


def refused(code, call, *args, **kwargs):
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


def notices(match):
    return [(name, payload["what"]) for name, payload in promised(match.pk)
            if name == "vote_changed"]


def test_a_draw_passes_with_every_vote_and_ends_the_match_with_a_shared_result(toy_duel):
    match = toy_duel()
    draw = propose(match, match.alice)
    assert draw.status == MatchVote.Status.OPEN
    assert notices(match) == [("vote_changed", "opened")]
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # one yes of two is not enough
    vote(match, draw, match.bob)
    draw.refresh_from_db()
    match.refresh_from_db()
    assert draw.status == MatchVote.Status.PASSED and draw.ended_match
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"] == [[1, 2]]
    assert match.result["is_draw"] and match.result["winners"] == []
    assert Phase.objects.get(match=match, number=1).status == Phase.Status.CLOSED
    assert ("match_ended", {"match_id": match.pk, "status": "finished"}) in promised(match.pk)
    # The record replays to the same draw.
    checked = verify_record(records.match_record(match))
    assert checked["ok"], checked


def test_in_a_three_seat_match_two_yes_are_not_enough_and_one_no_fails_it(trio):
    match = trio()
    ann, ben, cy = match.users
    draw = propose(match, ann)
    vote(match, draw, ben)
    draw.refresh_from_db()
    assert draw.status == MatchVote.Status.OPEN  # cy has not voted: a missing vote
    vote(match, draw, cy, yes=False)
    draw.refresh_from_db()
    match.refresh_from_db()
    assert draw.status == MatchVote.Status.FAILED
    assert match.status == Match.Status.ACTIVE and match.result is None
    assert notices(match)[-1] == ("vote_changed", "failed")
    # A new proposal may be made once the last one closed.
    assert propose(match, cy, "draw").status == MatchVote.Status.OPEN


def test_a_missing_vote_fails_the_proposal_when_it_expires_exactly_once(trio, settings):
    match = trio()
    ann, ben, _cy = match.users
    draw = propose(match, ann)
    vote(match, draw, ben)
    assert services.votes_expire() == 0  # not due yet
    later = timezone.now() + timedelta(hours=settings.VOTE_EXPIRY_HOURS, seconds=1)
    assert services.votes_expire(now=later) == 1
    assert services.votes_expire(now=later) == 0  # once
    draw.refresh_from_db()
    match.refresh_from_db()
    assert draw.status == MatchVote.Status.EXPIRED
    assert match.status == Match.Status.ACTIVE
    assert notices(match).count(("vote_changed", "expired")) == 1
    refused("vote_closed", vote, match, draw, match.users[2])


def test_a_passed_cancel_aborts_the_match_without_a_result(toy_duel):
    match = toy_duel()
    cancel = propose(match, match.bob, "cancel")
    vote(match, cancel, match.alice)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    from games.endings import ending_of, ending_sentence

    ending = ending_of(match)
    assert ending.how == "cancel" and ending.seats == (1, 2) and not ending.has_result
    assert match.result["ranking"] == [] and match.result["winners"] == []
    assert "Cancelled by agreement" in ending_sentence(match.game, ending)


def test_clear_refusals_for_everything_else(toy_duel, make_user):
    match = toy_duel()
    stranger = make_user("stranger")
    refused("not_your_seat", propose, match, stranger)
    refused("not_your_seat", propose, match, None)
    refused("invalid", propose, match, match.alice, "surrender")
    refused("invalid", propose, match, match.alice, "draw", secret="yes")
    draw = propose(match, match.alice)
    refused("vote_open", propose, match, match.bob, "draw")
    refused("already_voted", vote, match, draw, match.alice)
    refused("not_your_seat", vote, match, draw, stranger)
    refused("invalid", services.vote_cast, match_id=match.pk, vote_id=draw.pk,
            user=match.bob, yes="maybe")
    refused("not_found", services.vote_cast, match_id=match.pk, vote_id="x", user=match.bob,
            yes=True)
    other = toy_duel()
    refused("not_found", services.vote_cast, match_id=other.pk, vote_id=draw.pk,
            user=other.alice, yes=True)  # a vote of another match
    refused("not_found", propose, Match(pk=10**9), match.alice)
    # Nothing was written by any refusal.
    assert MatchVote.objects.count() == 1 and MatchBallot.objects.count() == 1
    vote(match, draw, match.bob)
    refused("not_active", propose, match, match.alice, "cancel")
    refused("vote_closed", vote, match, draw, match.bob)


def test_a_seat_out_of_the_match_has_no_say(trio):
    match = trio()
    ann, ben, cy = match.users
    services.seat_concede(match_id=match.pk, user=cy)
    refused("seat_out", propose, match, cy)
    draw = propose(match, ann)
    refused("seat_out", vote, match, draw, cy)
    vote(match, draw, ben)  # the two still in agree: cy is out
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"] == [[1, 2], [3]]
    assert match.result["is_draw"]
    assert verify_record(records.match_record(match))["ok"]


def test_a_bot_or_an_empty_seat_cannot_vote_so_nothing_can_be_proposed(make_user):
    alice = make_user("alice")
    match = services.match_create(creator=alice, game="toy-duel", options={},
                                  hours_per_phase=24, seats=[{"kind": "human", "user": alice},
                                                             {"kind": "bot", "bot": "random"}])
    error = refused("no_voter", propose, match, alice)
    assert "bot" in error.message
    assert not MatchVote.objects.exists()


def test_a_moderator_lock_stops_voting_and_is_audited(toy_duel, moderator):
    match = toy_duel()
    draw = propose(match, match.alice, secret=True)
    refused("not_allowed", services.votes_lock, match_id=match.pk, by=match.alice,
            reason="no")
    refused("invalid", services.votes_lock, match_id=match.pk, by=moderator, reason=" ")
    assert services.votes_lock(match_id=match.pk, by=moderator, reason="collusion report")
    assert not services.votes_lock(match_id=match.pk, by=moderator, reason="again")  # no-op
    draw.refresh_from_db()
    assert (draw.status, draw.closed_why) == (MatchVote.Status.CLOSED, MatchVote.Why.LOCKED)
    assert notices(match)[-1] == ("vote_changed", "closed")
    refused("votes_locked", propose, match, match.bob, "cancel")
    refused("vote_closed", vote, match, draw, match.bob)
    entry = ModerationEntry.objects.get(match=match)
    assert entry.kind == ModerationEntry.Kind.VOTES_LOCK and entry.by == moderator
    assert entry.reason == "collusion report"
    assert services.votes_lock(match_id=match.pk, by=moderator, reason="cleared",
                               locked=False)
    assert propose(match, match.bob, "cancel").status == MatchVote.Status.OPEN
    assert [e.kind for e in ModerationEntry.objects.filter(match=match)] == [
        ModerationEntry.Kind.VOTES_LOCK, ModerationEntry.Kind.VOTES_UNLOCK]


def test_a_vote_left_open_when_the_match_ends_otherwise_is_closed_quietly(toy_duel):
    match = toy_duel()
    draw = propose(match, match.alice)
    services.seat_concede(match_id=match.pk, user=match.bob)
    draw.refresh_from_db()
    assert (draw.status, draw.closed_why) == (MatchVote.Status.CLOSED, MatchVote.Why.ENDED)
    match.refresh_from_db()
    assert match.result["winners"] == [1]


def test_the_expiry_sweep_closes_votes_of_matches_that_ended(toy_duel, moderator):
    match = toy_duel()
    draw = propose(match, match.alice)
    services.match_moderate_abort(match_id=match.pk, by=moderator, reason="spam")
    assert services.votes_expire() == 0
    draw.refresh_from_db()
    assert (draw.status, draw.closed_why) == (MatchVote.Status.CLOSED, MatchVote.Why.ENDED)
    assert ("vote_changed", "expired") not in notices(match)


def test_a_vote_racing_a_resolution_never_ends_a_match_twice(toy_duel):
    """Both take the match lock: after the rules ended the match, a yes is refused."""
    match = toy_duel(options={"target": 1})
    draw = propose(match, match.alice)
    for user, seat, number in ((match.alice, 1, 5), (match.bob, 2, 1)):
        services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                               phase_number=1, data={"number": number}, source="web")
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    refused("not_active", vote, match, draw, match.bob)
    match.refresh_from_db()
    assert match.result["winners"] == [1] and not match.result["is_draw"]


def test_every_refusal_says_what_is_wrong_in_french_too(toy_duel, make_user):
    from django.utils import translation

    match = toy_duel()
    with translation.override("fr"):
        error = refused("not_your_seat", propose, match, make_user("pierre"))
    assert error.message != "You have no seat in this match."


def test_seats_that_conceded_take_part_again_after_a_roll_back(trio, moderator):
    match = trio()
    ann, ben, cy = match.users
    for user in (ann, ben):  # two turns played
        match.refresh_from_db()
        seat = Seat.objects.get(match=match, user=user)
        _play_default_turn(match, seat, user)
    services.seat_concede(match_id=match.pk, user=cy)
    assert Seat.objects.get(match=match, user=cy).status == Seat.Status.CONCEDED
    services.match_rollback(match_id=match.pk, to_phase=2, by=moderator, reason="mistake")
    assert Seat.objects.get(match=match, user=cy).status == Seat.Status.TAKEN
    match.refresh_from_db()
    assert match.state["removed"] == []
    concession = MatchVote.objects.get(match=match, kind="concede")
    assert concession.closed_why == MatchVote.Why.ROLLED_BACK


def _play_default_turn(match, seat, user):
    import engine

    game = engine.get(match.game)
    sheet = game.default_submission(match.state, seat.number)
    sheet.pop("default", None)
    services.orders_submit(match_id=match.pk, seat_number=seat.number, user=user,
                           phase_number=match.phase_number, data=sheet, source="web")


def test_a_seat_changing_hands_closes_the_open_proposals_and_its_newcomer_is_asked_anew(
        trio, make_user):
    """A yes binds the player who gave it, not whoever takes the seat over: the proposals put
    to a player who leaves close (everyone is told), and the earlier ballots stay theirs."""
    match = trio()
    ann, ben, cy = match.users
    draw = propose(match, ann)
    vote(match, draw, cy)  # Cy says yes, then leaves
    services.seat_leave(match_id=match.pk, user=cy)
    draw.refresh_from_db()
    assert (draw.status, draw.closed_why) == (MatchVote.Status.CLOSED,
                                              MatchVote.Why.SEAT_CHANGED)
    assert notices(match)[-1] == ("vote_changed", "closed")
    refused("vote_closed", vote, match, draw, ben)  # Ben's yes cannot pass it now
    refused("no_voter", propose, match, ben)  # a bot covers seat 3: nobody to ask
    dan = make_user("dan")
    services.seat_take(token=Seat.objects.get(match=match, number=3).offer_token, user=dan)
    again = propose(match, ann)
    vote(match, again, ben)
    again.refresh_from_db()
    assert again.status == MatchVote.Status.OPEN  # Dan has not said yes
    shown = match_votes(match, dan)
    (earlier,) = shown["closed"]
    assert [b["name"] for b in earlier["ballots"]] == ["Red (ann)", "Green (cy)"]
    assert earlier["my_ballot"] is None and not earlier["proposed_by_me"]
    assert earlier["closed_why"] == "a seat changed hands"
    assert shown["open"][0]["waiting_for"] == [{"seat": 3, "name": "Green (dan)"}]
    vote(match, again, dan)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["is_draw"]


def test_a_seat_flagged_after_missed_deadlines_closes_the_open_proposals(toy_duel):
    match = toy_duel(miss_limit=1)
    draw = propose(match, match.alice)
    services.orders_submit(match_id=match.pk, seat_number=1, user=match.alice,
                           phase_number=1, data={"number": 1}, source="web")
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, number=1).update(deadline=past)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)  # Bob missed it
    assert Seat.objects.get(match=match, number=2).status == Seat.Status.FLAGGED
    draw.refresh_from_db()
    assert (draw.status, draw.closed_why) == (MatchVote.Status.CLOSED,
                                              MatchVote.Why.SEAT_CHANGED)
    assert ("vote_changed", "closed") in notices(match)


def test_a_moderator_handing_a_seat_on_closes_the_open_proposals(trio, moderator, make_user):
    match = trio()
    ann, _ben, cy = match.users
    draw = propose(match, ann)
    services.seat_moderate_replace(match_id=match.pk, seat_number=3, by=moderator,
                                   reason="swap", user=make_user("eve"))
    draw.refresh_from_db()
    assert (draw.status, draw.closed_why) == (MatchVote.Status.CLOSED,
                                              MatchVote.Why.SEAT_CHANGED)
    assert cy not in [seat.user for seat in Seat.objects.filter(match=match)]
