"""The round report in words (engine/final_act/report.py), told from real resolved rounds."""

from __future__ import annotations

import copy
import random

from engine.final_act.report import lost_units, round_headline, round_story


def story(fa, state, alpha=None, delta=None, seat=None):
    """Resolve one round of ``state`` and tell it; returns (sentences, outcome)."""
    outcome = fa.resolve(state, alpha, delta)
    return round_story(outcome.events, seat), outcome


def test_move_and_hit_make_one_sentence(fa):
    """A unit's move and the hit it took on arrival are told in one sentence, with the shooter
    and the result of the hit."""
    state = fa.start(
        [fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f9", "S", hits=1), fa.unit(2, "C", "l12")]
    )
    lines, _ = story(
        fa, state, {"units": {"C": {"fire": ["f8"]}}}, {"units": {"2A": {"move": "F"}}}
    )
    assert lines == [
        "Alpha C stayed at f4 and fired at f8.",
        "Delta 2A moved f9 → f8 and was hit by Alpha C's shell — out.",
    ]


def test_full_throttle_and_a_turn_are_part_of_the_move(fa):
    """Full throttle shows on the move (no separate token sentence); a diagonal move with a
    turn names the new facing."""
    state = fa.start(
        [fa.unit(1, "C", "e4", "N"), fa.unit(2, "2A", "f11", "S")],
        tokens={"1": [], "2": ["full_throttle"]},
    )
    lines, _ = story(
        fa,
        state,
        {"units": {"C": {"move": "FL", "turn": True}}},
        {"units": {"2A": {"move": "F"}}, "tokens": {"full_throttle": {"unit": "2A"}}},
    )
    assert lines == [
        "Alpha C moved e4 → d5, turning to face W.",
        "Delta 2A moved f11 → f9 at full throttle.",
    ]


def test_a_bounce_gives_its_reason(fa):
    """A unit that could not move says where it wanted to go and why it stayed: after a colon
    when the sentence ends there, in brackets when more follows."""
    state = fa.start(
        [fa.unit(1, "2A", "i5", "N"), fa.unit(2, "2A", "k7", "S"), fa.unit(2, "C", "l12")]
    )
    lines, _ = story(
        fa, state, {"units": {"2A": {"move": "FR"}}}, {"units": {"2A": {"move": "FR"}}}
    )
    assert lines[0] == "Alpha 2A tried to move to j6 but stayed at i5: Delta 2A also moved there."
    state = fa.start([fa.unit(1, "2A", "j6", "N"), fa.unit(2, "2A", "j7", "S")])
    lines, _ = story(fa, state, None, {"units": {"2A": {"move": "F", "fire": ["h5"]}}})
    assert lines == [
        "Delta 2A tried to move to j6 but stayed at j7 (Alpha 2A stayed there) and fired at h5."
    ]


def test_two_shells_of_one_tank_are_listed_together(fa):
    """A quick shot: both targets in one clause, marked as a quick shot."""
    units = [fa.unit(1, "1", "d5", "N"), fa.unit(1, "2", None, hits=2), fa.unit(2, "C", "l12")]
    state = fa.start(units, tokens={"1": ["quick_shot"], "2": []})
    sheet = {
        "units": {"1": {"fire": ["g8"]}},
        "tokens": {"quick_shot": {"unit": "1", "fire": ["c7"]}},
    }
    lines, _ = story(fa, state, sheet)
    assert lines == ["Alpha 1 stayed at d5 and fired at g8 and c7 (quick shot)."]


def test_double_shot_is_named(fa):
    """Advanced rule 3: the declared double shot is told with the tank's shells."""
    units = [
        fa.unit(1, "C", "f4", "N"),
        fa.unit(1, "1", None, hits=2),
        fa.unit(2, "C", "f8", "S"),
        fa.unit(2, "1", "g8", "S"),
    ]
    state = fa.start(units, advanced=["double_shot"])
    sheet = {"units": {"C": {"fire": ["f8", "g8"]}}, "declare": {"double_shot": "C"}}
    lines, _ = story(fa, state, sheet)
    assert lines[0] == "Alpha C stayed at f4 and fired at f8 and g8 (double shot)."
    assert "Delta C was hit at f8 by Alpha C's shell — damaged." in lines


def test_units_that_did_nothing_are_not_mentioned(fa):
    """Only units that moved, tried to move, fired or were hit get a sentence."""
    state = fa.start([fa.unit(1, "C", "f4"), fa.unit(1, "1", "a1"), fa.unit(2, "C", "l12")])
    lines, _ = story(fa, state, {"units": {"C": {"move": "F"}}})
    assert lines == ["Alpha C moved f4 → f5."]
    assert story(fa, state)[0] == []


def test_sentences_by_side_then_unit_order(fa):
    """Alpha's units before Delta's, each side in the order C 1 1A 1B 2 2A 2B AT1 AT2 R."""
    units = [
        fa.unit(1, "R", "a2"),
        fa.unit(1, "2B", "b2"),
        fa.unit(1, "C", "c2"),
        fa.unit(1, "AT1", "d2"),
        fa.unit(2, "1A", "e11"),
        fa.unit(2, "C", "f11"),
    ]
    state = fa.start(units, extra_forces=True)
    forward = {"move": "F"}
    lines, _ = story(
        fa,
        state,
        {"units": {"R": forward, "2B": forward, "C": forward, "AT1": {"move": "N"}}},
        {"units": {"1A": forward, "C": forward}},
    )
    assert [" ".join(line.split()[:2]) for line in lines] == [
        "Alpha C",
        "Alpha 2B",
        "Alpha AT1",
        "Alpha R",
        "Delta C",
        "Delta 1A",
    ]


def test_the_reader_sees_your_units(fa):
    """With a seat, that side's units read "your ..." and the side reads "you"."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f8", "S")])
    lines, _ = story(fa, state, {"units": {"C": {"fire": ["f8"]}}}, seat=1)
    assert lines == [
        "Your C stayed at f4 and fired at f8.",
        "Delta 2A was hit at f8 by your C's shell — damaged.",
    ]
    assert story(fa, state, {"units": {"C": {"fire": ["f8"]}}}, seat=2)[0] == [
        "Alpha C stayed at f4 and fired at f8.",
        "Your 2A was hit at f8 by Alpha C's shell — damaged.",
    ]


def test_wreck_breakthrough_and_result(fa):
    """A tank out under the wrecks rule is told as a wreck; a breakthrough closes its unit's
    sentence; the result comes last."""
    units = [
        fa.unit(1, "2", "f11", "N"),
        fa.unit(1, "C", "c4", "N"),
        fa.unit(2, "2A", "c8", "S", hits=1),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, advanced=["wrecks"])
    lines, outcome = story(fa, state, {"units": {"2": {"move": "F"}, "C": {"fire": ["c8"]}}})
    assert lines == [
        "Alpha C stayed at c4 and fired at c8.",
        "Alpha 2 moved f11 → f12 and broke through at f12.",
        "Delta 2A was hit at c8 by Alpha C's shell — out, left as a wreck on c8.",
        "Alpha wins the match. Alpha broke through (1 to 0).",
    ]
    assert round_story(outcome.events, 1)[-1] == (
        "You win the match. Alpha broke through (1 to 0)."
    )


def test_smoke_is_told_and_stops_the_shell(fa):
    """Smoke placed this round gets its own sentence; the shell it stopped is said so."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f9", "S")]
    state = fa.start(units, tokens={"1": [], "2": ["smoke"]})
    lines, _ = story(
        fa, state, {"units": {"C": {"fire": ["f9"]}}}, {"tokens": {"smoke": {"at": "f8"}}}
    )
    assert lines == [
        "Alpha C stayed at f4 and fired at f9, but smoke stopped the shell.",
        "Delta laid smoke on f8.",
    ]


