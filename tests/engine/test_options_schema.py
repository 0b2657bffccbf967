"""Every game's options schema agrees with its own validation: each field's path holds a value
in the defaults, its choices and bounds are what ``validate_options`` accepts, and a value out
of bounds is refused with a problem at that field's path (where the form shows it)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import Option, OptionKind, OptionsError, option_applies, option_value, options_with

GAMES = sorted(slug for slug, game in engine.games().items() if game.options_schema())
NO_VALUE = object()


def value_at(options: dict[str, Any], path: str) -> Any:
    return option_value(options, path, NO_VALUE)


def with_value(game: engine.Game, options: dict[str, Any], path: str, value: Any
               ) -> dict[str, Any]:
    """``options`` with ``path`` set as the create form sets it: fields that come into force
    take their fallback, those that go out of force are dropped."""
    schema = game.options_schema()
    changed = options_with(schema, options, {path: value})
    missing = {option.path: option.fallback for option in schema
               if option_applies(option, changed) and value_at(changed, option.path) is NO_VALUE}
    return options_with(schema, changed, missing)


def applies(option: Option, options: dict[str, Any]) -> bool:
    return option_applies(option, options)


def test_the_four_games_declare_their_options():
    assert {"final-act", "final-strategy", "panzer-squadron", "tank-game"} <= set(GAMES)


@pytest.mark.parametrize("slug", GAMES)
def test_each_field_in_force_by_default_has_a_default_value(slug):
    game = engine.get(slug)
    defaults = game.validate_options(game.default_options())
    for option in game.options_schema():
        if applies(option, defaults):
            assert value_at(defaults, option.path) is not NO_VALUE, option.path
        else:
            assert option.fallback is not None, option.path


def test_switching_a_schedule_kind_drops_the_other_kinds_keys():
    game = engine.get("tank-game")
    every = with_value(game, game.default_options(), "schedule.kind", "every")
    assert every["schedule"] == {"kind": "every", "minutes": 60, "open_minutes": 60}
    back = with_value(game, every, "schedule.kind", "weekly")
    assert set(back["schedule"]) >= {"weekdays", "open", "close", "time_zone"}
    assert "minutes" not in back["schedule"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_choice_is_accepted_and_bounds_are_the_validations(slug):
    game = engine.get(slug)
    defaults = game.validate_options(game.default_options())
    for option in game.options_schema():
        if not applies(option, defaults):
            continue
        if option.kind == OptionKind.CHOICE:
            for value, label in option.choices:
                assert label
                game.validate_options(with_value(game, defaults, option.path, value))
        elif option.kind == OptionKind.CHOICES:
            every = [value for value, _ in option.choices]
            game.validate_options(with_value(game, defaults, option.path, every))
        elif option.kind == OptionKind.INT:
            for good in (option.minimum, option.maximum):
                game.validate_options(with_value(game, defaults, option.path, good))
            for bad in (option.minimum - 1, option.maximum + 1):
                with pytest.raises(OptionsError) as refused:
                    game.validate_options(with_value(game, defaults, option.path, bad))
                assert [p.path for p in refused.value.problems] == [option.path]
            if option.optional:
                game.validate_options(with_value(game, defaults, option.path, None))


@pytest.mark.parametrize("slug", GAMES)
def test_preset_options_are_valid_options(slug):
    game = engine.get(slug)
    for preset in (engine.base.PRESET_QUICK, engine.base.PRESET_CORRESPONDENCE,
                   engine.base.PRESET_CLOCK):
        game.validate_options({**game.default_options(), **game.preset_options(preset)})
