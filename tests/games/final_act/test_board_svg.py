"""The Final Act board SVG (games/final_act/board.py, templates/games/final-act/board.svg.html)."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.utils import translation

import engine
from engine.final_act.units import TOKENS
from games.final_act.board import CELL, MARGIN, board_model, render_board
from tests.french import english_in

GAME = engine.get("final-act")
NS = "{http://www.w3.org/2000/svg}"

TERRAIN = [
    {"kind": "berm", "owner": 1, "squares": ["d3", "e3"]},
    {"kind": "berm", "owner": 1, "squares": ["b3"]},
    {"kind": "berm", "owner": 2, "squares": ["h10"]},
    {"kind": "swamp", "owner": 2, "squares": ["a7", "b7"]},
    {"kind": "minefield", "owner": 2, "squares": ["j8", "k8", "l8"], "passage": "k8", "arrow": "S"},
]
UNITS = [
    {"seat": 1, "name": "C", "at": "e4", "facing": "N"},
    {"seat": 1, "name": "1", "at": "c2", "facing": "E", "hits": 1},
    {"seat": 1, "name": "2", "at": "g4", "facing": "N"},
    {"seat": 1, "name": "2A", "at": "i4", "facing": "N"},
    {"seat": 1, "name": "AT1", "at": "i4", "facing": "W"},
    {"seat": 1, "name": "R", "at": "f1"},
    {"seat": 2, "name": "C", "at": "e9", "facing": "S"},
    {"seat": 2, "name": "1A", "at": "h8", "facing": "S", "hits": 2},
    {"seat": 2, "name": "2", "hits": 2},
    {"seat": 2, "name": "2B", "at": "g7", "facing": "S", "hits": 1},
]


def scenario_state(**options: Any) -> dict[str, Any]:
    scenario = {"round": 2, "units": UNITS, "terrain": TERRAIN}
    opts = GAME.validate_options(
        {"scenario": scenario, "extra_forces": True, "advanced": ["wrecks"], **options}
    )
    return GAME.start(2, opts, 11)


def resolved_state() -> dict[str, Any]:
    """One round: Alpha C steps to e5 and both sides shell; Delta 2B is put out."""
    state = scenario_state()
    sheets = {
        1: {"units": {"C": {"move": "F", "fire": ["e9"]}, "2": {"fire": ["g7"]}}},
        2: {"units": {"C": {"fire": ["e5"]}}},
    }
    return GAME.resolve(state, sheets, random.Random(1)).state


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in el.get("class", "").split()]


def square_rect(root: ET.Element, name: str) -> ET.Element:
    (rect,) = [el for el in by_class(root, "fa-sq") if el.get("data-square") == name]
    return rect


def layer(root: ET.Element, cls: str) -> ET.Element:
    (group,) = by_class(root, cls)
    return group


# -- geometry --------------------------------------------------------------------------------
def test_alpha_and_spectators_see_rank_1_at_the_bottom_and_file_a_on_the_left() -> None:
    view = GAME.view(scenario_state(), None)
    for seat in (None, 1):
        root = parse(render_board(view, seat=seat))
        assert root.get("data-flipped") == "false"
        a1, l12 = square_rect(root, "a1"), square_rect(root, "l12")
        assert (a1.get("x"), a1.get("y")) == (str(MARGIN), str(MARGIN + 11 * CELL))
        assert (l12.get("x"), l12.get("y")) == (str(MARGIN + 11 * CELL), str(MARGIN))


def test_delta_sees_the_board_flipped_with_its_own_half_at_the_bottom() -> None:
    root = parse(render_board(GAME.view(scenario_state(), 2), seat=2))
    assert root.get("data-flipped") == "true"
    a1, l12 = square_rect(root, "a1"), square_rect(root, "l12")
    assert (a1.get("x"), a1.get("y")) == (str(MARGIN + 11 * CELL), str(MARGIN))
    assert (l12.get("x"), l12.get("y")) == (str(MARGIN), str(MARGIN + 11 * CELL))
    assert (l12.get("data-col"), l12.get("data-row")) == ("0", "11")
    model = board_model(GAME.view(scenario_state(), 2), seat=2)
    half = {s["name"]: s["y"] for s in model["squares"]}
    assert min(half[f"a{r}"] for r in range(7, 13)) > max(half[f"a{r}"] for r in range(1, 7))


def test_facing_pointers_turn_with_the_board() -> None:
    view = GAME.view(scenario_state(), None)

    def rotation(seat: int | None, unit_seat: int, name: str) -> str:
        model = board_model(view, seat=seat)
        (unit,) = [u for u in model["units"] if u["seat"] == unit_seat and u["name"] == name]
        return unit["rotate"]

    assert rotation(1, 2, "C") == "rotate(180)"  # Delta C faces south: down for Alpha
    assert rotation(2, 2, "C") == "rotate(0)"  # ... and up for Delta itself
    assert rotation(1, 1, "1") == "rotate(90)"  # east is right for Alpha
    assert rotation(2, 1, "1") == "rotate(270)"  # and left on the flipped board


# -- pieces ----------------------------------------------------------------------------------
def test_every_unit_on_the_board_is_drawn_with_its_data_attributes() -> None:
    view = GAME.view(scenario_state(), 1)
    root = parse(render_board(view, seat=1))
    drawn = {
        (g.get("data-seat"), g.get("data-unit"), g.get("data-square")): g.get("class")
        for g in by_class(root, "fa-unit")
    }
    expected = {
        (str(u["seat"]), u["name"], u["at"])
        for u in view["units"]
        if u["status"] not in ("out", "broke_through")
    }
    assert set(drawn) == expected
    assert "kind-at" in drawn[("1", "AT1", "i4")]
    assert "kind-r" in drawn[("1", "R", "f1")]
    assert "status-wreck" in drawn[("2", "1A", "h8")]
    assert "status-damaged" in drawn[("1", "1", "c2")]
    assert "side-2" in drawn[("2", "C", "e9")]


def test_damage_wrecks_and_units_out_are_shown() -> None:
    root = parse(render_board(GAME.view(scenario_state(), None), seat=None))
    units = {g.get("data-unit") + g.get("data-seat"): g for g in by_class(root, "fa-unit")}
    assert by_class(units["11"], "fa-flame") and not by_class(units["C1"], "fa-flame")
    assert by_class(units["1A2"], "fa-wreck-x")
    assert "22" not in units  # Delta 2 is out: not on the board, named in the description
    assert "Delta 2 (out)" in root.find(f"{NS}desc").text


def test_units_sharing_a_square_are_both_drawn_side_by_side() -> None:
    model = board_model(GAME.view(scenario_state(), 1), seat=1)
    stacked = [u for u in model["units"] if u["square"] == "i4"]
    assert {u["name"] for u in stacked} == {"2A", "AT1"}
    assert len({u["transform"] for u in stacked}) == 2


def test_terrain_is_drawn_with_owner_and_square_classes() -> None:
    root = parse(render_board(GAME.view(scenario_state(), 1), seat=1))
    berms = by_class(root, "fa-berm")
    large = [b for b in berms if "large" in b.get("class")]
    assert len(large) == 1 and "owner-1" in large[0].get("class")
    (base,) = by_class(large[0], "fa-berm-base")
    assert base.get("width") == str(2 * CELL - 8)  # one raised piece over d3 and e3
    assert len([b for b in berms if "small" in b.get("class")]) == 2
    assert len(by_class(root, "fa-swamp")) == 2
    assert len(by_class(root, "fa-minefield")) == 3
    (arrow,) = by_class(root, "fa-passage-arrow")
    assert arrow.get("transform").endswith("rotate(180)")  # heading south, seen by Alpha
    assert "terrain-passage" in square_rect(root, "k8").get("class")
    assert "terrain-minefield" in square_rect(root, "j8").get("class")
    assert "owner-2" in square_rect(root, "a7").get("class")
    assert "terrain-berm" in square_rect(root, "d3").get("class")


def test_square_labels_read_out_terrain_and_units() -> None:
    root = parse(render_board(GAME.view(scenario_state(), 1), seat=1))
    assert square_rect(root, "e4").get("aria-label") == "e4: Alpha tank C facing north"
    assert square_rect(root, "c2").get("aria-label") == "c2: Alpha tank 1 facing east, damaged"
    assert square_rect(root, "e3").get("aria-label") == "e3: Alpha large berm"
    assert "passage, crossing heading south" in square_rect(root, "k8").get("aria-label")
    assert square_rect(root, "a1").get("aria-label") == "a1: empty, Alpha half"
    assert square_rect(root, "h8").get("aria-label") == "h8: wreck of Delta tank 1A"


def test_board_tokens_are_drawn_as_labelled_icons() -> None:
    view = GAME.view(scenario_state(), None)
    view["board_tokens"] = [
        {"token": "smoke", "seat": 2, "at": "f6", "round": 2},
        {"token": "red_cross", "seat": 1, "at": "b2", "round": 1},
        {"token": "nonsense", "seat": 1, "at": "b3", "round": 1},
    ]
    root = parse(render_board(view, seat=None))
    tokens = {g.get("data-token"): g for g in by_class(root, "fa-token")}
    assert set(tokens) == {"smoke", "red_cross"}
    assert tokens["smoke"].find(f"{NS}title").text == "Delta smoke on f6 (round 2)"
    assert "Alpha Red Cross" in square_rect(root, "b2").get("aria-label")


# -- the last round --------------------------------------------------------------------------
def test_last_round_moves_shells_and_hits_come_from_a_real_resolved_round() -> None:
    state = resolved_state()
    view = GAME.view(state, 1)
    root = parse(render_board(view, seat=1))
    last = layer(root, "fa-layer-last")
    titles = {g.find(f"{NS}title").text: g.get("class") for g in last}
    texts = {e["text"]: e["type"] for e in view["last_round"]}
    assert set(titles) <= set(texts)
    moves = [t for t, c in titles.items() if "fa-ev-move" in c]
    assert moves == ["Alpha C moved e4 -> e5."]
    assert len([c for c in titles.values() if "fa-ev-shell" in c]) == 3
    hits = [c for c in titles.values() if "fa-ev-hit" in c]
    assert len(hits) == 3 and len([c for c in hits if "is-out" in c]) == 1
    assert len(layer(parse(render_board(view, seat=1, last_round=False)), "fa-layer-last")) == 0


def test_last_round_overlays_read_in_the_readers_language() -> None:
    """The events keep the engine's English; the board tells them in the reader's language."""
    view = GAME.view(resolved_state(), 1)
    with translation.override("fr"):
        root = parse(render_board(view, seat=1))
    titles = [g.find(f"{NS}title").text for g in layer(root, "fa-layer-last")]
    assert "Alpha C s'est déplacé e4 -> e5." in titles
    assert "Alpha C a tiré sur e9." in titles
    assert any(t.startswith("L'obus tiré par Alpha 2 a touché Delta 2B en g7") for t in titles)
    assert english_in("\n".join(titles)) == []


def test_move_arrow_runs_from_the_old_square_to_the_new_one() -> None:
    view = GAME.view(resolved_state(), 1)
    model = board_model(view, seat=1)
    (move,) = [e for e in model["last"] if "fa-ev-move" in e["cls"]]
    (line,) = move["lines"]
    x1, y1, x2, y2 = line
    centre_x = MARGIN + 4 * CELL + CELL / 2  # file e
    assert x1 == x2 == centre_x
    assert y1 > y2  # upwards on Alpha's screen: e4 -> e5
    assert MARGIN + 7 * CELL < y2 < MARGIN + 8 * CELL  # ends inside e5 (row 7 from the top)


def test_bounces_and_stopped_shells_are_drawn_distinctly() -> None:
    view = GAME.view(scenario_state(), None)
    view["last_round"] = [
        {"type": "bounce", "seat": 1, "unit": "C", "from": "e4", "to": "e5", "text": "bounced"},
        {
            "type": "shell",
            "seat": 2,
            "unit": "C",
            "at": "e4",
            "from": "e9",
            "blocked": True,
            "text": "stopped by smoke",
        },
        {"type": "officer_loss", "seat": 2, "unit": "C", "text": "lost officer"},
        {"type": "move", "seat": 1, "from": "zz", "to": "e5", "text": "junk"},
        "not an event",
    ]
    root = parse(render_board(view, seat=None))
    groups = list(layer(root, "fa-layer-last"))
    assert [g.find(f"{NS}title").text for g in groups] == ["bounced", "stopped by smoke"]
    assert by_class(groups[0], "fa-stop")
    assert "is-stopped" in groups[1].get("class")
    assert "lost officer" in root.find(f"{NS}desc").text


# -- the viewer's draft sheet ----------------------------------------------------------------
def test_plan_draws_moves_shells_and_tokens_of_the_viewers_units() -> None:
    view = GAME.view(scenario_state(tokens={"mode": "all"}), 1)
    plan = {
        "units": {
            "C": {"move": "fr", "turn": True, "fire": ["e9"]},
            "AT1": {"move": "NW"},
            "2": {"move": "F"},
        },
        "tokens": {"full_throttle": {"unit": "2"}, "smoke": {"at": "f5"}},
    }
    model = board_model(view, seat=1, plan=plan)
    titles = [p["title"] for p in model["plan"]]
    assert "Plan: C moves FR and turns to f5" in titles
    assert "Plan: AT1 moves NW to h5" in titles
    assert "Plan: 2 moves F to g6" in titles  # full throttle: two squares
    assert "Plan: C fires at e9" in titles
    assert "Plan: smoke on f5" in titles
    root = parse(render_board(view, seat=1, plan=plan))
    assert len(layer(root, "fa-layer-plan")) == len(titles)


def test_plan_moves_the_engine_would_refuse_are_not_drawn() -> None:
    view = GAME.view(scenario_state(), 2)
    plan = {"units": {"C": {"move": "B"}, "1A": {"move": "F"}}}  # e9 -> e10 fine; 1A is a wreck
    titles = [p["title"] for p in board_model(view, seat=2, plan=plan)["plan"]]
    assert titles == ["Plan: C moves B to e10"]
    blocked = {"units": {"2B": {"move": "F"}}}  # g7 facing S: forward is g6, free
    assert board_model(view, seat=2, plan=blocked)["plan"]
    into_swamp = GAME.view(scenario_state(), 1)
    into_swamp["units"].append(
        {
            "seat": 1,
            "name": "1B",
            "kind": "tank",
            "at": "a6",
            "facing": "N",
            "hits": 0,
            "status": "ok",
        }
    )
    plan = {"units": {"1B": {"move": "F"}, "C": {"move": "sideways"}, "R": {"move": "B"}}}
    assert board_model(into_swamp, seat=1, plan=plan)["plan"] == []  # swamp, junk, off board


def test_plan_is_ignored_for_spectators_and_other_sides_units() -> None:
    view = GAME.view(scenario_state(), None)
    plan = {"units": {"C": {"move": "F", "fire": ["e9"]}}}
    assert board_model(view, seat=None, plan=plan)["plan"] == []
    delta_units_named = board_model(view, seat=2, plan={"units": {"2A": {"move": "F"}}})
    assert delta_units_named["plan"] == []  # Delta has no 2A on the board


JUNK_PLANS = [
    None,
    [],
    "C F",
    42,
    {"units": []},
    {"units": {"C": "F"}},
    {"units": {"C": {"move": ["F"]}}},
    {"units": {"C": {"move": "F", "fire": "e9"}}},
    {"units": {"C": {"move": "F", "fire": [None, 3, "zz", {"a": 1}]}}},
    {"units": {"ZZ": {"move": "F"}, 5: {"move": "F"}, ("x",): {}}},
    {"units": {"C": {"move": "F" * 1000, "turn": "yes"}}},
    {"tokens": []},
    {"tokens": {"smoke": {"at": 5}, "quick_sand": "d4", "bogus": {"at": "e5"}}},
    {"tokens": {"quick_shot": {"unit": ["C"], "fire": [1]}}},
    {"tokens": {"quick_shot": {"unit": "R", "fire": ["e9", "e10"]}}},
    {"tokens": {"air_strike": {"at": None, "fire": ["c9"]}}},
    {"tokens": {"full_throttle": {"unit": {}}, "mine_clearing": {"at": "k8"}}},
    {"declare": {"repair": ["x"]}, "units": {"C": {}}},
]


@pytest.mark.parametrize("plan", JUNK_PLANS)
def test_junk_in_the_plan_never_crashes_the_board(plan: Any) -> None:
    view = GAME.view(scenario_state(), 1)
    root = parse(render_board(view, seat=1, plan=plan))
    assert len(by_class(root, "fa-sq")) == 144


# -- marks, focus, phases --------------------------------------------------------------------
def test_marks_put_classes_on_squares_and_skip_junk() -> None:
    view = GAME.view(scenario_state(), 1)
    marks = {
        "is-legal": ["e5", "E6", "zz"],
        "is-selected": ["e4"],
        'bad" onclick="x': ["a1"],
        "is-cone": "e7",
    }
    root = parse(render_board(view, seat=1, marks=marks))
    assert "is-legal" in square_rect(root, "e5").get("class").split()
    assert "is-legal" in square_rect(root, "e6").get("class").split()
    assert "onclick" not in render_board(view, seat=1, marks=marks)
    assert not [r for r in by_class(root, "fa-sq") if "is-cone" in r.get("class")]
    stops = [r.get("data-square") for r in by_class(root, "fa-sq") if r.get("tabindex") == "0"]
    assert stops == ["e4"]  # the one tab stop follows the selection


def test_the_board_has_exactly_one_tab_stop() -> None:
    for seat, first in ((1, "a1"), (2, "l12"), (None, "a1")):
        root = parse(render_board(GAME.view(scenario_state(), seat), seat=seat))
        stops = [r.get("data-square") for r in by_class(root, "fa-sq") if r.get("tabindex") == "0"]
        assert stops == [first]  # bottom-left on the viewer's screen


def test_setup_phase_view_without_units_renders() -> None:
    state = GAME.start(2, GAME.default_options(), 3)
    view = GAME.view(state, 1)
    root = parse(render_board(view, seat=1, board_id="setup-board", caption="Your setup"))
    assert root.get("id") == "setup-board"
    assert not by_class(root, "fa-unit")
    assert len(by_class(root, "fa-sq")) == 144
    assert root.find(f"{NS}title").text == "Your setup — Final Act board, setup, seen by Alpha"


def test_a_setup_preview_with_missing_keys_renders() -> None:
    preview = {
        "terrain": [{"kind": "berm", "owner": 1, "squares": ["e3", "f3"]}],
        "units": [{"seat": 1, "name": "C", "kind": "tank", "at": "f2", "facing": "N"}],
    }
    root = parse(
        render_board(
            preview, seat=1, plan={"units": {"C": {"move": "F"}}}, marks={"is-area": ["a1", "b1"]}
        )
    )
    (unit,) = by_class(root, "fa-unit")
    assert unit.get("data-square") == "f2"
    assert len(by_class(root, "fa-berm")) == 1


def test_board_after_the_real_setup_and_at_match_end_parses() -> None:
    state = GAME.start(2, {"extra_forces": True, "tokens": {"mode": "all"}}, 5)
    rng = random.Random(5)
    state = GAME.resolve(state, {}, rng).state
    while state["phase"] != "over" and state["round"] < 8:
        subs = {s: GAME.bot_submission(state, s, "random", rng) for s in (1, 2)}
        plan = subs[1]
        state = GAME.resolve(state, subs, rng).state
        for seat in (None, 1, 2):
            root = parse(render_board(GAME.view(state, seat), seat=seat, plan=plan))
            assert len(by_class(root, "fa-sq")) == 144


# -- only the view ---------------------------------------------------------------------------
def test_the_board_shows_only_what_the_view_holds() -> None:
    state = scenario_state(tokens={"mode": "random-k", "k": 3})
    view = GAME.view(state, 1)
    hidden = set(state["tokens"]["2"]) - set(state["tokens"]["1"])
    markup = str(render_board(view, seat=1))
    for token in hidden:
        assert token not in markup and token.replace("_", " ") not in markup
    stripped = copy.deepcopy(view)
    stripped["units"] = [u for u in stripped["units"] if u["seat"] == 1]
    stripped["terrain"] = []
    root = parse(render_board(stripped, seat=1))
    assert {g.get("data-seat") for g in by_class(root, "fa-unit")} == {"1"}
    assert not by_class(root, "fa-terrain") and not by_class(root, "fa-berm")
    assert "Delta tank" not in str(render_board(stripped, seat=1))


def test_rendering_does_not_change_the_view() -> None:
    view = GAME.view(resolved_state(), 2)
    before = copy.deepcopy(view)
    render_board(view, seat=2, plan={"units": {"C": {"move": "F"}}}, marks={"is-area": ["a1"]})
    assert view == before


def test_hand_tokens_never_appear_even_for_their_owner() -> None:
    view = GAME.view(scenario_state(tokens={"mode": "all"}), 1)
    markup = str(render_board(view, seat=1))
    assert not any(token in markup for token in TOKENS)


def test_malformed_pieces_in_a_view_are_skipped_not_fatal() -> None:
    view = {
        "phase": "orders",
        "terrain": [
            "berm",
            {"kind": "lava", "owner": 1, "squares": ["a1"]},
            {"kind": "minefield", "owner": 2, "squares": ["c8"], "passage": "d8", "arrow": "S"},
            {"kind": "swamp", "owner": 7, "squares": ["a7"]},
            {"kind": "berm", "owner": 2, "squares": ["zz", "c10"]},
        ],
        "units": [None, {"seat": 1, "name": "C", "at": "nowhere"}, {"seat": 2, "name": "1"}],
        "board_tokens": [{"token": "smoke"}, 3],
        "last_round": "junk",
    }
    root = parse(render_board(view, seat=1, plan={"units": {"C": {"move": "F"}}}))
    assert len(by_class(root, "fa-terrain")) == 1  # only the berm on c10
    assert not by_class(root, "fa-unit") and not by_class(root, "fa-token")