def test_board_tokens_get_sentences(fa, terrain):
    """Quick sand, mine clearing and the Red Cross placement are told side by side."""
    units = [fa.unit(1, "C", "f4", "N"), fa.unit(2, "C", "l12")]
    mines = terrain.minefield(1, ["a5", "b5", "c5"], "b5", "N")
    state = fa.start(
        units, [mines], tokens={"1": ["mine_clearing", "red_cross"], "2": ["quick_sand"]}
    )
    sheet = {"tokens": {"mine_clearing": {"at": "a5"}, "red_cross": {"at": "d2"}}}
    lines, _ = story(fa, state, sheet, {"tokens": {"quick_sand": {"at": "f6"}}})
    assert lines == [
        "Delta dropped quick sand on f6: nobody may enter it this round and the next.",
        "Alpha cleared a way through the minefield at a5 for this round and the next.",
        "Alpha placed the Red Cross on d2.",
    ]


def test_air_strike_tells_the_strike_the_payer_and_the_victims(fa):
    """The air strike is one side sentence; the tank that paid holds its fire; its victims
    name the air strike as the shooter."""
    units = [
        fa.unit(1, "C", "h4", "N"),
        fa.unit(1, "1B", "d2", "N"),
        fa.unit(1, "1", None, hits=2),
        fa.unit(2, "2A", "c9", "S"),
        fa.unit(2, "2B", "c10", "S"),
    ]
    state = fa.start(units, tokens={"1": ["air_strike"], "2": []})
    strike = {"at": "c1", "fire": ["c9", "c10"], "paid_by": ["1B"]}
    lines, _ = story(fa, state, {"tokens": {"air_strike": strike}}, seat=2)
    assert lines == [
        "Alpha 1B held its fire to pay for the air strike.",
        "Your 2A was hit at c9 by Alpha's air strike — damaged.",
        "Your 2B was hit at c10 by Alpha's air strike — damaged.",
        "Alpha called an air strike from c1 on c9 and c10, paid for by 1B.",
    ]


