"""Plans (conditional moves) in Final Strategy: a branch played at once when the moves before
it match, the plan cleared when they do not, a nested plan followed over several turns, a
planned move no longer legal dropped with a notice, three and four seats, the bounds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import engine
from durable.models import OutboxEvent
from games import services
from games.models import ConditionalPlan, Match, Phase, Submission
from games.plans import NOTICE_ENDED, NOTICE_ILLEGAL, NOTICE_UNMATCHED
from games.services import ServiceError
from games.services.plans import MAX_DEPTH
from tests.helpers import submit

pytestmark = pytest.mark.django_db


def wall(*edges: str) -> dict:
    return {"steps": [{"barrier": edge} for edge in edges]}


def branch(when: list[tuple[int, dict]], play: dict, then: list | None = None) -> dict:
    return {"when": [{"seat": seat, "move": move} for seat, move in when], "play": play,
            "then": then or []}


@pytest.fixture
def fs_match(make_user):
    def make(seats: int = 2):
        users = [make_user(name) for name in ("ann", "ben", "cat", "dan")[:seats]]
        match = services.match_create(
            creator=users[0], game="final-strategy", options={}, hours_per_phase=12,
            seats=[{"kind": "human", "user": user} for user in users])
        match.players = dict(enumerate(users, start=1))
        return match
    return make


def plan(match, seat, tree):
    return services.plan_set(match_id=match.pk, seat_number=seat, user=match.players[seat],
                             tree=tree)


def move(match, seat, data):
    return submit(match, match.players[seat], seat, data=data)


def sheet_of(match, number):
    return Phase.objects.get(match=match, number=number).revealed


def test_a_matching_branch_is_played_at_once_and_the_match_moves_on(fs_match):
    match = fs_match()
    plan(match, 2, [branch([(1, wall("e5-e6"))], wall("c3-c4")),
                    branch([(1, wall("g7-g8"))], wall("b2-b3"))])
    move(match, 1, wall("e5-e6"))
    assert match.phase_number == 3 and match.state["to_move"] == 1
    played = Submission.objects.get(phase__match=match, phase__number=2)
    assert played.source == Submission.Source.CONDITIONAL and played.receipt
    assert played.data == wall("c3-c4")
    assert sheet_of(match, 2)["2"]["source"] == "conditional"
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.played == 1 and left.notice["reason"] == NOTICE_ENDED


def test_a_plan_whose_condition_is_not_met_is_cleared_and_the_seat_told(fs_match):
    match = fs_match()
    plan(match, 2, [branch([(1, wall("e5-e6"))], wall("c3-c4"))])
    move(match, 1, wall("d4-e4"))
    assert match.phase_number == 2 and match.state["to_move"] == 2  # seat 2 plays by hand
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.notice["reason"] == NOTICE_UNMATCHED
    assert left.notice["played"] == [{"seat": 1, "move": wall("d4-e4")}]
    move(match, 2, wall("c3-c4"))
    assert match.phase_number == 3


def test_a_nested_plan_is_followed_over_several_turns(fs_match):
    match = fs_match()
    tree = [branch([(1, wall("e5-e6"))], wall("c3-c4"), [
        branch([(1, wall("g7-g8"))], wall("b2-b3"), [
            branch([(1, wall("h2-h3"))], wall("a9-b9"), [
                branch([(1, wall("f1-f2"))], wall("j5-j6"))])]),
        branch([(1, wall("d8-d9"))], wall("i4-i5"))])]
    plan(match, 2, tree)
    for edge in ("e5-e6", "g7-g8", "h2-h3", "f1-f2"):
        move(match, 1, wall(edge))
    assert match.phase_number == 9 and match.state["to_move"] == 1
    played = [Submission.objects.get(phase__match=match, phase__number=n).data
              for n in (2, 4, 6, 8)]
    assert played == [wall("c3-c4"), wall("b2-b3"), wall("a9-b9"), wall("j5-j6")]
    assert ConditionalPlan.objects.get(match=match).played == 4


def test_the_plan_stored_on_the_seats_own_turn_starts_after_its_move(fs_match):
    match = fs_match()
    plan(match, 1, [branch([(2, wall("e5-e6"))], wall("c3-c4"))])
    move(match, 1, wall("g7-g8"))   # its own turn, by hand: the plan waits
    assert match.phase_number == 2
    move(match, 2, wall("e5-e6"))
    assert match.phase_number == 4
    assert Submission.objects.get(phase__match=match, phase__number=3).source == "conditional"


def test_a_planned_move_no_longer_legal_is_dropped_with_a_notice(fs_match):
    match = fs_match()
    plan(match, 2, [branch([(1, wall("e5-e6"))], wall("e5-e6"))])  # taken by then
    move(match, 1, wall("e5-e6"))
    assert match.phase_number == 2 and match.state["to_move"] == 2
    assert not Submission.objects.filter(phase__match=match, phase__number=2).exists()
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.notice["reason"] == NOTICE_ILLEGAL
    assert "already a barrier" in left.notice["problems"][0]


def test_with_three_seats_the_condition_covers_every_seat_in_between(fs_match):
    match = fs_match(3)
    plan(match, 1, [branch([(2, wall("e5-e6")), (3, wall("g7-g8"))], wall("c3-c4"))])
    move(match, 1, wall("b2-b3"))
    move(match, 2, wall("e5-e6"))
    move(match, 3, wall("g7-g8"))
    assert match.phase_number == 5 and match.state["to_move"] == 2
    assert Submission.objects.get(phase__match=match, phase__number=4).source == "conditional"


def test_plans_of_several_seats_are_played_one_after_the_other(fs_match):
    match = fs_match(4)
    plan(match, 2, [branch([(1, wall("e5-e6"))], wall("c3-c4"))])
    plan(match, 3, [branch([(1, wall("e5-e6")), (2, wall("c3-c4"))], wall("g7-g8"))])
    plan(match, 4, [branch([(1, wall("e5-e6")), (2, wall("c3-c4"))], wall("b2-b3"))])
    move(match, 1, wall("e5-e6"))
    # seats 2 and 3 played from their plans; seat 4's condition missed seat 3's move
    assert match.phase_number == 4 and match.state["to_move"] == 4
    assert ConditionalPlan.objects.get(seat__number=4).notice["reason"] == NOTICE_UNMATCHED


def test_a_turn_played_by_default_sets_off_the_next_plan(fs_match):
    match = fs_match()
    steps = engine.get("final-strategy").default_submission(match.state, 1)["steps"]
    plan(match, 2, [branch([(1, {"steps": steps})], wall("c3-c4"))])
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match).update(deadline=past)
    assert services.phase_resolve(match_id=match.pk, phase_number=1)
    promised = OutboxEvent.objects.get(name="games.tasks.plans_follow")
    assert promised.payload == {"match_id": match.pk, "phase_number": 2}
    assert services.plans_follow_task(**promised.payload) == 1
    assert services.plans_follow_task(**promised.payload) == 0  # done once
    match.refresh_from_db()
    assert match.phase_number == 3
    assert Submission.objects.get(phase__match=match, phase__number=2).source == "conditional"


def test_a_plan_is_refused_when_badly_formed_or_too_deep(fs_match):
    match = fs_match()
    with pytest.raises(ServiceError) as caught:
        plan(match, 2, [branch([(1, {"steps": [{"barrier": "z1-z2"}]})], wall("c3-c4"))])
    assert caught.value.code == "invalid"
    assert caught.value.problems[0].path.startswith("0.when.0.move")
    with pytest.raises(ServiceError) as caught:
        plan(match, 2, [branch([(2, wall("e5-e6"))], wall("c3-c4"))])  # its own seat
    assert caught.value.problems[0].path == "0.when.0"
    deep: list = []
    for _level in range(MAX_DEPTH + 1):
        deep = [branch([(1, wall("e5-e6"))], wall("c3-c4"), deep)]
    with pytest.raises(ServiceError):
        plan(match, 2, deep)
    with pytest.raises(ServiceError) as caught:
        plan(match, 2, "nonsense")
    assert not ConditionalPlan.objects.exists()


def test_only_the_seats_player_sets_or_clears_its_plan(fs_match):
    match = fs_match()
    with pytest.raises(ServiceError) as caught:
        services.plan_set(match_id=match.pk, seat_number=2, user=match.players[1], tree=[])
    assert caught.value.code == "not_your_seat"
    plan(match, 2, [branch([(1, wall("e5-e6"))], wall("c3-c4"))])
    with pytest.raises(ServiceError):
        services.plan_clear(match_id=match.pk, seat_number=2, user=match.players[1])
    assert services.plan_clear(match_id=match.pk, seat_number=2, user=match.players[2])
    assert not ConditionalPlan.objects.exists()


def test_a_plan_ends_with_its_players_command(fs_match, make_user):
    match = fs_match()
    plan(match, 2, [branch([(1, wall("e5-e6"))], wall("c3-c4"))])
    seat = match.seats.get(number=2)
    seat.user = make_user("eve")
    seat.save(update_fields=["user"])
    move(match, 1, wall("e5-e6"))
    assert match.state["to_move"] == 2 and not ConditionalPlan.objects.exists()


def test_a_game_without_plans_refuses_one(toy_duel):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        services.plan_set(match_id=match.pk, seat_number=1, user=match.seats.get(
            number=1).user, tree=[])
    assert caught.value.code == "unsupported_phase"


PLAN_TEXT = """if Blue: wall e5-e6 then wall c3-c4
  if Blue: wall g7-g8 then wall b2-b3
