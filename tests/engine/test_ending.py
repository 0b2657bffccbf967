"""engine.ending: one value for how a match ended, built by one builder per way, stored as its
data and read back as the value; results stored before it read without crashing."""

import json

import pytest

import engine
from engine import Result, Text
from engine.ending import (
    Ending,
    How,
    by_agreement,
    by_cancel,
    by_concession,
    by_forfeit,
    by_nobody,
    by_rules,
)

FINAL_ACT = engine.get("final-act")
WON = Result(ranking=((2,), (1,)), scores={1: 0.0, 2: 1.0}, reason="Alpha conceded.")


def every_way() -> dict[str, Ending]:
    return {
        "rules": by_rules(WON, FINAL_ACT.phrasebook),
        "forfeit": by_forfeit([1, 2], [1]),
        "nobody": by_nobody(),
        "agreement": by_agreement([1, 2, 3], [1, 3]),
        "cancel": by_cancel([1, 2]),
        "concession": by_concession(WON, [1], FINAL_ACT.phrasebook),
    }


@pytest.mark.parametrize("way", sorted(every_way()))
def test_an_ending_round_trips_through_its_json(way):
    ending = every_way()[way]
    stored = json.loads(json.dumps(ending.as_json()))  # as the database gives it back
    assert Ending.from_json(stored) == ending
    assert stored["ending"]["how"] == way
    # The keys the records and the competitions have always read are all there.
    assert {"ranking", "scores", "reason", "winners", "is_draw"} <= set(stored)


def test_the_games_reason_is_stored_as_a_key_with_its_parameters():
    stored = by_rules(WON, FINAL_ACT.phrasebook).as_json()
    assert stored["ending"]["reason"] == "%(side)s conceded."
    assert stored["ending"]["params"] == {"side": "Alpha"}
    assert stored["reason"] == "Alpha conceded."  # the English, for people only
    reason = Ending.from_json(stored).reason
    assert isinstance(reason, Text) and reason.template == "%(side)s conceded."


def test_a_reason_with_texts_inside_round_trips():
    nested = Text("%(who)s won by %(how)s", {"who": ("Alpha", "Bravo"),
                                             "how": Text("a %(n)s-point lead", {"n": 3})})
    ending = by_rules(Result(((1, 2),), {1: 0.5, 2: 0.5}, nested), FINAL_ACT.phrasebook)
    back = Ending.from_json(json.loads(json.dumps(ending.as_json()))).reason
    assert back == nested and back.params["how"].template == "a %(n)s-point lead"


def test_what_each_way_means_for_a_result():
    ways = every_way()
    assert ways["rules"].winners == (2,) and ways["rules"].outcome_for(1) == "lost"
    assert ways["forfeit"].winners == (2,) and ways["forfeit"].seats == (1,)
    assert ways["agreement"].is_draw and ways["agreement"].outcome_for(1) == "drawn"
    assert ways["agreement"].outcome_for(2) == "lost"  # out before the draw
    # Nobody left to act, and a cancel: no result, neither won, drawn nor lost.
    for way in ("nobody", "cancel"):
        assert not ways[way].has_result and ways[way].outcome_for(1) == "none"
        assert not ways[way].is_draw
    assert ways["concession"].has_result and ways["concession"].seats == (1,)
    assert by_concession(None, [2], FINAL_ACT.phrasebook).has_result is False


def test_the_record_names_the_ways_as_version_1_did():
    ways = every_way()
    assert ways["agreement"].record_end() == {"by": "draw", "seats": [1, 3]}
    assert ways["forfeit"].record_end() == {"by": "forfeit", "forfeited": [1]}
    assert ways["concession"].record_end() == {"by": "concession", "seats": [1]}
    assert ways["nobody"].record_end() == {"by": "nobody"}


# Results as they were stored before the Ending (no "ending" key).
OLD_FORFEIT = {"ranking": [[1, 3], [2]], "scores": {"1": 1, "2": 0, "3": 1},
               "reason": "seat 2 forfeited after missing too many deadlines in a row",
               "winners": [1, 3], "is_draw": False}
OLD_NOBODY = {"ranking": [], "scores": {}, "reason": "Nobody has anything left to do.",
              "winners": [], "is_draw": False}
OLD_DRAW = {"ranking": [[1, 2]], "scores": {"1": 0.5, "2": 0.5},
            "reason": "Drawn by agreement of seat 1, seat 2.", "winners": [], "is_draw": True}
OLD_RULES = {"ranking": [[2], [1]], "scores": {"1": 0.0, "2": 1.0}, "reason": "Alpha conceded.",
             "winners": [2], "is_draw": False}


@pytest.mark.parametrize(("old", "how", "seats"), [
    (OLD_FORFEIT, How.FORFEIT, (2,)), (OLD_NOBODY, How.NOBODY, ()),
    (OLD_DRAW, How.AGREEMENT, (1, 2)), (OLD_RULES, How.RULES, ())])
def test_an_old_result_reads_as_its_way(old, how, seats):
    ending = Ending.from_json(old)
    assert (ending.how, ending.seats) == (how, seats)
    assert ending.as_json()["reason"] == old["reason"]


def test_an_old_games_reason_reads_through_its_phrasebook_or_as_written():
    assert Ending.from_json(OLD_RULES, FINAL_ACT.phrasebook).reason.params == {"side": "Alpha"}
    odd = {**OLD_RULES, "reason": "Something nobody wrote down."}
    assert Ending.from_json(odd, FINAL_ACT.phrasebook).reason == "Something nobody wrote down."
    assert Ending.from_json({"ranking": [[1], [2]]}).winners == ()  # half a row: no crash


def test_a_reason_the_game_stores_as_a_key_keeps_it_as_the_stored_english():
    """Tank Game keeps "armistice" in its state: the stored "reason" stays the key (what the
    API and the records always gave), the value reads its sentence."""
    tank_game = engine.get("tank-game")
    result = Result(ranking=((1,), (2,)), scores={1: 1.0, 2: 0.0}, reason="armistice")
    stored = by_rules(result, tank_game.phrasebook).as_json()
    assert stored["reason"] == "armistice"
    assert stored["ending"]["reason"] == "The Council reached the armistice and wins."
    assert Ending.from_json(stored).as_json() == stored
