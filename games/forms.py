"""Forms of the match pages. They parse and check shapes only; the rules live in services."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

import engine
from engine import Option, option_applies
from engine.jsontext import JSONLimitError, read_json
from games import option_fields, plugins
from games.models import Match
from games.words import problem_line, problem_message, sentence

# More seat pickers than this make the form unusable: further seats are open seats, filled
# through the invite link.
MAX_SEAT_PICKERS = 12
ME, OPEN, BOT_PREFIX = "me", "open", "bot:"


def game_choices() -> list[tuple[str, str]]:
    """The games this site offers, in the order settings.INSTALLED_GAMES lists them."""
    known = engine.games()
    return [(slug, known[slug].name or slug) for slug in plugins.installed()]


def default_game_slug() -> str:
    """The first game settings list (the one a new player most likely wants)."""
    slugs = [slug for slug, _ in game_choices()]
    return slugs[0] if slugs else ""


def options_json(options: Any) -> str:
    return json.dumps(options, indent=2, sort_keys=True)


def parse_json_object(text: str, what: str) -> dict[str, Any]:
    """``text`` as a JSON object, or a ValidationError saying where the JSON breaks."""
    try:
        value = read_json(text or "{}")
    except JSONLimitError as error:
        raise forms.ValidationError(sentence(error.text)) from None
    except json.JSONDecodeError as error:
        raise forms.ValidationError(
            _("%(what)s are not valid JSON: %(error)s at line %(line)s, column %(column)s.")
            % {"what": what, "error": error.msg, "line": error.lineno, "column": error.colno}
        ) from None
    if not isinstance(value, dict):
        raise forms.ValidationError(_("%(what)s must be a JSON object, like {\"key\": value}.")
                                    % {"what": what})
    return value


class MatchCreateForm(forms.Form):
    """Create a match: the game, a preset (how to play), seats, the game's options as fields
    drawn from its schema, and (advanced) the time control, missed-deadline policy and the
    options as JSON.

    The seat pickers and option fields depend on the chosen game and preset, so they are built
    per request. Changing the game or the preset fills them in again (``options_game`` and
    ``preset_filled`` say what they were filled for).
    """

    # The fields shown before the game's options; the rest (but the JSON) go under "advanced".
    MAIN = ("game", "preset", "title", "seat_count")
    LATER = ("is_public", "press", "reveal_private")

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    preset = forms.ChoiceField(label=_("How do you want to play?"), widget=forms.RadioSelect,
                               choices=[(p.slug, p.label) for p in option_fields.PRESETS],
                               required=False)
    title = forms.CharField(label=_("Title"), max_length=120, required=False)
    seat_count = forms.IntegerField(label=_("Number of seats"), min_value=1)
    options = forms.CharField(
        label=_("Options as JSON"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        required=False,
        help_text=_("Leave empty to use the fields above. Options written here are used "
                    "instead of them, as in the API."),
    )
    # What the fields were filled in for: changing the game or preset fills them in again.
    options_game = forms.CharField(widget=forms.HiddenInput, required=False)
    preset_filled = forms.CharField(widget=forms.HiddenInput, required=False)
    hours_per_phase = forms.DecimalField(
        label=_("Hours per phase"),
        min_value=Decimal("0.05"),
        max_value=Decimal(24 * 30),
        decimal_places=3,
        initial=Decimal(24),
        help_text=_("Time control: each phase's deadline, in hours (0.05 = 3 minutes)."),
    )
    clock_bank_hours = forms.DecimalField(
        label=_("Clock: time bank (hours)"), required=False, min_value=Decimal(1),
        max_value=Decimal(30 * 24), decimal_places=3,
        help_text=_("Correspondence clocks instead of a fixed deadline: each seat starts with "
                    "this bank (72 = 3 days), charged only while it owes orders and is in its "
                    "player's active hours. Empty: the hours per phase above."))
    clock_increment_hours = forms.DecimalField(
        label=_("Clock: added per phase (hours)"), required=False, min_value=Decimal(0),
        max_value=Decimal(30 * 24), decimal_places=3, initial=Decimal(24))
    clock_cap_hours = forms.DecimalField(
        label=_("Clock: largest bank (hours)"), required=False, min_value=Decimal(1),
        max_value=Decimal(30 * 24), decimal_places=3, initial=Decimal(168))
    max_shift_hours = forms.DecimalField(
        label=_("Move a deadline out of a player's night by at most (hours)"), required=False,
        min_value=Decimal(0), max_value=Decimal(7 * 24), decimal_places=3, initial=Decimal(12),
        help_text=_("A fixed deadline outside the active hours of a player who still owes "
                    "orders moves to the start of their next window, by at most this much. "
                    "0: never; empty: 12."))
    miss_policy = forms.ChoiceField(
        label=_("When a player keeps missing deadlines"),
        choices=Match.MissPolicy.choices,
        initial=Match.MissPolicy.REPLACE,
    )
    miss_limit = forms.IntegerField(
        label=_("Misses in a row before that"),
        min_value=1,
        max_value=20,
        initial=3,
        help_text=_("A missed deadline plays the game's default orders for that seat."),
    )
    autopilot = forms.BooleanField(
        label=_("A bot plays a seat while it seeks a new commander"), required=False,
        initial=True,
        help_text=_("A seat whose player left, or was taken off it after missed deadlines, is "
                    "offered to a new commander in the lobby and by a link. Until someone "
                    "takes it, the game's bot plays it; otherwise its default orders are "
                    "played."),
    )
    is_public = forms.BooleanField(
        label=_("Public (anyone may watch and join open seats)"), required=False, initial=True
    )
    press = forms.ChoiceField(
        label=_("Messages between the players"), choices=Match.Press.choices,
        initial=Match.Press.FULL, widget=forms.RadioSelect, required=False,  # (empty: full)
        help_text=_("Spectators read the public messages only."))
    reveal_private = forms.BooleanField(
        label=_("Show the private messages to everyone once the match has ended"),
        required=False, initial=False)
    min_reliability = forms.IntegerField(
        label=_("Minimum reliability to join (%)"),
        min_value=0,
        max_value=100,
        required=False,
        help_text=_("Players whose reliability record is lower (or who have none yet) cannot "
                    "take a seat. Empty: anyone."),
    )
    allow_vacations = forms.BooleanField(
        label=_("Allow vacations (a player's leave extends the deadline)"), required=False,
        initial=True,
        help_text=_("Players take leave on their profile, from a yearly bank of days."),
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.refilled = False
        self.option_names: dict[str, Option] = {}  # field name -> its option
        source = self.data if self.is_bound else self.initial
        slug = str(source.get("game") or default_game_slug())
        offered = dict(game_choices())
        slug = slug if slug in offered else default_game_slug()
        self.game_obj = engine.games().get(slug)
        game = self.game_obj
        if game is None:
            return
        self.fields["game"].initial = game.slug
        presets = option_fields.presets_for(game)
        self.fields["preset"].choices = [(p.slug, p.label) for p in presets]
        chosen = {p.slug: p for p in presets}
        preset = chosen.get(str(source.get("preset") or ""), presets[0])
        self.preset = preset
        self.fields["preset"].initial = preset.slug
        self.fields["preset"].help_text = preset.help
        low, high = game.min_seats, game.max_seats
        count = _int_or(source.get("seat_count"), low)
        count = min(max(count, low), high)
        self.fields["seat_count"] = forms.IntegerField(
            label=_("Number of seats"), min_value=low, max_value=high, initial=count,
            help_text=_("%(game)s: %(low)s–%(high)s seats.") % {
                "game": game.name or game.slug, "low": low, "high": high}
            + (" " + _("Seats after %(count)s are open seats, filled through the invite "
                       "link.") % {"count": MAX_SEAT_PICKERS} if high > MAX_SEAT_PICKERS
               else ""),
            # A game with one seat count has nothing to choose.
            widget=forms.HiddenInput if low == high else forms.NumberInput,
        )
        self.base_options = option_fields.preset_base(game, preset)
        plugin = plugins.plugin_for(game.slug)
        for option in game.options_schema():
            field = option_fields.make_field(option, plugin)
            if field is not None:
                name = option_fields.field_name(option)
                self.fields[name] = field
                self.option_names[name] = option
        choices = [(ME, _("Me")), (OPEN, _("Open seat (another player joins)"))]
        choices += [(f"{BOT_PREFIX}{bot}", capfirst(plugin.bot_name(bot)))
                    for bot in game.bots]
        for number in range(1, min(count, MAX_SEAT_PICKERS) + 1):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=seat_label(game, number), choices=choices)
        self._fill(game, preset, count, source)
        order = [*self.MAIN]
        order += [f"seat_{n}" for n in range(1, min(count, MAX_SEAT_PICKERS) + 1)]
        order += [*self.option_names, *self.LATER]
        self.order_fields(order)

    def _fill(self, game: Any, preset: option_fields.Preset, count: int,
              source: Any) -> None:
        """Start values of the preset (and option fields) for this game and preset; a bound
        form filled for another game or preset gets them instead of what it carried."""
        others = f"{BOT_PREFIX}{game.bots[0]}" if game.bots and preset.bots else OPEN
        zone = getattr(getattr(self.user, "profile", None), "time_zone", None)
        fill: dict[str, Any] = {
            "hours_per_phase": preset.hours_per_phase,
            "clock_bank_hours": preset.clock_bank_hours,
            "clock_increment_hours": preset.clock_increment_hours,
            "clock_cap_hours": preset.clock_cap_hours,
            "options_game": game.slug, "preset_filled": preset.slug,
        }
        fill.update({f"seat_{n}": ME if n == 1 else others
                     for n in range(1, min(count, MAX_SEAT_PICKERS) + 1)})
        starts = option_fields.start_values(game, self.base_options, zone)
        fill.update({name: starts[option.path] for name, option in self.option_names.items()})
        game_changed = source.get("options_game") not in (None, "", game.slug)
        stale = game_changed or source.get("preset_filled") not in (None, "", preset.slug)
        if not self.is_bound:
            # A re-draw carries the fields as they were: an option box left empty is absent.
            redraw = "preset_filled" in self.initial and not stale
            for name in self.option_names:  # a plug-in's widget of several parts (name_0, …)
                field = self.fields[name]
                parts = [f"{name}_{n}" for n in range(len(getattr(field, "fields", ())))]
                if redraw and parts and name not in self.initial and parts[0] in self.initial:
                    self.initial[name] = [_last(self.initial.pop(part, "")) for part in parts]
            for name, value in fill.items():
                if stale or name not in self.initial:
                    self.initial[name] = value
                    if redraw and name in self.option_names and isinstance(
                            self.fields[name], forms.BooleanField | forms.MultipleChoiceField):
                        self.initial[name] = [] if isinstance(value, list) else False
                elif name in self.option_names:
                    self.initial[name] = _one_or_many(self.fields[name], self.initial[name])
            if game_changed:
                self.initial["options"] = ""
            return
        if stale:
            # Filled in for another game or preset: start again from this one's values.
            self.data = self.data.copy()
            for name, value in fill.items():
                if isinstance(value, list) and hasattr(self.data, "setlist"):
                    self.data.setlist(name, value)
                elif isinstance(value, bool):
                    if value:
                        self.data[name] = "on"
                    else:
                        self.data.pop(name, None)
                else:
                    self.data[name] = "" if value is None else str(value)
            if game_changed:
                self.data["options"] = ""
            self.refilled = True
        for name in self.option_names:
            self.fields[name].initial = fill[name]

    # -- what the template shows where ---------------------------------------------------
    def seat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields
                if name.startswith("seat_") and name[5:].isdigit()]

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in (*self.MAIN, *[f.name for f in self.seat_fields()])
                if name in self.fields and not self.fields[name].widget.is_hidden]

    def option_bound_fields(self) -> list[tuple[forms.BoundField, bool]]:
        """Each option field and whether to hide it: out of force for the options as they
        stand (e.g. the minutes of a schedule kind not chosen)."""
        current = self.current_options()
        return [(self[name], not option_applies(option, current))
                for name, option in self.option_names.items()]

    def later_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.LATER]

    def advanced_fields(self) -> list[forms.BoundField]:
        shown = {*self.MAIN, *self.option_names, *self.LATER, "options"}
        return [field for field in self.visible_fields()
                if field.name not in shown and not field.name.startswith("seat_")]

    def advanced_has_errors(self) -> bool:
        return self.is_bound and any(field.errors for field in self.advanced_fields()) or \
            bool(self.is_bound and self.errors.get("options"))

    def triggers(self) -> set[str]:
        """The fields whose change re-draws the form (what other fields depend on)."""
        depended = {option.when[0] for option in self.option_names.values() if option.when}
        return {"game", "preset", "seat_count"} | {
            name for name, option in self.option_names.items() if option.path in depended}

    # -- the options -------------------------------------------------------------------------
    def options_as_json(self) -> bool:
        """Did the person write the options as JSON (then the fields are not used)?"""
        source = self.data if self.is_bound else self.initial
        return bool(str(source.get("options") or "").strip())

    def _raw_values(self) -> dict[str, Any]:
        """The option fields' values as they stand: cleaned where the form was validated, read
        from the data of a bound form, else their start values."""
        values: dict[str, Any] = {}
        cleaned = getattr(self, "cleaned_data", {})
        for name, option in self.option_names.items():
            field = self.fields[name]
            if name in cleaned:
                value = cleaned[name]
            elif self.is_bound:
                try:
                    value = field.clean(field.widget.value_from_datadict(
                        self.data, self.files, self.add_prefix(name)))
                except forms.ValidationError:
                    value = field.initial
            else:  # a re-draw's values are the query's strings: read as the field reads them
                value = self.initial.get(name, field.initial)
                if value is not field.initial:
                    try:
                        value = field.clean(value)
                    except forms.ValidationError:
                        value = field.initial
            values[option.path] = option_fields.field_value(option, value)
        return values

    def current_options(self) -> dict[str, Any]:
        """The options the fields give as they stand (to show what they mean)."""
        if self.game_obj is None:
            return {}
        try:
            return option_fields.options_from(self.game_obj, self.base_options,
                                              self._raw_values())
        except (TypeError, ValueError):
            return dict(self.base_options)

    def options_notes(self) -> list[str]:
        """What the game says about these options (e.g. when gamedays open)."""
        if self.game_obj is None or self.options_as_json():
            return []
        try:
            options = self.game_obj.validate_options(self.current_options())
        except engine.RuleError:
            return []
        return option_fields.notes_text(self.game_obj, options)

    def fields_json(self) -> str:
        """The options the fields give, as JSON (a start for the JSON box and the API)."""
        return options_json(self.current_options())

    def clean_options(self) -> dict[str, Any] | None:
        """The options as JSON, or None when left empty (the fields are used)."""
        text = self.cleaned_data.get("options", "")
        if not text.strip():
            return None
        return parse_json_object(text, _("Options"))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.game_obj is None:
            raise forms.ValidationError(_("No game is installed on this site."))
        if self.refilled:
            raise forms.ValidationError(_(
                "The settings were filled in again for the game and the way to play you "
                "chose. Check them and create the match again."))
        if cleaned.get("game") and cleaned["game"] != self.game_obj.slug:
            self.add_error("game", _("Choose one of the listed games."))
        in_force = option_fields.fields_in_force(self.option_names.values(),
                                                 self.current_options())
        for name, option in self.option_names.items():
            # A field out of force or bypassed by the JSON is not used: nor are its problems.
            if (option not in in_force or self.options_as_json()) and name in self.errors:
                del self.errors[name]
        if "options" in cleaned and cleaned["options"] is None and not self.errors:
            cleaned["options"] = self.current_options()
        count = cleaned.get("seat_count")
        if count is None:
            return cleaned
        picks = [cleaned.get(f"seat_{n}") for n in range(1, min(count, MAX_SEAT_PICKERS) + 1)]
        picks += [OPEN] * (count - len(picks))
        if any(pick is None for pick in picks):
            return cleaned  # a seat field has its own error already
        if picks.count(ME) > 1:
            raise forms.ValidationError(_("You can take only one seat."))
        seats: list[dict[str, Any]] = []
        for pick in picks:
            if pick == ME:
                seats.append({"kind": "human", "user": self.user})
            elif pick == OPEN:
                seats.append({"kind": "human", "user": None})
            else:
                seats.append({"kind": "bot", "bot": pick.removeprefix(BOT_PREFIX)})
        cleaned["seats"] = seats
        return cleaned

    def add_option_problems(self, problems: list[Any]) -> None:
        """Put the engine's problems with the options next to the fields they are about."""
        for problem in problems:
            option = None if self.options_as_json() else option_fields.field_for_path(
                self.option_names.values(), problem.path)
            name = option_fields.field_name(option) if option is not None else None
            if name in self.fields:
                self.add_error(name, problem_message(problem))
            elif self.options_as_json() or not problem.path:
                self.add_error("options" if self.options_as_json() else None,
                               problem_line(problem))
            else:
                self.add_error(None, problem_line(problem))


