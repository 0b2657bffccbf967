"""Rulings, "The Council": members and weights, ballots, thresholds, allowances, armistice."""

from __future__ import annotations

from typing import Any

from engine.tank_game.state import FINISHED_BALLOTS_KEPT


def _council(h, dead: int = 3, senators: int = 0, coffer: int = 50) -> dict[str, Any]:
    """Seats 1-2 alive; the next ``dead`` seats councillors, then ``senators`` senators."""
    seats = 2 + dead + senators
    squares = ["A1", "C3", "E5", "G7", "I9", "K11", "A12", "L1", "F1"]
    state = h.start({s: squares[s - 1] for s in range(1, seats + 1)}, walls={}, mines=[])
    for seat in range(3, 3 + dead):
        h.kill(state, seat)
    for seat in range(3 + dead, seats + 1):
        h.kill(state, seat, destroyed=True)
    state["coffer"] = coffer
    return state


def test_council_members_and_weights(h) -> None:
    """Members: councillors (vote weight 1) and senators (weight 2)."""
    state = _council(h, dead=2, senators=1)
    council = h.game.view(state, None)["council"]
    assert [(m["seat"], m["weight"]) for m in council["members"]] == [(3, 1), (4, 1), (5, 2)]
    assert council["weight"] == 4


def test_only_council_members_vote(h) -> None:
    """A decree is a ballot opened by any member; living tanks do not vote."""
    state = _council(h)
    problems = h.refused(state, 1, {"type": "open_ballot", "decree": "stimulus", "target": 2})
    assert "Council members" in problems["council"]


def test_stimulus_passes_on_uncontested_majority(h) -> None:
    """Stimulus (3 gold, a living tank +1 AP) passes when one and only one option holds >= 50 %
    of the total council weight."""
    state = _council(h, dead=4)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 1}).state
    assert state["ballots"][0]["status"] == "open"
    state = h.act(state, 4, {"type": "vote", "ballot": 1, "target": 1}).state
    assert state["ballots"][0]["status"] == "passed"  # 2 of 4: exactly 50 %
    assert h.tank(state, 1)["ap"] == 2
    assert state["coffer"] == 47
    assert h.log[-1]["text"] == "Council Decree — Stimulus to Seat 1"


def test_tied_options_do_not_pass(h) -> None:
    """Ties (2 votes for Tank A and 2 votes for Tank B) fail to pass."""
    state = _council(h, dead=4, coffer=0)
    for seat, target in ((3, 1), (4, 1), (5, 2), (6, 2)):
        action = {"type": "open_ballot", "decree": "stimulus", "target": target}
        state = h.act(state, seat, action).state
    state["coffer"] = 10
    state = h.act(state, 1, {"type": "move", "to": "A2"}).state  # any input re-checks ballots
    assert state["ballots"][0]["status"] == "open"
    state = h.act(state, 6, {"type": "vote", "ballot": 1, "target": 1}).state
    assert state["ballots"][0]["status"] == "passed" and h.tank(state, 1)["ap"] == 1


def test_bounty_amounts_must_agree(h) -> None:
    """The council must agree on both the target and the amount of the bounty."""
    state = _council(h, dead=4)
    state = h.act(
        state, 3, {"type": "open_ballot", "decree": "bounty", "target": 1, "gold": 2}
    ).state
    state = h.act(state, 4, {"type": "vote", "ballot": 1, "target": 1, "gold": 3}).state
    assert state["ballots"][0]["status"] == "open"
    state = h.act(state, 4, {"type": "vote", "ballot": 1, "target": 1, "gold": 2}).state
    assert state["ballots"][0]["status"] == "passed"


