"""One parser for whole numbers and ids from request input: ASCII digits (or a JSON integer)
within stated bounds, everything else refused with a sentence naming the field."""

import pytest

from games.parsing import MAX_ID, InvalidNumber, id_or_none, parse_id, parse_int


@pytest.mark.parametrize("value, expected", [("0", 0), ("12", 12), ("007", 7), (12, 12),
                                             ("-3", -3), (str(MAX_ID), MAX_ID)])
def test_whole_numbers_are_read(value, expected):
    assert parse_int(value, min=-10, max=MAX_ID, field="page") == expected


@pytest.mark.parametrize("value", [
    "\N{SUPERSCRIPT TWO}",  # isdigit() is true, int() refuses it
    "9" * 5000,  # int() refuses more than 4,300 digits
    "\N{ARABIC-INDIC DIGIT ONE}\N{ARABIC-INDIC DIGIT TWO}",  # int() reads it as 12
    " 12", "12 ", "1_2", "+1", "1.5", "1e3", "", "0x10", "a\x00b",
    1.5, 2.0, True, None, [1], {"n": 1},
])
def test_anything_else_is_refused_naming_the_field(value):
    with pytest.raises(InvalidNumber) as refused:
        parse_int(value, min=0, max=100, field="page")
    assert refused.value.field == "page"
    message = str(refused.value)
    assert message.startswith("page must be a whole number from 0 to 100")
    assert "\x00" not in message and len(message) < 120


def test_numbers_out_of_bounds_are_refused_with_the_bounds():
    with pytest.raises(InvalidNumber, match="replay must be from 1 to 50, not 51"):
        parse_int("51", min=1, max=50, field="replay")
    with pytest.raises(InvalidNumber):
        parse_int("-1", min=0, max=50, field="replay")


def test_ids_start_at_one_and_fit_a_bigint():
    assert parse_id("1", field="match") == 1
    for value in ("0", str(MAX_ID + 1), "-1"):
        with pytest.raises(InvalidNumber):
            parse_id(value, field="match")
    assert id_or_none("\N{SUPERSCRIPT TWO}") is None and id_or_none(7) == 7


def test_a_refusal_is_a_bad_request():
    """Uncaught in a view, Django answers it with 400 (handler400 shows its sentence)."""
    from django.core.exceptions import BadRequest

    assert issubclass(InvalidNumber, BadRequest) and issubclass(InvalidNumber, ValueError)
