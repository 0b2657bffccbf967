"""The create form's option fields, drawn from a game's options schema (``engine.Option``), and
the presets a person picks first. Generic: no game is named here; a game's web plug-in may draw
a field itself (``GamePlugin.option_field``). The engine's ``validate_options`` stays the judge
of every value: these fields only shape input, and its problems come back by path."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clocks.zones import zone_choices
from engine import Game, Option, OptionKind, option_applies, option_value, options_with
from engine.base import PRESET_CLOCK, PRESET_CORRESPONDENCE, PRESET_QUICK
from games.plugins import GamePlugin

FIELD_PREFIX = "option__"


@dataclass(frozen=True)
class Preset:
    """A way to play, picked before any detail: its time control and who fills the other
    seats. The game adapts its options to it (``Game.preset_options``)."""

    slug: str
    label: Any
    help: Any
    hours_per_phase: Decimal
    clock_bank_hours: Decimal | None = None
    clock_increment_hours: Decimal | None = None
    clock_cap_hours: Decimal | None = None
    bots: bool = False  # the other seats are bots (else open seats, filled by invitation)


PRESETS: tuple[Preset, ...] = (
    Preset(PRESET_QUICK, _("Play the bot now"),
           _("Short deadlines (15 minutes a turn) and bots in the other seats."),
           hours_per_phase=Decimal("0.25"), bots=True),
    Preset(PRESET_CORRESPONDENCE, _("Correspondence: a day a turn"),
           _("Each turn's deadline is a day away; invite players to the open seats."),
           hours_per_phase=Decimal(24)),
    Preset(PRESET_CLOCK, _("Clock: 3 days + 1 a turn"),
           _("Each player's clock starts with 3 days and gains a day every turn (at most 7 "
             "days); it runs only while they owe a move."),
           hours_per_phase=Decimal(24), clock_bank_hours=Decimal(72),
           clock_increment_hours=Decimal(24), clock_cap_hours=Decimal(168)),
)


def presets_for(game: Game) -> list[Preset]:
    """The presets that make sense for ``game`` (playing the bot needs a bot)."""
    return [preset for preset in PRESETS if game.bots or not preset.bots]


def preset_base(game: Game, preset: Preset) -> dict[str, Any]:
    """The game's default options as ``preset`` adapts them: where the fields start from."""
    return {**game.default_options(), **game.preset_options(preset.slug)}


def field_name(option: Option) -> str:
    return FIELD_PREFIX + option.path.replace(".", "__")


def make_field(option: Option, plugin: GamePlugin) -> forms.Field | None:
    """The form field for ``option`` (None: set only in the JSON), its cleaned value the
    option's value."""
    label, help_text = gettext(option.label), gettext(option.help) if option.help else ""
    common: dict[str, Any] = {"label": label, "help_text": help_text, "required": False}
    if option.widget:
        return plugin.option_field(option, **common)
    if option.kind == OptionKind.INT:
        return forms.IntegerField(min_value=option.minimum, max_value=option.maximum,
                                  **common)
    if option.kind == OptionKind.BOOL:
        return forms.BooleanField(**common)
    if option.kind in (OptionKind.CHOICE, OptionKind.CHOICES):
        choices = [(value, gettext(text)) for value, text in option.choices]
        if option.kind == OptionKind.CHOICE:
            return forms.ChoiceField(choices=choices, **common)
        return forms.MultipleChoiceField(choices=choices, widget=forms.CheckboxSelectMultiple,
                                         **common)
    if option.kind == OptionKind.TIME:
        return forms.RegexField(r"^\d{2}:\d{2}$", widget=forms.TimeInput(attrs={"type": "time"}),
                                error_messages={"invalid": gettext("A time such as 10:00.")},
                                **common)
    if option.kind == OptionKind.TIME_ZONE:
        return forms.ChoiceField(choices=zone_choices, **common)
    return None


def start_values(game: Game, base: Mapping[str, Any], time_zone: str | None
                 ) -> dict[str, Any]:
    """Each field's starting value: the preset's or the game's default (the fallback where
    neither has one); a time zone field starts at the creator's zone."""
    defaults = game.default_options()
    values: dict[str, Any] = {}
    for option in game.options_schema():
        missing = object()
        value = option_value(base, option.path, missing)
        if value is missing:
            value = option_value(defaults, option.path, option.fallback)
        if option.kind == OptionKind.TIME_ZONE and time_zone:
            value = time_zone
        values[option.path] = value
    return values


def field_value(option: Option, value: Any) -> Any:
    """A cleaned field value as the option's value."""
    if option.optional and value in ("", None):
        return None
    return value


def fields_in_force(schema: Iterable[Option], options: Mapping[str, Any]) -> list[Option]:
    return [option for option in schema if option_applies(option, options)]


def options_from(game: Game, base: Mapping[str, Any], values: Mapping[str, Any]
                 ) -> dict[str, Any]:
    """``base`` with the fields' ``values`` (by path); fields out of force are left out."""
    return options_with(game.options_schema(), base, values)


def field_for_path(schema: Iterable[Option], path: str) -> Option | None:
    """The field a problem at ``path`` is about: the longest field path it starts with."""
    found = None
    for option in schema:
        about = path == option.path or path.startswith(option.path + ".")
        if about and (found is None or len(option.path) > len(found.path)):
            found = option
    return found


def notes_text(game: Game, options: Mapping[str, Any]) -> list[str]:
    """The game's notes on ``options`` (e.g. when gamedays open), translated."""
    lines = []
    for text, values in game.options_notes(options):
        shown = {key: ", ".join(gettext(item) for item in value) if isinstance(value, tuple)
                 else value for key, value in values.items()}
        lines.append(gettext(text) % shown)
    return lines