def test_bounty_accumulates_once_per_gameday_1_to_5_gold(h) -> None:
    """Bounty (1-5 gold on a living tank, accumulates, once per gameday)."""
    state = _council(h, dead=1)
    h.set(state, 1, bounty=3)
    state = h.act(
        state, 3, {"type": "open_ballot", "decree": "bounty", "target": 1, "gold": 4}
    ).state
    assert h.tank(state, 1)["bounty"] == 7
    problems = h.refused(
        state, 3, {"type": "open_ballot", "decree": "bounty", "target": 2, "gold": 1}
    )
    assert "one Bounty per gameday" in problems["decree"]
    bad = {"type": "open_ballot", "decree": "bounty", "target": 2, "gold": 6}
    assert "1 to 5" in h.refused(state, 3, bad)["gold"]
    state = h.next_day(state)
    state = h.act(
        state, 3, {"type": "open_ballot", "decree": "bounty", "target": 2, "gold": 1}
    ).state
    assert h.tank(state, 2)["bounty"] == 1


def test_decree_targets_must_be_valid(h) -> None:
    """Stimulus and Bounty target a living tank; Grant Life any tank living or dead."""
    state = _council(h, dead=3)
    problems = h.refused(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 4})
    assert "living tank" in problems["target"]
    assert (
        h.game.action_problems(
            state, 3, {"type": "open_ballot", "decree": "grant_life", "target": 4}, h.now
        )
        == []
    )


def test_grant_life_needs_3_members_and_a_super_majority(h) -> None:
    """Grant Life (15 gold, needs >= 3 members) passes on >= 2/3 of the total council weight."""
    small = _council(h, dead=2)
    problems = h.refused(small, 3, {"type": "open_ballot", "decree": "grant_life", "target": 1})
    assert "at least 3 members" in problems["decree"]
    state = _council(h, dead=4)  # weight 4: needs 3 (2/3 of 4 = 2.67)
    h.set(state, 1, lives=2)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "grant_life", "target": 1}).state
    state = h.act(state, 4, {"type": "vote", "ballot": 1, "target": 1}).state
    assert state["ballots"][0]["status"] == "open"  # 2 of 4 is a majority, not 2/3
    state = h.act(state, 5, {"type": "vote", "ballot": 1, "target": 1}).state
    assert state["ballots"][0]["status"] == "passed"
    assert h.tank(state, 1)["lives"] == 3 and state["coffer"] == 35


def test_grant_life_max_3_lives_once_per_gameday(h) -> None:
    """No tank may have more than 3 lives; Grant Life may only be decreed once per gameday."""
    state = _council(h, dead=3)
    problems = h.refused(state, 3, {"type": "open_ballot", "decree": "grant_life", "target": 1})
    assert "3 lives" in problems["target"]
    h.set(state, 1, lives=1)
    h.set(state, 2, lives=1)
    for seat in (3, 4):
        state = h.act(
            state, seat, {"type": "open_ballot", "decree": "grant_life", "target": 1}
        ).state
    assert state["ballots"][0]["status"] == "passed"
    problems = h.refused(state, 3, {"type": "open_ballot", "decree": "grant_life", "target": 2})
    assert "one Grant Life per gameday" in problems["decree"]


def test_grant_life_revives_a_dead_tank_which_leaves_the_council(h) -> None:
    """A dead tank revives with 1 life and leaves the Council; it has no AP until it gains one."""
    state = _council(h, dead=3)
    for seat in (3, 4):
        state = h.act(
            state, seat, {"type": "open_ballot", "decree": "grant_life", "target": 5}
        ).state
    revived = h.tank(state, 5)
    assert (revived["status"], revived["lives"], revived["ap"]) == ("alive", 1, 0)
    assert [m["seat"] for m in h.game.view(state, None)["council"]["members"]] == [3, 4]
    assert 5 not in state["deaths"]


def test_a_ballot_the_coffer_cannot_pay_stays_open_and_passes_when_it_can(h) -> None:
    """A ballot passes the moment its threshold is met if the coffer can pay; otherwise it stays
    open."""
    state = _council(h, dead=1, coffer=2)
    h.set(state, 1, gold=3)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 2}).state
    assert state["ballots"][0]["status"] == "open"
    h.set(state, 1, at="C2")
    state = h.act(state, 1, {"type": "give", "seat": 2, "gold": 1}).state  # 1 gold of tax
    assert state["ballots"][0]["status"] == "passed"
    assert state["coffer"] == 0 and h.tank(state, 2)["ap"] == 2


