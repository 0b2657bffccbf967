"""Plans (conditional moves) in Panzer Squadron (docs/conditional-orders.md): a planned move
is a whole activation (tank, action, path, target, end), played in its two steps at once when
the other seat's whole activation matches; cleared when it does not; followed over several
activations and a turn's end; refused by the position before anything is played (no die
rolled); completed by the rules' default path when the roll falls short, never half-played."""

from __future__ import annotations

import pytest

import engine
from engine.base import RuleError
from games import services
from games.models import ConditionalPlan, Phase, Submission
from games.plans import NOTICE_CHANGED, NOTICE_ENDED, NOTICE_ILLEGAL, NOTICE_UNMATCHED
from games.services import ServiceError
from tests.helpers import submit

pytestmark = pytest.mark.django_db

GAME = engine.get("panzer-squadron")
HOLD = {"mode": "hold", "max_range": None}  # no opportunity fire unless a test wants it


def scenario(*extra: dict) -> dict:
    return {"size": [8, 8], "turn": 1, "initiative": 1,
            "terrain": {"woods": [], "building": [], "water": []},
            "tanks": [{"seat": 1, "name": "A1", "card": "light", "at": "b2", "facing": 12,
                       "reaction": HOLD},
                      {"seat": 1, "name": "B1", "card": "light", "at": "g2", "facing": 12,
                       "reaction": HOLD},
                      {"seat": 2, "name": "A2", "card": "light", "at": "b7", "facing": 6,
                       "reaction": HOLD},
                      {"seat": 2, "name": "B2", "card": "light", "at": "g7", "facing": 6,
                       "reaction": HOLD}, *extra]}


def moving(tank: str, *steps: str, end: str = "stopped", target: str | None = None) -> dict:
    path = []
    for step in steps:
        at, face = step.split()
        path.append({"move": at, "face": int(face)})
    return {"activate": tank, "action": "move-fire" if target else "move", "path": path,
            "target": target, "end": end}


def still(tank: str, action: str = "ambush", target: str | None = None) -> dict:
    return {"activate": tank, "action": action, **({"target": target} if target else {})}


def branch(when: list[tuple[int, dict]], play: dict, then: list | None = None) -> dict:
    return {"when": [{"seat": seat, "move": move} for seat, move in when], "play": play,
            "then": then or []}


@pytest.fixture
def ps_match(make_user):
    def make(dice: list[int], *extra: dict):
        users = [make_user(name) for name in ("ann", "ben")]
        match = services.match_create(
            creator=users[0], game="panzer-squadron", hours_per_phase=12,
            options={"scenario": scenario(*extra), "dice": dice},
            seats=[{"kind": "human", "user": user} for user in users])
        match.players = dict(enumerate(users, start=1))
        return match
    return make


def plan(match, seat, tree):
    return services.plan_set(match_id=match.pk, seat_number=seat, user=match.players[seat],
                             tree=tree)


def activate(match, seat, move):
    """``seat`` plays a whole activation by hand: the choice, then (a move) the path."""
    choice = {k: move[k] for k in ("activate", "action", "target") if k in move
              and (k != "target" or move["action"] == "fire")}
    submit(match, match.players[seat], seat, data=choice)
    if move["action"] in ("move", "move-fire"):
        submit(match, match.players[seat], seat,
               data={k: move[k] for k in ("path", "target", "end")})


def played(match, number):
    return Submission.objects.get(phase__match=match, phase__number=number)


def tank(match, name):
    match.refresh_from_db()
    return next(t for t in match.state["tanks"] if t["name"] == name)


A1_UP = moving("A1", "b3 12", "b4 12")
A2_DOWN = moving("A2", "b6 6", "b5 6", end="moving")