def test_officer_loss_is_told(fa):
    """Advanced rule 2: the loss of an officer gets a sentence after the unit sentences."""
    units = [
        fa.unit(1, "C", "f4", "N"),
        fa.unit(2, "1", "f8", "S", hits=1),
        fa.unit(2, "2", "a12"),
        fa.unit(2, "2A", "b12"),
        fa.unit(2, "2B", "c12"),
    ]
    state = fa.start(units, advanced=["officer_loss"])
    lines, _ = story(fa, state, {"units": {"C": {"fire": ["f8"]}}})
    assert lines[-1] == (
        "Delta lost officer 1: one shell fewer next round while it has 3 or more tanks."
    )


def test_declared_repair(fa, terrain):
    """Advanced rule 4: the repairing tank stays behind its berm and has its damage repaired."""
    units = [fa.unit(1, "1A", "d3", "N", hits=1), fa.unit(2, "C", "l12")]
    state = fa.start(units, [terrain.berm(1, "d4")], advanced=["repair"])
    lines, _ = story(fa, state, {"declare": {"repair": "1A"}})
    assert lines == ["Alpha 1A stayed behind its berm at d3 to repair and had its damage repaired."]


def test_r_unit_repairs_and_a_run_over(fa):
    """Extra Forces: the R unit's repair is told in the R unit's sentence; an AT unit run over
    by an enemy tank is out."""
    units = [
        fa.unit(1, "1A", "d4", "N", hits=1),
        fa.unit(1, "R", "d3", "N"),
        fa.unit(1, "C", "g6", "N"),
        fa.unit(2, "AT1", "g8", "S"),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units, extra_forces=True)
    lines, _ = story(
        fa,
        state,
        {"units": {"R": {"move": "F"}, "C": {"move": "F"}}},
        {"units": {"AT1": {"move": "S"}}},
    )
    assert lines == [
        "Alpha C moved g6 → g7.",
        "Alpha R moved d3 → d4 and started repairing 1A at d4.",
        "Delta AT1 moved g8 → g7 and was run over by Alpha C — out.",
    ]


def test_red_cross_recovery_is_not_a_loss(fa):
    """A tank put out and recovered by the Red Cross in the same round reads as brought back,
    and the headline does not count it as lost."""
    units = [fa.unit(1, "1A", "d4", "N", hits=1), fa.unit(2, "C", "d8", "S")]
    state = fa.start(units, tokens={"1": ["red_cross"], "2": []})
    state = fa.play(state, {"tokens": {"red_cross": {"at": "c3"}}})
    outcome = fa.resolve(
        state, {"tokens": {"red_cross": {"activate": "1A"}}}, {"units": {"C": {"fire": ["d4"]}}}
    )
    assert round_story(outcome.events) == [
        "Alpha 1A was hit at d4 by Delta C's shell — out and was brought back damaged by the "
        "Red Cross at c3.",
        "Delta C stayed at d8 and fired at d4.",
    ]
    assert lost_units(outcome.events) == {1: [], 2: []}
    assert round_headline(outcome.events, 2) == "Round 2: no losses."


def test_setup_is_told_per_side(fa):
    """The setup reveal: one sentence per side naming where units and terrain went."""
    game = fa.game
    state = game.start(2, game.validate_options({}), 1)
    subs = {s: game.default_submission(state, s) for s in (1, 2)}
    events = game.resolve(state, subs, random.Random(0)).events
    lines = round_story(events)
    assert len(lines) == 2
    assert lines[0].startswith("Alpha deployed C f2, 1 c2, 1A b2,")
    assert "minefield on j5 k5 l5 (passage k5 heading N)" in lines[0]
    assert lines[1].startswith("Delta deployed C f11,")
    assert round_headline(events) == "Both sides deployed."


def test_headline_names_losses_by_side_in_unit_order(fa):
    """The headline lists each side's lost units in unit order, then breakthroughs and the
    winner."""
    units = [
        fa.unit(1, "C", "e4", "N"),
        fa.unit(1, "1", "f4", "N"),
        fa.unit(1, "2", "h11", "N"),
        fa.unit(1, "1A", "g7", "N", hits=1),
        fa.unit(2, "2B", "e8", "S", hits=1),
        fa.unit(2, "1", "f8", "S", hits=1),
        fa.unit(2, "C", "l12"),
    ]
    state = fa.start(units)
    outcome = fa.resolve(
        state,
        {"units": {"C": {"fire": ["e8"]}, "1": {"fire": ["f8"]}, "2": {"move": "F"}}},
        {"units": {"1": {"fire": ["g7"]}}},
    )
    assert round_headline(outcome.events, 3) == (
        "Round 3: Alpha lost 1A; Delta lost 1 and 2B; Alpha broke through with 2. Alpha wins."
    )
    assert round_headline([]) == "No losses."