def test_ballots_close_at_the_end_of_the_gameday(h) -> None:
    """A ballot closes at the end of the gameday."""
    state = _council(h, dead=2, coffer=0)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 2}).state
    state = h.next_day(state)
    assert state["ballots"] == []  # closed, and forgotten by the state: the logbook has it
    assert "closed without passing" in h.log[-2]["text"]
    assert (
        "votes are closed"
        in h.refused(state, 4, {"type": "vote", "ballot": 1, "target": 2})["ballot"]
    )


def test_members_may_change_their_vote_while_open(h) -> None:
    """Members vote for an option and may change their vote while the ballot is open."""
    state = _council(h, dead=3, coffer=0)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 1}).state
    state = h.act(state, 3, {"type": "vote", "ballot": 1, "target": 2}).state
    assert h.game.view(state, 3)["council"]["ballots"][0]["my_vote"] == {"target": 2}
    assert h.game.view(state, 3)["council"]["ballots"][0]["tallies"] == [{"target": 2, "weight": 1}]


def test_individual_votes_are_private_tallies_are_public(h) -> None:
    """Votes happen in the portal; a member's vote is shown to that member only."""
    state = _council(h, dead=3, coffer=0)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 1}).state
    other = h.game.view(state, 4)
    assert other["council"]["ballots"][0]["my_vote"] is None
    assert other["council"]["ballots"][0]["tallies"] == [{"target": 1, "weight": 1}]
    assert "target" not in h.game.public_entry(h.log[-1], 4)["action"]
    assert "target" not in h.game.log_text(state, 4, h.log)
    assert h.game.public_entry(h.log[-1], 3)["action"]["target"] == 1


def test_opening_a_ballot_on_a_decree_with_an_open_one_votes_on_it(h) -> None:
    """At most one open ballot per decree: a second opening casts a vote on the open one."""
    state = _council(h, dead=4, coffer=0)
    state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 1}).state
    state = h.act(state, 4, {"type": "open_ballot", "decree": "stimulus", "target": 1}).state
    assert len(state["ballots"]) == 1 and len(state["ballots"][0]["votes"]) == 2


def test_armistice_counter_rises_by_members_and_the_council_wins_at_the_limit(h) -> None:
    """Armistice: the counter rises each tick by the number of council members; when it reaches
    the limit the Council wins; the result ranks council members first."""
    state = _council(h, dead=2, senators=1)
    state["armistice_limit"] = 6
    state = h.next_day(state)
    assert state["armistice"] == 3 and state["over"] is None
    state = h.next_day(state)
    assert state["over"]["reason"] == "armistice"
    result = h.game.result(state)
    assert result.ranking == ((3, 4, 5), (1, 2))
    assert h.game.prompts(state) == {}
    assert "The match is over" in h.refused(state, 1, {"type": "buy_ap"})["match"]


def test_armistice_limit_defaults_to_50(h) -> None:
    """The armistice limit is a match option, default 50."""
    assert h.game.start(2, h.game.validate_options({}), 1)["armistice_limit"] == 50
    options = h.game.validate_options({"armistice_limit": 12})
    assert h.game.start(2, options, 1)["armistice_limit"] == 12


def test_finished_ballots_do_not_pile_up_in_the_state(h) -> None:
    """However many decrees pass in a gameday, the state keeps only the latest few finished
    ballots (the logbook has every one); a vote on a forgotten ballot is refused as closed."""
    state = _council(h, dead=3, coffer=200)
    for n in range(1, 12):
        h.set(state, 1, ap=0)
        state = h.act(state, 3, {"type": "open_ballot", "decree": "stimulus", "target": 1}).state
        state = h.act(state, 4, {"type": "vote", "ballot": n, "target": 1}).state
        assert h.log[-1]["text"] == "Council Decree — Stimulus to Seat 1"
    finished = [b["id"] for b in state["ballots"]]
    assert finished == list(range(12 - FINISHED_BALLOTS_KEPT, 12))
    refused = h.refused(state, 4, {"type": "vote", "ballot": 1, "target": 1})
    assert refused["ballot"] == "Ballot 1 is over; votes are closed."
    assert "There is no ballot 99" in h.refused(state, 4, {"type": "vote", "ballot": 99,
                                                            "target": 1})["ballot"]