def test_a_matching_branch_plays_the_whole_activation_at_once_and_the_match_moves_on(
        ps_match):
    match = ps_match([2, 2])
    plan(match, 2, [branch([(1, A1_UP)], A2_DOWN),
                    branch([(1, moving("A1", "b3 12"))], still("B2"))])
    activate(match, 1, A1_UP)
    # seat 2's choice (phase 3) and path (phase 4) played, seat 1 to move again
    assert match.phase_number == 5 and match.state["to_move"] == 1
    assert played(match, 3).data == {"activate": "A2", "action": "move"}
    assert played(match, 4).data == {k: A2_DOWN[k] for k in ("path", "target", "end")}
    assert {played(match, n).source for n in (3, 4)} == {Submission.Source.CONDITIONAL}
    assert played(match, 3).receipt and played(match, 4).receipt
    assert (tank(match, "A2")["at"], tank(match, "A2")["state"]) == ("b5", "moving")
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.played == 1 and left.notice["reason"] == NOTICE_ENDED
    assert left.after_phase == 3


def test_the_condition_is_the_whole_activation_as_given_so_another_path_clears_the_plan(
        ps_match):
    match = ps_match([2, 2])
    plan(match, 2, [branch([(1, A1_UP)], A2_DOWN)])
    activate(match, 1, moving("A1", "b3 12"))  # the same tank and action, another path
    assert match.phase_number == 3 and match.state["to_move"] == 2  # seat 2 plays by hand
    assert not Submission.objects.filter(phase__match=match, phase__number=3).exists()
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.notice["reason"] == NOTICE_UNMATCHED
    assert left.notice["played"] == [{"seat": 1, "move": GAME.plan_move(
        1, moving("A1", "b3 12"))}]
    activate(match, 2, A2_DOWN)
    assert match.state["to_move"] == 1


def test_a_nested_plan_is_followed_over_several_activations_and_a_turns_end(ps_match):
    match = ps_match([2, 1])
    tree = [branch([(1, A1_UP)], moving("A2", "b6 6"), [
        branch([(1, still("B1"))], still("B2"), [
            # turn 2: seat 2 has the initiative, nobody moves in between
            branch([], still("A2"), [
                branch([(1, still("A1"))], still("B2"))])]),
        branch([(1, still("B1", "fire", "g7"))], still("A2"))])]
    plan(match, 2, tree)
    activate(match, 1, A1_UP)            # phases 1-2; seat 2's A2 move, phases 3-4
    activate(match, 1, still("B1"))      # phase 5; seat 2's B2 ambush (6), turn 2: A2 (7)
    assert match.state["turn"] == 2 and match.phase_number == 8
    assert match.state["to_move"] == 1
    activate(match, 1, still("A1"))      # phase 8; seat 2's B2 ambush (9)
    assert match.phase_number == 10 and match.state["to_move"] == 1
    planned = [n for n in range(1, 10) if played(match, n).source == "conditional"]
    assert planned == [3, 4, 6, 7, 9]
    left = ConditionalPlan.objects.get(match=match)
    assert left.played == 4 and left.notice["reason"] == NOTICE_ENDED


def test_a_stored_activation_of_a_destroyed_tank_is_dropped_with_a_notice(ps_match):
    match = ps_match([99])  # A1's shot destroys A2
    plan(match, 2, [branch([(1, still("A1", "fire", "b7"))], still("A2"))])
    activate(match, 1, still("A1", "fire", "b7"))
    assert not tank(match, "A2")["alive"]
    assert match.phase_number == 2 and match.state["to_move"] == 2
    assert not Submission.objects.filter(phase__match=match, phase__number=2).exists()
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.notice["reason"] == NOTICE_ILLEGAL
    assert "A2" in left.notice["problems"][0]


def test_a_blocked_path_is_dropped_before_the_choice_is_played_and_no_die_is_rolled(
        ps_match):
    match = ps_match([3, 4])
    plan(match, 2, [branch([(1, moving("A1", "b3 12", "b4 12", "b5 12"))],
                           moving("A2", "b6 6", "b5 6"))])
    activate(match, 1, moving("A1", "b3 12", "b4 12", "b5 12"))  # A1 now stands on b5
    match.refresh_from_db()
    assert match.phase_number == 3 and match.state["phase"] == "activate"
    assert match.state["dice"] == [4]  # A2's die not rolled
    assert not Submission.objects.filter(phase__match=match, phase__number=3).exists()
    assert not any(e.get("type") == "roll" and e.get("tank") == "A2"
                   for p in Phase.objects.filter(match=match) for e in p.events or [])
    left = ConditionalPlan.objects.get(match=match)
    assert left.notice["reason"] == NOTICE_ILLEGAL and "b5" in " ".join(
        left.notice["problems"])