def test_telling_a_round_changes_nothing(fa):
    """round_story and round_headline only read the events."""
    state = fa.start([fa.unit(1, "C", "f4", "N"), fa.unit(2, "2A", "f9", "S", hits=1)])
    events = fa.resolve(state, {"units": {"C": {"fire": ["f8"]}}}, {"units": {"2A": {"move": "F"}}})
    events = events.events
    before = copy.deepcopy(events)
    first = round_story(events, 1)
    round_headline(events, 1)
    assert events == before
    assert round_story(events, 1) == first


def test_every_round_of_a_random_game_can_be_told(fa):
    """Every resolution of a random bot game with every option on gives sentences and a
    headline (no event shape is left untold or breaks the report)."""
    game = fa.game
    options = {
        "advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
        "tokens": {"mode": "all"},
        "extra_forces": True,
    }
    rng = random.Random(5)
    state = game.start(2, game.validate_options(options), 5)
    rounds = 0
    while state["phase"] != "over" and rounds < 60:
        subs = {
            s: game.validate(state, s, game.bot_submission(state, s, "random", rng)) for s in (1, 2)
        }
        outcome = game.resolve(state, subs, rng)
        lines = round_story(outcome.events, 1)
        assert all(line[:1].isupper() and line.endswith((".", "!")) for line in lines)
        assert "None" not in " ".join(lines)
        headline = round_headline(outcome.events, state["round"])
        first = "Both sides deployed." if state["phase"] == "setup" else f"Round {state['round']}:"
        assert headline.startswith(first)
        state = outcome.state
        rounds += 1
    assert rounds > 5


def test_a_bounce_reason_names_units_for_the_reader():
    """The reason a unit could not move, taken from the engine's text, names the reader's own
    units "your ..." like the rest of the report."""
    from engine.final_act.report import round_story

    events = [{"type": "bounce", "seat": 1, "unit": "C", "from": "g1", "to": "h1",
               "reason": "Alpha 2 stayed there",
               "text": "Alpha C stayed at g1 instead of moving to h1: Alpha 2 stayed there."}]
    assert round_story(events, seat=1) == [
        "Your C tried to move to h1 but stayed at g1: your 2 stayed there."]
    assert round_story(events, seat=2) == [
        "Alpha C tried to move to h1 but stayed at g1: Alpha 2 stayed there."]


def test_the_setup_sentence_lists_units_in_unit_order_whatever_the_key_order():
    """A stored setup event may come back with its keys in another order (PostgreSQL's jsonb
    sorts them by length): the sentence still lists C 1 1A 1B 2 2A 2B."""
    from engine.final_act.report import round_story

    terrain = {"large_berm": ["e3", "f3"], "small_berms": ["b3", "j3"],
               "swamp": ["a5", "b5", "a6", "b6"],
               "minefield": {"squares": ["j5", "k5", "l5"], "passage": "k5", "arrow": "N"}}
    names = ["1", "2", "C", "1A", "1B", "2A", "2B"]
    units = {name: {"at": f"{'abcdefg'[i]}2", "facing": "N"} for i, name in enumerate(names)}
    story = round_story([{"type": "setup", "seat": 1, "terrain": terrain, "units": units}])
    assert "deployed C c2, 1 a2, 1A d2, 1B e2, 2 b2, 2A f2, 2B g2" in story[0]


def test_every_event_text_reads_back_as_the_text_it_was_made_from():
    """Events keep their text in English (stored as it is); the phrasebook reads each one back
    as the ``Text`` the portal translates, its English unchanged: matches of random bots, with
    every token, the extra forces and the advanced rules, and a concession."""
    import engine
    from engine.base import Text
    from engine.final_act.report import PHRASEBOOK

    game = engine.get("final-act")
    options = {**game.default_options(), "extra_forces": True, "tokens": {"mode": "all"},
               "advanced": ["wrecks", "officer_loss", "double_shot", "repair"], "round_limit": 12}
    kinds = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = game.start(2, options, seed)
        events = []
        while game.result(state) is None:
            sheets = {s: game.bot_submission(state, s, "random", rng) for s in (1, 2)}
            outcome = game.resolve(state, sheets, rng)
            state, events = outcome.state, events + outcome.events
        events += game.resign(game.start(2, options, seed), 1, None).events
        for event in events:
            read = PHRASEBOOK.read(event["text"])
            assert isinstance(read, Text) and read.render() == event["text"], event
            kinds.add(event["type"])
    assert {"setup", "move", "bounce", "shell", "hit", "token", "result"} <= kinds
