"""The match pages' forms: shapes and clear messages (the rules themselves are the services')."""

import json

import pytest

import engine
from games.forms import MatchCreateForm, OrdersForm, default_game_slug


def create_data(**overrides):
    data = {"game": "toy-duel", "seat_count": "2", "seat_1": "me", "seat_2": "open",
            "options": "{}", "options_game": "toy-duel", "hours_per_phase": "1.5",
            "miss_policy": "forfeit", "miss_limit": "2"}
    data.update(overrides)
    return data


class Someone:
    pk = 42
    is_authenticated = True


def test_seat_pickers_follow_the_game_and_offer_its_bots():
    form = MatchCreateForm(initial={"game": "toy-duel"}, user=Someone())
    assert [f.name for f in form.seat_fields()] == ["seat_1", "seat_2"]
    choices = dict(form.fields["seat_2"].choices)
    assert set(choices) == {"me", "open", "bot:random"}
    assert form.fields["seat_1"].label == "Seat 1 (North)"
    assert form["seat_2"].value() == "bot:random"  # the first preset: playing the bot now


def test_the_default_game_is_final_act_when_installed():
    expected = "final-act" if "final-act" in engine.games() else sorted(engine.games())[0]
    assert default_game_slug() == expected


def test_valid_form_builds_the_seat_list_for_the_service():
    user = Someone()
    form = MatchCreateForm(create_data(seat_2="bot:random"), user=user)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["seats"] == [{"kind": "human", "user": user},
                                          {"kind": "bot", "bot": "random"}]
    assert form.cleaned_data["options"] == {}
    assert form.cleaned_data["is_public"] is False  # an unticked box


def test_open_seats_are_human_seats_without_a_user():
    form = MatchCreateForm(create_data(seat_1="open", seat_2="open"), user=Someone())
    assert form.is_valid(), form.errors
    assert form.cleaned_data["seats"] == [{"kind": "human", "user": None}] * 2


@pytest.mark.parametrize("text, message", [
    ("{", "Options are not valid JSON: Expecting property name enclosed in double quotes "
          "at line 1, column 2."),
    ("[1, 2]", 'Options must be a JSON object, like {"key": value}.'),
    ('"target"', 'Options must be a JSON object, like {"key": value}.'),
])
def test_options_must_be_a_json_object(text, message):
    form = MatchCreateForm(create_data(options=text), user=Someone())
    assert not form.is_valid()
    assert form.errors["options"] == [message]


def test_options_written_for_another_game_are_emptied_with_a_warning():
    form = MatchCreateForm(create_data(options='{"rounds": 2}', options_game="sealed-notes"),
                           user=Someone())
    assert not form.is_valid()
    assert "filled in again" in form.non_field_errors()[0]
    assert form["options"].value() == ""  # the fields (the game's defaults) are used again
    assert json.loads(form.fields_json()) == engine.get("toy-duel").default_options()


def test_seat_count_outside_the_games_range_is_refused():
    form = MatchCreateForm(create_data(seat_count="3"), user=Someone())
    assert not form.is_valid()
    assert "less than or equal to 2" in form.errors["seat_count"][0]


def test_an_unknown_game_is_refused():
    form = MatchCreateForm(create_data(game="chess"), user=Someone())
    assert not form.is_valid()
    assert "Select a valid choice" in form.errors["game"][0]


def test_orders_form_parses_json_and_keeps_text_as_text():
    form = OrdersForm({"phase_number": "3", "format": "json", "orders": '{"number": 4}'})
    assert form.is_valid() and form.cleaned_data["data"] == {"number": 4}
    form = OrdersForm({"phase_number": "3", "format": "text", "orders": "4"})
    assert form.is_valid() and "data" not in form.cleaned_data


def test_orders_form_names_where_the_json_breaks():
    form = OrdersForm({"phase_number": "3", "format": "json", "orders": '{"number": }'})
    assert not form.is_valid()
    assert form.errors["orders"] == ["Not valid JSON: Expecting value at line 1, column 12."]


def test_orders_form_refuses_a_huge_sheet():
    form = OrdersForm({"phase_number": "1", "format": "text", "orders": "x" * 20_001})
    assert not form.is_valid()
    assert "at most 20000 characters" in form.errors["orders"][0]


def test_a_big_match_gets_pickers_for_the_first_seats_and_open_seats_after():
    import tests.portal.notegame  # noqa: F401  (registers "crowd-notes", 2 to 30 seats)

    user = Someone()
    data = {"game": "crowd-notes", "seat_count": "20", "options": "{}",
            "options_game": "crowd-notes", "hours_per_phase": "24", "miss_policy": "replace",
            "miss_limit": "3", "seat_1": "me", "seat_2": "bot:parrot"}
    data.update({f"seat_{n}": "open" for n in range(3, 13)})
    form = MatchCreateForm(data, user=user)
    assert len(form.seat_fields()) == 12
    assert "Seats after 12 are open seats" in form.fields["seat_count"].help_text
    assert form.is_valid(), form.errors
    seats = form.cleaned_data["seats"]
    assert len(seats) == 20
    assert seats[:2] == [{"kind": "human", "user": user}, {"kind": "bot", "bot": "parrot"}]
    assert seats[2:] == [{"kind": "human", "user": None}] * 18