def seat_label(game: Any, number: int) -> str:
    """"Seat 2", or "Seat 2 (South)" when the game names its seats."""
    if number not in game.seat_names:  # the default name ("Seat 2") says nothing more
        return _("Seat %(number)s") % {"number": number}
    name = plugins.plugin_for(game.slug).seat_name(number)
    return _("Seat %(number)s (%(name)s)") % {"number": number, "name": name}


def _one_or_many(field: forms.Field, value: Any) -> Any:
    """A re-drawn option field's value (a list from the query string) as the field holds it."""
    many = isinstance(field, forms.MultipleChoiceField | forms.MultiValueField)
    if isinstance(value, list):
        return value if many else (value[-1] if value else "")
    return [value] if isinstance(field, forms.MultipleChoiceField) else value


def _last(value: Any) -> Any:
    """One value of a query's field (the last, as Django's QueryDict reads it)."""
    if isinstance(value, list):
        return value[-1] if value else ""
    return value


def _int_or(value: Any, default: int) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


class JoinForm(forms.Form):
    seat_number = forms.IntegerField(min_value=1, required=False)


class OrdersForm(forms.Form):
    """One order sheet, typed in the game's plain-text grammar or as JSON."""

    class Format:
        TEXT = "text"
        JSON = "json"

    phase_number = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    format = forms.ChoiceField(
        label=_("Written as"),
        choices=[(Format.TEXT, _("Plain-text orders")), (Format.JSON, "JSON")],
        initial=Format.TEXT,
        widget=forms.RadioSelect,
    )
    orders = forms.CharField(
        label=_("Your orders"),
        help_text=_("In the game's plain-text order grammar (see the example below), or as "
                    "JSON."),
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("format") == self.Format.JSON and "orders" in cleaned:
            try:
                cleaned["data"] = read_json(cleaned["orders"])
            except JSONLimitError as error:
                self.add_error("orders", sentence(error.text))
            except json.JSONDecodeError as error:
                self.add_error(
                    "orders",
                    _("Not valid JSON: %(error)s at line %(line)s, column %(column)s.") % {
                        "error": error.msg, "line": error.lineno, "column": error.colno},
                )
        return cleaned
