"""Forms of the match pages. They parse and check shapes only; the rules live in services."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django import forms

import engine
from games import plugins
from games.models import Match

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
        value = json.loads(text or "{}")
    except json.JSONDecodeError as error:
        raise forms.ValidationError(
            f"{what} are not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}."
        ) from None
    if not isinstance(value, dict):
        raise forms.ValidationError(f"{what} must be a JSON object, like {{\"key\": value}}.")
    return value


class MatchCreateForm(forms.Form):
    """Create a match: game, seats, options, time control, missed-deadline policy.

    The seat pickers depend on the chosen game and seat count, so they are built per request.
    """

    game = forms.ChoiceField(choices=game_choices)
    title = forms.CharField(max_length=120, required=False)
    seat_count = forms.IntegerField(label="Number of seats", min_value=1)
    options = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        required=False,
        help_text="The game's options as JSON; the defaults are filled in.",
    )
    # The game the options text was filled in for: changing the game refills the defaults.
    options_game = forms.CharField(widget=forms.HiddenInput, required=False)
    hours_per_phase = forms.DecimalField(
        label="Hours per phase",
        min_value=Decimal("0.05"),
        max_value=Decimal(24 * 30),
        decimal_places=3,
        initial=Decimal(24),
        help_text="Time control: each phase's deadline, in hours (0.05 = 3 minutes).",
    )
    clock_bank_hours = forms.DecimalField(
        label="Clock: time bank (hours)", required=False, min_value=Decimal(1),
        max_value=Decimal(30 * 24), decimal_places=3,
        help_text="Correspondence clocks instead of a fixed deadline: each seat starts with "
                  "this bank (72 = 3 days), charged only while it owes orders and is in its "
                  "player's active hours. Empty: the hours per phase above.")
    clock_increment_hours = forms.DecimalField(
        label="Clock: added per phase (hours)", required=False, min_value=Decimal(0),
        max_value=Decimal(30 * 24), decimal_places=3, initial=Decimal(24))
    clock_cap_hours = forms.DecimalField(
        label="Clock: largest bank (hours)", required=False, min_value=Decimal(1),
        max_value=Decimal(30 * 24), decimal_places=3, initial=Decimal(168))
    max_shift_hours = forms.DecimalField(
        label="Move a deadline out of a player's night by at most (hours)", required=False,
        min_value=Decimal(0), max_value=Decimal(7 * 24), decimal_places=3, initial=Decimal(12),
        help_text="A fixed deadline outside the active hours of a player who still owes orders "
                  "moves to the start of their next window, by at most this much. 0: never; "
                  "empty: 12.")
    miss_policy = forms.ChoiceField(
        label="When a player keeps missing deadlines",
        choices=Match.MissPolicy.choices,
        initial=Match.MissPolicy.REPLACE,
    )
    miss_limit = forms.IntegerField(
        label="Misses in a row before that",
        min_value=1,
        max_value=20,
        initial=3,
        help_text="A missed deadline plays the game's default orders for that seat.",
    )
    is_public = forms.BooleanField(
        label="Public (anyone may watch and join open seats)", required=False, initial=True
    )
    min_reliability = forms.IntegerField(
        label="Minimum reliability to join (%)",
        min_value=0,
        max_value=100,
        required=False,
        help_text="Players whose reliability record is lower (or who have none yet) cannot "
                  "take a seat. Empty: anyone.",
    )
    allow_vacations = forms.BooleanField(
        label="Allow vacations (a player's leave extends the deadline)", required=False,
        initial=True,
        help_text="Players take leave on their profile, from a yearly bank of days.",
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        source = self.data if self.is_bound else self.initial
        slug = str(source.get("game") or default_game_slug())
        offered = dict(game_choices())
        slug = slug if slug in offered else default_game_slug()
        self.game_obj = engine.games().get(slug)
        game = self.game_obj
        if game is None:
            return
        self.fields["game"].initial = game.slug
        low, high = game.min_seats, game.max_seats
        count = _int_or(source.get("seat_count"), low)
        count = min(max(count, low), high)
        self.fields["seat_count"] = forms.IntegerField(
            label="Number of seats", min_value=low, max_value=high, initial=count,
            help_text=f"{game.name or game.slug}: {low}–{high} seats."
            + (f" Seats after {MAX_SEAT_PICKERS} are open seats, filled through the invite link."
               if high > MAX_SEAT_PICKERS else ""),
            # A game with one seat count has nothing to choose.
            widget=forms.HiddenInput if low == high else forms.NumberInput,
        )
        self.options_refilled = False
        if self.is_bound and self.data.get("options_game") not in (None, "", game.slug):
            # The options text was written for the previously chosen game: start from defaults.
            self.data = self.data.copy()
            self.data["options"] = options_json(game.default_options())
            self.data["options_game"] = game.slug
            self.options_refilled = True
        if not self.is_bound:
            self.initial["seat_count"] = count
            if self.initial.get("options_game") != game.slug or not self.initial.get("options"):
                self.initial["options"] = options_json(game.default_options())
                self.initial["options_game"] = game.slug
        choices = [(ME, "Me"), (OPEN, "Open seat (another player joins)")]
        choices += [(f"{BOT_PREFIX}{bot}", f"Bot: {bot}") for bot in game.bots]
        # By default: me against bots (or open seats for a game without bots).
        others = f"{BOT_PREFIX}{game.bots[0]}" if game.bots else OPEN
        for number in range(1, min(count, MAX_SEAT_PICKERS) + 1):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=f"Seat {number}: {game.seat_name(number)}",
                choices=choices,
                initial=ME if number == 1 else others,
            )
        # Keep the seat pickers next to the seat count.
        order = ["game", "title", "seat_count"]
        order += [f"seat_{n}" for n in range(1, min(count, MAX_SEAT_PICKERS) + 1)]
        self.order_fields(order)

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields
                if name.startswith("seat_") and name[5:].isdigit()]

    def clean_options(self) -> dict[str, Any]:
        if self.options_refilled:
            raise forms.ValidationError(
                "The options were written for another game; this game's defaults are filled in "
                "now. Check them and create the match again."
            )
        return parse_json_object(self.cleaned_data.get("options", ""), "Options")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.game_obj is None:
            raise forms.ValidationError("No game is installed on this site.")
        if cleaned.get("game") and cleaned["game"] != self.game_obj.slug:
            self.add_error("game", "Choose one of the listed games.")
        count = cleaned.get("seat_count")
        if count is None:
            return cleaned
        picks = [cleaned.get(f"seat_{n}") for n in range(1, min(count, MAX_SEAT_PICKERS) + 1)]
        picks += [OPEN] * (count - len(picks))
        if any(pick is None for pick in picks):
            return cleaned  # a seat field has its own error already
        if picks.count(ME) > 1:
            raise forms.ValidationError("You can take only one seat.")
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
        label="Written as",
        choices=[(Format.TEXT, "Plain-text orders"), (Format.JSON, "JSON")],
        initial=Format.TEXT,
        widget=forms.RadioSelect,
    )
    orders = forms.CharField(
        label="Your orders",
        help_text="In the game's plain-text order grammar (see the example below), or as JSON.",
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("format") == self.Format.JSON and "orders" in cleaned:
            try:
                cleaned["data"] = json.loads(cleaned["orders"])
            except json.JSONDecodeError as error:
                self.add_error(
                    "orders",
                    f"Not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}.",
                )
        return cleaned