if 2: wall d4-e4 then bomb h8"""


def test_a_plan_is_written_in_words_and_read_back(fs_match):
    from games.plans import plan_described

    match = fs_match()
    stored = services.plan_set(match_id=match.pk, seat_number=1, user=match.players[1],
                               text=PLAN_TEXT)
    assert stored.tree == [
        branch([(2, wall("e5-e6"))], wall("c3-c4"), [branch([(2, wall("g7-g8"))],
                                                              wall("b2-b3"))]),
        branch([(2, wall("d4-e4"))], {"steps": [{"bomb": "h8"}]})]
    described = plan_described(engine.get("final-strategy"), match.state, 1, stored)
    assert [line["text"] for line in described["words"]] == [
        "If Blue plays “wall e5-e6”, play “wall c3-c4”.",
        "If Blue plays “wall g7-g8”, play “wall b2-b3”.",
        "If Blue plays “wall d4-e4”, play “bomb h8”."]
    assert [line["depth"] for line in described["words"]] == [0, 1, 0]
    again = services.plan_set(match_id=match.pk, seat_number=1, user=match.players[1],
                              text=described["text"])
    assert again.tree == stored.tree


def test_a_plan_in_words_names_each_line_it_cannot_read(fs_match):
    match = fs_match()
    with pytest.raises(ServiceError) as caught:
        services.plan_set(match_id=match.pk, seat_number=1, user=match.players[1],
                          text="if Blue: wall e5-e6 then wall z1-z2\nplay c3\nif Red: "
                               "wall e5-e6 then wall c3-c4")
    assert [problem.path for problem in caught.value.problems] == ["line 1", "line 2",
                                                                    "line 3"]
    assert not ConditionalPlan.objects.exists()


def test_a_plan_left_waiting_by_a_turn_played_by_hand_is_cleared(fs_match):
    """A turn that opened without following plans (a moderator's repair): the seat played it
    itself, so the plan waiting for it is stale at the next turn."""
    match = fs_match()
    move(match, 1, wall("e5-e6"))
    ConditionalPlan.objects.create(
        match=match, seat=match.seats.get(number=2), user=match.players[2], after_phase=1,
        tree=[branch([(1, wall("e5-e6")), (1, wall("g7-g8"))], wall("c3-c4"))],
        updated_at=timezone.now())
    move(match, 2, wall("b2-b3"))   # by hand, the plan left waiting
    move(match, 1, wall("g7-g8"))
    assert match.phase_number == 4 and match.state["to_move"] == 2
    assert ConditionalPlan.objects.get().notice["reason"] == NOTICE_UNMATCHED
