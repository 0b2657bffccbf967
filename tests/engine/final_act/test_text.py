"""The plain-text order grammar of Final Act (email): parsing, writing, round trips, errors."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import RuleError, TextError
from engine.final_act import text
from engine.final_act.text import read_sheet, write_sheet

GAME_SLUG = "final-act"

ORDER_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("1A FL turn fire e7", {"units": {"1A": {"move": "FL", "turn": True, "fire": ["e7"]}}}),
    ("C stay", {"units": {"C": {"move": "stay"}}}),
    ("2 F fire e7 f8", {"units": {"2": {"move": "F", "fire": ["e7", "f8"]}}}),
    ("AT1 NE face E", {"units": {"AT1": {"move": "NE", "face": "E"}}}),
    ("AT2 fire c6 face N", {"units": {"AT2": {"fire": ["c6"], "face": "N"}}}),
    ("R BL", {"units": {"R": {"move": "BL"}}}),
    ("smoke d4", {"tokens": {"smoke": {"at": "d4"}}}),
    (
        "air strike c1 fire c9 c10 paid by 1B",
        {"tokens": {"air_strike": {"at": "c1", "fire": ["c9", "c10"], "paid_by": ["1B"]}}},
    ),
    (
        "air strike c1 fire c9 c10 paid by 1B 2",
        {"tokens": {"air_strike": {"at": "c1", "fire": ["c9", "c10"], "paid_by": ["1B", "2"]}}},
    ),
    ("air strike c1 fire c9", {"tokens": {"air_strike": {"at": "c1", "fire": ["c9"]}}}),
    ("full throttle 1A", {"tokens": {"full_throttle": {"unit": "1A"}}}),
    ("quick shot C fire e7 f7", {"tokens": {"quick_shot": {"unit": "C", "fire": ["e7", "f7"]}}}),
    ("mine clearing c8", {"tokens": {"mine_clearing": {"at": "c8"}}}),
    ("quick sand d5", {"tokens": {"quick_sand": {"at": "d5"}}}),
    ("red cross d3", {"tokens": {"red_cross": {"at": "d3"}}}),
    ("red cross activate 1A", {"tokens": {"red_cross": {"activate": "1A"}}}),
    ("repair 1A", {"declare": {"repair": "1A"}}),
    ("double shot C", {"declare": {"double_shot": "C"}}),
]

SETUP_EXAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("large berm c3 d3", {"terrain": {"large_berm": ["c3", "d3"]}}),
    ("small berms f2 h3", {"terrain": {"small_berms": ["f2", "h3"]}}),
    ("swamp a5 b5 a6 b6", {"terrain": {"swamp": ["a5", "b5", "a6", "b6"]}}),
    (
        "minefield g5 h5 i5 passage h5 arrow N",
        {"terrain": {"minefield": {"squares": ["g5", "h5", "i5"], "passage": "h5", "arrow": "N"}}},
    ),
    ("C e1 N", {"units": {"C": {"at": "e1", "facing": "N"}}}),
    ("AT1 k2 W", {"units": {"AT1": {"at": "k2", "facing": "W"}}}),
    ("draft smoke air strike quick sand", {"tokens": ["smoke", "air_strike", "quick_sand"]}),
]


@pytest.mark.parametrize(("line", "expected"), ORDER_EXAMPLES)
def test_each_order_line_of_the_grammar_reads_and_writes_back(line: str, expected: dict) -> None:
    assert read_sheet("orders", line) == expected
    assert write_sheet("orders", expected).strip() == line


@pytest.mark.parametrize(("line", "expected"), SETUP_EXAMPLES)
def test_each_setup_line_of_the_grammar_reads_and_writes_back(line: str, expected: dict) -> None:
    assert read_sheet("setup", line) == expected
    assert write_sheet("setup", expected).strip() == line


@pytest.mark.parametrize("phase", ["setup", "orders"])
def test_every_example_in_the_grammar_help_reads(phase: str) -> None:
    examples = [
        example.strip()
        for line in text.grammar_help(phase).splitlines()
        if line.startswith("  ")
        for example in line.strip().split("   ")[0].split("|")
    ]
    assert len(examples) >= 6
    for example in examples:
        assert read_sheet(phase, example), example


def test_a_whole_order_sheet_combines_its_lines() -> None:
    left_out = ("air strike c1 fire c9 c10 paid by 1B 2", "air strike c1 fire c9", "red cross d3")
    sheet = "\n".join(line for line, _ in ORDER_EXAMPLES if line not in left_out)
    parsed = read_sheet("orders", sheet)
    assert parsed["units"]["1A"] == {"move": "FL", "turn": True, "fire": ["e7"]}
    assert set(parsed["units"]) == {"1A", "C", "2", "AT1", "AT2", "R"}
    assert set(parsed["tokens"]) == set(text.TOKEN_NAMES)
    assert parsed["declare"] == {"repair": "1A", "double_shot": "C"}
    assert read_sheet("orders", write_sheet("orders", parsed)) == parsed


def test_case_spacing_and_spelling_variants_are_tolerated() -> None:
    assert read_sheet("orders", "1a  fl TURN  Fire E7") == read_sheet(
        "orders", "1A FL turn fire e7"
    )
    assert read_sheet("orders", "\t AIR-STRIKE C1 fire c9, C10 PAID BY 1b ") == read_sheet(
        "orders", "air strike c1 fire c9 c10 paid by 1B"
    )
    assert read_sheet("orders", "Quick_Sand d5; red cross D3") == {
        "tokens": {"quick_sand": {"at": "d5"}, "red_cross": {"at": "d3"}}
    }
    assert read_sheet("setup", "LARGE BERM c3 D3\nsmall berm f2 h3\nMine Field g5 h5 i5") == {
        "terrain": {
            "large_berm": ["c3", "d3"],
            "small_berms": ["f2", "h3"],
            "minefield": {"squares": ["g5", "h5", "i5"]},
        }
    }


def test_comments_blank_lines_quotes_and_signature_are_ignored() -> None:
    email = (
        "# my orders for round 3\n"
        "\n"
        "C stay   # hold the centre\n"
        "   \n"
        "On Sun, 22 Nov 2026 at 10:00, Final Act <match@example.org> wrote:\n"
        "> Round 3 of your match is open.\n"
        ">> C F fire e7\n"
        "1A F\n"
        "-- \n"
        "Sent from my phone\n"
        "C F\n"
    )
    assert read_sheet("orders", email) == {"units": {"C": {"move": "stay"}, "1A": {"move": "F"}}}


@pytest.mark.parametrize("separator", ["-----Original Message-----", "_" * 32])
def test_the_message_below_an_unquoted_reply_separator_is_ignored(separator: str) -> None:
    email = f"C stay\n\n{separator}\nFrom: Final Act\nRound 3 is open.\n"
    assert read_sheet("orders", email) == {"units": {"C": {"move": "stay"}}}


def test_an_empty_sheet_reads_as_an_empty_submission() -> None:
    assert read_sheet("orders", "") == {}
    assert read_sheet("orders", "# nothing this round\n\n> quoted\n") == {}
    assert write_sheet("orders", {}) == ""


def test_every_bad_line_is_listed_with_its_number_and_text() -> None:
    sheet = "C stay\nZ9 F\n1 fly\n\n1A F fire z99\nsmoke\n2 F\nC F\nlarge berm c3 d3\n"
    with pytest.raises(TextError) as caught:
        read_sheet("orders", sheet)
    problems = {p.path: p.message for p in caught.value.problems}
    assert list(problems) == ["line 2", "line 3", "line 5", "line 6", "line 8", "line 9"]
    assert problems["line 2"] == "unknown unit 'Z9' in 'Z9 F'"
    assert str(caught.value.problems[0]) == "line 2: unknown unit 'Z9' in 'Z9 F'"
    assert "'fly'" in problems["line 3"] and "'1 fly'" in problems["line 3"]
    assert "'z99' is not a square" in problems["line 5"]
    assert "smoke needs a square" in problems["line 6"]
    assert "already given on line 1" in problems["line 8"]
    assert "setup order" in problems["line 9"]
    assert isinstance(caught.value, RuleError)


def test_setup_errors_name_each_line() -> None:
    sheet = "swamp a5 b5 a6 q6\nminefield g5 h5 i5 passage h5 arrow X\nC e1 up\nsmoke d4\ndraft tea"
    with pytest.raises(TextError) as caught:
        read_sheet("setup", sheet)
    paths = [p.path for p in caught.value.problems]
    assert paths == ["line 1", "line 2", "line 3", "line 4", "line 5"]
    assert "'q6' is not a square" in caught.value.problems[0].message
    assert "'X' is not a direction" in caught.value.problems[1].message
    assert "round order" in caught.value.problems[3].message
    assert "unknown token 'tea'" in caught.value.problems[4].message


def test_moves_of_the_wrong_kind_are_named() -> None:
    with pytest.raises(TextError) as caught:
        read_sheet("orders", "AT1 FL\nC NE\nC F B\nAT2 face Q\nAT1 N turn\n1 FL face W")
    messages = [p.message for p in caught.value.problems]
    assert "AT1 cannot move 'FL'" in messages[0]
    assert "C cannot move 'NE'" in messages[1]
    assert "C has two moves" in messages[2]
    assert "'Q' is not a direction" in messages[3]
    assert "AT1 does not turn" in messages[4] and "face N" in messages[4]
    assert "1 turns only with a diagonal move" in messages[5]


def test_an_over_long_text_is_refused_with_one_clear_problem() -> None:
    with pytest.raises(TextError) as caught:
        read_sheet("orders", "C stay\n" * 1000)
    assert len(caught.value.problems) == 1
    assert "1000 order lines" in caught.value.problems[0].message


def test_a_megabyte_of_quoted_text_is_read_quickly() -> None:
    email = "C F\n" + "> " + "x" * 100 + "\n" * 1 + ("> quoted board line\n" * 50_000)
    assert read_sheet("orders", email) == {"units": {"C": {"move": "F"}}}


def test_a_megabyte_on_one_line_is_one_clear_problem() -> None:
    with pytest.raises(TextError) as caught:
        read_sheet("orders", "C F " * 250_000)
    assert [p.path for p in caught.value.problems] == ["line 1"]
    assert "too long" in caught.value.problems[0].message
    assert len(caught.value.problems[0].message) < 200


def test_non_text_input_is_a_text_error() -> None:
    with pytest.raises(TextError):
        read_sheet("orders", None)
    with pytest.raises(TextError):
        read_sheet("orders", 42)
    assert read_sheet("orders", b"C stay\n") == {"units": {"C": {"move": "stay"}}}
    with pytest.raises(TextError):
        read_sheet("orders", b"\xff\xfe\x00junk")


def test_the_over_phase_takes_no_text() -> None:
    with pytest.raises(TextError) as caught:
        read_sheet("over", "C stay")
    assert "over" in caught.value.problems[0].message


# -- any input: a submission or a TextError, never another exception ---------------------------

JUNK_WORDS = st.sampled_from(
    ["C", "1a", "at1", "r", "fire", "face", "turn", "stay", "fl", "NE", "e7", "z99", "l12", "a0",
     "smoke", "air", "strike", "paid", "by", "red", "cross", "activate", "quick", "shot", "sand",
     "mine", "clearing", "full", "throttle", "repair", "double", "large", "berm", "small",
     "berms", "swamp", "minefield", "passage", "arrow", "draft", "#", ">", "--", ";", ",",
     "\u00e9", "\u0661", "\u212a3", "\x00", "ß", "\t"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    phase=st.sampled_from(["setup", "orders"]),
    data=st.one_of(
        st.text(max_size=300),
        st.binary(max_size=300),
        st.lists(st.lists(JUNK_WORDS, max_size=8).map(" ".join), max_size=12).map("\n".join),
    ),
)
def test_any_input_gives_a_submission_or_a_text_error(phase: str, data: str | bytes) -> None:
    try:
        parsed = read_sheet(phase, data)
    except TextError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.path == "text" or problem.path.startswith("line ")
            assert problem.message
        return
    assert isinstance(parsed, dict)
    # Whatever is read writes back to the same submission.
    assert read_sheet(phase, write_sheet(phase, parsed)) == parsed


@pytest.fixture(scope="module")
def orders_state() -> dict[str, Any]:
    game = _game()
    options = {"advanced": ["repair"], "tokens": {"mode": "all"}, "extra_forces": True}
    state = game.start(2, game.validate_options(options), seed=11)
    setups = {seat: game.default_submission(state, seat) for seat in (1, 2)}
    return game.resolve(state, setups, random.Random(11)).state


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    seat=st.sampled_from([1, 2]),
    data=st.one_of(
        st.text(max_size=200),
        st.lists(st.lists(JUNK_WORDS, max_size=8).map(" ".join), max_size=12).map("\n".join),
    ),
)
def test_any_text_through_the_game_gives_a_submission_or_a_text_error(
    orders_state: dict[str, Any], seat: int, data: str
) -> None:
    game = _game()
    try:
        parsed = game.parse_text(orders_state, seat, data)
    except TextError:
        return
    assert isinstance(parsed, dict)
    try:
        game.validate(orders_state, seat, parsed)
    except RuleError as error:
        assert error.problems


# -- write then read is the identity --------------------------------------------------------

SQUARES = st.builds(lambda f, r: f"{f}{r}", st.sampled_from("abcdefghijkl"), st.integers(1, 12))
TANKS = ("C", "1", "1A", "1B", "2", "2A", "2B")


@st.composite
def unit_orders(draw: st.DrawFn) -> dict[str, Any]:
    units: dict[str, Any] = {}
    for unit in draw(st.lists(st.sampled_from(text.UNIT_ORDER), unique=True, max_size=10)):
        order: dict[str, Any] = {}
        moves = text.COMPASS_MOVES if unit in text.AT_UNITS else text.TANK_MOVES
        if draw(st.booleans()):
            order["move"] = draw(st.sampled_from(moves))
        if unit not in text.AT_UNITS and draw(st.booleans()):
            order["turn"] = True
        if draw(st.booleans()):
            order["fire"] = draw(st.lists(SQUARES, min_size=1, max_size=2))
        if unit in text.AT_UNITS and draw(st.booleans()):
            order["face"] = draw(st.sampled_from(text.FACINGS))
        units[unit] = order
    return units


@st.composite
def order_sheets(draw: st.DrawFn) -> dict[str, Any]:
    sheet: dict[str, Any] = {}
    units = draw(unit_orders())
    if units:
        sheet["units"] = units
    tokens: dict[str, Any] = {}
    for name in draw(st.lists(st.sampled_from(text.TOKEN_ORDER), unique=True)):
        if name == "air_strike":
            entry: dict[str, Any] = {
                "at": draw(SQUARES),
                "fire": draw(st.lists(SQUARES, min_size=1, max_size=2)),
            }
            if draw(st.booleans()):
                entry["paid_by"] = draw(st.lists(st.sampled_from(TANKS), min_size=1, max_size=2))
        elif name == "full_throttle":
            entry = {"unit": draw(st.sampled_from(TANKS))}
        elif name == "quick_shot":
            entry = {
                "unit": draw(st.sampled_from(TANKS)),
                "fire": draw(st.lists(SQUARES, min_size=1, max_size=2)),
            }
        elif name == "red_cross" and draw(st.booleans()):
            entry = {"activate": draw(st.sampled_from(TANKS))}
        else:
            entry = {"at": draw(SQUARES)}
        tokens[name] = entry
    if tokens:
        sheet["tokens"] = tokens
    declare = {
        name: draw(st.sampled_from(TANKS))
        for name in draw(st.lists(st.sampled_from(text.DECLARATIONS), unique=True))
    }
    if declare:
        sheet["declare"] = declare
    return sheet


@st.composite
def setup_sheets(draw: st.DrawFn) -> dict[str, Any]:
    sheet: dict[str, Any] = {}
    terrain: dict[str, Any] = {}
    for key, size in (("large_berm", 2), ("small_berms", 2), ("swamp", 4)):
        if draw(st.booleans()):
            terrain[key] = draw(st.lists(SQUARES, min_size=1, max_size=size))
    if draw(st.booleans()):
        minefield: dict[str, Any] = {"squares": draw(st.lists(SQUARES, min_size=1, max_size=3))}
        if draw(st.booleans()):
            minefield["passage"] = draw(SQUARES)
        if draw(st.booleans()):
            minefield["arrow"] = draw(st.sampled_from(text.FACINGS))
        terrain["minefield"] = minefield
    if terrain:
        sheet["terrain"] = terrain
    units = {}
    for unit in draw(st.lists(st.sampled_from(text.UNIT_ORDER), unique=True)):
        placement = {"at": draw(SQUARES)}
        if draw(st.booleans()):
            placement["facing"] = draw(st.sampled_from(text.FACINGS))
        units[unit] = placement
    if units:
        sheet["units"] = units
    if draw(st.booleans()):
        sheet["tokens"] = draw(st.lists(st.sampled_from(text.TOKEN_ORDER), min_size=1, max_size=7))
    return sheet


@settings(max_examples=200, deadline=None)
@given(order_sheets())
def test_writing_then_reading_an_order_sheet_gives_it_back(sheet: dict[str, Any]) -> None:
    assert read_sheet("orders", write_sheet("orders", sheet)) == sheet


@settings(max_examples=200, deadline=None)
@given(setup_sheets())
def test_writing_then_reading_a_setup_sheet_gives_it_back(sheet: dict[str, Any]) -> None:
    assert read_sheet("setup", write_sheet("setup", sheet)) == sheet


# -- through the game: the phase comes from the state ------------------------------------------


def _game() -> engine.Game:
    return engine.get(GAME_SLUG)


def test_the_game_reads_setup_text_in_the_setup_phase_and_orders_after() -> None:
    game = _game()
    state = game.start(2, {}, seed=7)
    setup = {
        seat: game.validate(state, seat, game.default_submission(state, seat)) for seat in (1, 2)
    }
    for seat in (1, 2):
        written = game.format_text(state, seat, setup[seat])
        assert game.parse_text(state, seat, written) == setup[seat]
        assert game.validate(state, seat, game.parse_text(state, seat, written)) == setup[seat]
    with pytest.raises(TextError):
        game.parse_text(state, 1, "C stay")
    state = game.resolve(state, setup, random.Random(1)).state
    assert game.view(state, 1)["phase"] == "orders"
    stay = game.validate(state, 1, {"units": {"C": {"move": "stay"}}})
    assert game.parse_text(state, 1, "C  STAY") == stay
    # A sheet the game refuses comes back as written, for validate to explain.
    refused = game.parse_text(state, 1, "C F fire a1")
    assert refused == {"units": {"C": {"move": "F", "fire": ["a1"]}}}
    with pytest.raises(RuleError):
        game.validate(state, 1, refused)
    with pytest.raises(TextError):
        game.parse_text(state, 1, "large berm c3 d3")


@pytest.mark.parametrize("tokens", [{"mode": "all"}, {"mode": "draft-k", "k": 3}])
def test_valid_sheets_from_the_game_round_trip_through_text(tokens: dict[str, Any]) -> None:
    """parse_text(format_text(x)) == x for normalized submissions from real games."""
    game = _game()
    options = {
        "advanced": ["wrecks", "officer_loss", "double_shot", "repair"],
        "tokens": tokens,
        "extra_forces": True,
    }
    for seed in range(4):
        rng = random.Random(seed)
        state = game.start(2, game.validate_options(options), seed=seed)
        for _ in range(30):
            if game.result(state) is not None:
                break
            subs = {}
            for seat, bot in ((1, "random"), (2, "greedy")):
                sub = game.validate(state, seat, game.bot_submission(state, seat, bot, rng))
                written = game.format_text(state, seat, sub)
                assert game.parse_text(state, seat, written) == sub, written
                subs[seat] = sub
            state = game.resolve(state, subs, rng).state
