"""engine.jsontext.read_json: JSON from outside read within bounds, without recursion."""

from __future__ import annotations

import json
import time

import pytest

from engine.jsontext import JSONLimitError, json_depth, read_json


@pytest.mark.parametrize(("text", "depth"), [
    ("1", 0), ('"[[["', 0), ("[]", 1), ('[1, [2, {"a": [3]}]]', 4),
    ('{"a": "\\"[[", "b": ["]]]"]}', 2), ("[[]][[[]]]", 3),
])
def test_depth_counts_brackets_outside_strings_only(text, depth):
    assert json_depth(text) == depth


def test_json_within_the_bounds_reads_as_json_loads_reads_it():
    text = json.dumps({"a": [1, 2.5, None, True, "x[{"], "b": {"c": [[[]]]}})
    assert read_json(text, max_depth=5) == json.loads(text)
    assert read_json(text.encode()) == json.loads(text)


@pytest.mark.parametrize("depth", [65, 3000, 1_000_000])
def test_nesting_past_the_bound_is_refused_without_recursion(depth):
    started = time.monotonic()
    with pytest.raises(JSONLimitError, match="nested too deeply: at most 64 levels"):
        read_json("[" * depth + "]" * depth)
    assert time.monotonic() - started < 5


def test_the_depth_bound_is_the_callers():
    assert read_json("[[1]]", max_depth=2) == [[1]]
    with pytest.raises(JSONLimitError):
        read_json("[[[1]]]", max_depth=2)


@pytest.mark.parametrize("text", ["[1e999]", "-1e400", "NaN", '{"a": Infinity}', "-Infinity"])
def test_numbers_that_are_not_finite_are_refused(text):
    with pytest.raises(JSONLimitError, match="not finite"):
        read_json(text)


def test_an_integer_too_long_to_read_is_refused():
    with pytest.raises(JSONLimitError, match="over 4300 digits"):
        read_json("9" * 5000)


@pytest.mark.parametrize("text", ['"' + "é" * 600 + '"', ('"' + "é" * 600 + '"').encode()])
def test_the_size_bound_counts_utf8_bytes(text):
    with pytest.raises(JSONLimitError, match="at most 1000 bytes are accepted, it has 1202"):
        read_json(text, max_bytes=1000)


@pytest.mark.parametrize("text", ["not json", b"\xff\xfe", "[1,", ""])
def test_text_that_is_not_json_is_the_usual_value_error(text):
    with pytest.raises(ValueError) as raised:
        read_json(text)
    assert not isinstance(raised.value, JSONLimitError)


def test_a_refusal_carries_its_words_for_translation():
    with pytest.raises(JSONLimitError) as raised:
        read_json("[" * 100)
    assert raised.value.text.params == {"limit": 64}
    assert str(raised.value) == str(raised.value.text)