def test_a_roll_too_short_for_the_path_completes_the_activation_by_the_default_path(
        ps_match):
    match = ps_match([2, 1])  # A2 rolls 1: one point, its planned path costs two
    plan(match, 2, [branch([(1, A1_UP)], A2_DOWN, [branch([(1, still("B1"))], still("B2"))])])
    activate(match, 1, A1_UP)
    assert match.phase_number == 5 and match.state["to_move"] == 1  # whole, not waiting
    path = played(match, 4)
    assert path.source == "conditional" and len(path.data["path"]) == 1
    assert path.data["end"] == "stopped" and match.state["pending"] is None
    left = ConditionalPlan.objects.get(match=match)
    assert left.tree == [] and left.notice["reason"] == NOTICE_CHANGED
    assert left.notice["played"]["path"] == path.data["path"]


def test_a_plan_stored_during_the_other_seats_path_counts_its_whole_activation(ps_match):
    match = ps_match([2, 2])
    submit(match, match.players[1], 1, data={"activate": "A1", "action": "move"})
    stored = plan(match, 2, [branch([(1, A1_UP)], still("B2"))])
    assert stored.after_phase == 1
    submit(match, match.players[1], 1, data={k: A1_UP[k] for k in ("path", "target", "end")})
    assert played(match, 3).source == "conditional" and match.state["to_move"] == 1


def test_the_seats_own_plan_waits_through_its_own_path_step(ps_match):
    match = ps_match([2, 2])
    plan(match, 1, [branch([(2, still("A2"))], still("B1"))])
    submit(match, match.players[1], 1, data={"activate": "A1", "action": "move"})
    assert ConditionalPlan.objects.get(seat__number=1).tree  # not cleared by its own path
    submit(match, match.players[1], 1, data={k: A1_UP[k] for k in ("path", "target", "end")})
    activate(match, 2, still("A2"))
    assert played(match, 4).source == "conditional"
    assert played(match, 4).data == {"activate": "B1", "action": "ambush"}


def test_a_plan_in_the_order_grammar_reads_whole_activations(ps_match):
    match = ps_match([2, 2])
    stored = services.plan_set(
        match_id=match.pk, seat_number=2, user=match.players[2],
        text="if South: activate A1 move; path b3 12, b4 12 then activate A2 move; "
             "path b6 6, b5 6; end moving\n"
             "  if South: activate B1 ambush then activate B2 ambush\n"
             "si South : activate A1 fire b7 alors activate B2 ambush")
    assert stored.tree[0]["when"][0]["move"] == GAME.plan_move(1, A1_UP)
    assert stored.tree[0]["play"] == GAME.plan_move(2, A2_DOWN)
    assert stored.tree[0]["then"][0]["play"] == {"activate": "B2", "action": "ambush"}
    assert stored.tree[1]["play"] == {"activate": "B2", "action": "ambush"}
    with pytest.raises(ServiceError) as refused:
        services.plan_set(match_id=match.pk, seat_number=2, user=match.players[2],
                          text="if South: activate A1 move then activate A2 ambush")
    assert "path" in " ".join(p.message for p in refused.value.problems)


def test_the_canonical_activation_reads_the_shape_alone():
    assert GAME.plan_move(1, {"activate": "M1", "action": "move-fire", "target": "E7",
                              "path": [{"move": "C5", "face": 12}], "end": "moving"}) == {
        "activate": "M1", "action": "move-fire", "target": "e7",
        "path": [{"move": "c5", "face": 12}], "end": "stopped"}  # a shot ends stopped
    assert GAME.plan_move(1, {"activate": "M1", "action": "move", "path": [{"turn": 2}],
                              "end": "moving"})["end"] == "stopped"  # no hex entered
    for wrong in ({"activate": "M1", "action": "move"}, {"activate": "M1", "action": "fire"},
                  {"activate": "M1", "action": "ambush", "path": []}, "activate M1 move",
                  {"activate": "M1", "action": "move", "path": [{"move": "zz", "face": 3}]}):
        with pytest.raises(RuleError):
            GAME.plan_move(1, wrong)
