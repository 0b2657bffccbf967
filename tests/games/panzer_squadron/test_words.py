"""Panzer Squadron's events in words: the plug-in tells each from its data, for its reader."""

from django.utils import translation

from games import plugins

FIRE = {"type": "fire", "seat": 1, "tank": "M1", "from": "c4", "target": "H1", "at": "c8",
        "roll": 71, "needed": 52, "arc": "side", "cover": True, "distance": 4, "hit": True,
        "opportunity": True, "text": "engine text"}
DESTROYED = {"type": "destroyed", "seat": 2, "tank": "H1", "at": "c8", "by": "M1",
             "text": "engine text"}
END = {"type": "end", "ranking": [[1], [2]], "reason": "Seat 2 has no tanks left.",
       "text": "Seat 2 has no tanks left."}


def test_a_shot_and_its_outcome_read_as_sentences_for_each_reader():
    report = plugins.plugin_for("panzer-squadron").round_report
    with translation.override("en-gb"):
        assert report([FIRE, DESTROYED, END], 1) == [
            "Your M1 takes an opportunity shot at H1 on c8 (side armour, in cover, range 4) — "
            "rolls 71, needing more than 52: a hit.",
            "H1 is destroyed on c8 by M1.",
            "The match is over: you win.",
        ]
        assert report([DESTROYED, END], 2) == ["Your H1 is destroyed on c8 by M1.",
                                               "The match is over: seat 1 wins."]
        assert report([{"type": "roll", "seat": 2, "tank": "L1", "action": "move",
                        "dice": [1], "points": 1}], None) == [
            "L1 rolls 1: 1 movement point."]
