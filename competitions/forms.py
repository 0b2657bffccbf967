"""Forms of the competitions' pages: they only parse; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

import engine
from competitions.models import Tournament


def game_choices() -> list[tuple[str, str]]:
    return sorted(((slug, game.name) for slug, game in engine.games().items()),
                  key=lambda item: item[1])


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(label=_("Description"),
                                  widget=forms.Textarea(attrs={"rows": 3}), required=False)
    is_public = forms.BooleanField(required=False, initial=True,
                                   label=_("Public (anyone may ask to join)"))


class LadderForm(forms.Form):
    game = forms.ChoiceField(
        label=_("Game"), choices=game_choices,
        help_text=_("A ladder is a standing ranking of one game: any member may challenge any "
                    "other at any time, each finished game moves both players' ratings, and "
                    "it never ends. Good for a club that plays whenever people have time."))
    name = forms.CharField(label=_("Name"), max_length=80, required=False,
                           help_text=_("Empty: named after the game."))
    hours_per_phase = forms.DecimalField(
        min_value=0.001, max_value=8760, initial=72, label=_("Hours per turn"),
        help_text=_("How long each player has for a turn in a ladder game (72: three days)."))
    challenge_days = forms.IntegerField(
        min_value=1, max_value=60, initial=7, label=_("Days to answer a challenge"),
        help_text=_("A challenge nobody accepted by then lapses."))
    decay_sigma_per_week = forms.FloatField(
        min_value=0, max_value=8, initial=0,
        label=_("Rating doubt added per week without a game"),
        help_text=_("Players who stop playing slide down the ladder: each week without a rated "
                    "match makes their rating less certain by this much, which lowers the "
                    "rating shown until they play again. 0 turns it off; 1 is gentle, 3 is "
                    "strong (a new player starts at about 8)."))


class ClubMatchForm(forms.Form):
    """A club-only match: the game, members' user names (comma-separated) and the number of
    seats (empty: one per name; seats beyond the names are open to members). Every count is
    checked against the game's seats before anything is built from it."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    players = forms.CharField(label=_("Players"), required=False, max_length=2000)
    seats = forms.IntegerField(label=_("Seats"), required=False, min_value=1)
    hours_per_phase = forms.CharField(label=_("Hours per turn"), required=False, max_length=20)
    title = forms.CharField(label=_("Title"), required=False, max_length=120)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        game = engine.games().get(cleaned.get("game") or "")
        if game is None or self.errors:
            return cleaned
        names = [name.strip() for name in (cleaned.get("players") or "").split(",")
                 if name.strip()]
        seats = cleaned.get("seats") or len(names)
        span = (str(game.min_seats) if game.min_seats == game.max_seats
                else f"{game.min_seats}–{game.max_seats}")
        if not game.min_seats <= seats <= game.max_seats:
            raise forms.ValidationError(_(
                "%(game)s is played by %(span)s seats, not %(seats)s.")
                % {"game": game.name, "span": span, "seats": seats})
        if len(names) > seats:
            raise forms.ValidationError(ngettext(
                "You named %(count)d players for %(seats)d seat.",
                "You named %(count)d players for %(seats)d seats.", seats)
                % {"count": len(names), "seats": seats})
        found = {user.get_username(): user
                 for user in get_user_model().objects.filter(username__in=names)}
        missing = [name for name in names if name not in found]
        if missing:
            raise forms.ValidationError(ngettext(
                "There is no player %(names)s.", "There are no players %(names)s.",
                len(missing)) % {"names": ", ".join(missing)})
        cleaned["seat_players"] = ([found[name] for name in names]
                                   + [None] * (seats - len(names)))
        return cleaned


FORMAT_HELP = _(
    "Round robin: everyone plays everyone once (twice with two cycles); best for up to about "
    "ten players. "
    "Swiss: each round pairs players with equal scores who have not met yet, so a few rounds "
    "rank a large field without knocking anyone out. "
    "Single elimination: a knockout bracket; a player who loses once is out. "
    "Double elimination: a knockout in which a player is out only after a second loss (the "
    "first sends them to a losers' bracket). "
    "Multi-seat pods: for games of three or more; each round seats players with similar "
    "scores at tables of the pod size.")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices,
                               help_text=FORMAT_HELP)
    max_players = forms.IntegerField(label=_("Most players"), min_value=2, max_value=4096,
                                     required=False)
    rating_floor = forms.FloatField(label=_("Rating floor"), min_value=-1000, max_value=1000,
                                    required=False)
    min_reliability = forms.IntegerField(
        min_value=0, max_value=100, required=False, label=_("Minimum reliability to join (%)"),
        help_text=_("Players whose reliability record is lower, or who have none yet, cannot "
                    "register."))
    rounds_planned = forms.IntegerField(min_value=1, max_value=99, required=False,
                                        label=_("Rounds (Swiss, pods)"))
    cycles = forms.IntegerField(min_value=1, max_value=2, initial=1,
                                label=_("Cycles (round robin)"))
    seats_per_match = forms.IntegerField(min_value=3, max_value=100, required=False,
                                         label=_("Pod size (pods)"))
    round_hours = forms.DecimalField(
        min_value=0.01, max_value=8760, initial=168, label=_("Round length (hours)"),
        help_text=_("Every game of a round must end within this time (168: a week); the next "
                    "round starts as soon as all games of this one are over."))
    hours_per_phase = forms.DecimalField(
        min_value=0.001, max_value=8760, initial=48, label=_("Hours per turn"),
        help_text=_("How long each player has for a turn (48: two days)."))
    adjudication = forms.ChoiceField(
        choices=Tournament.Adjudication.choices, label=_("Unfinished at the round's end"),
        help_text=_("What a game still running when its round ends counts as."))
    bye_score = forms.DecimalField(
        min_value=0, max_value=1, initial=1, decimal_places=1, label=_("Points for a bye"),
        help_text=_("With an odd number of players one sits a round out and gets these "
                    "points (1: a win)."))
    late_entry = forms.BooleanField(required=False, label=_("Late entry (Swiss)"))
    fixed_deadlines = forms.BooleanField(
        required=False, label=_("Fixed deadlines"),
        help_text=_("Every board keeps the deadlines its hours per phase give: none is moved "
                    "out of a player's night, nor for a player's leave (a deadline missed on "
                    "leave still does not count against their reliability)."))
    starts_at = forms.DateTimeField(label=_("Starts at"), required=False,
                                    help_text=_("UTC; empty: start by hand."))


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    seats_per_match = forms.IntegerField(
        min_value=2, max_value=100, initial=2, label=_("Seats per match"),
        help_text=_("Two: each division plays a round robin of duels. Three or more: it plays "
                    "rounds of pods of that many seats (and one fewer where the count does "
                    "not divide)."))
    division_size = forms.IntegerField(
        min_value=2, max_value=64, initial=8, label=_("Division size"),
        help_text=_("How many players a division holds; the first season places them by "
                    "rating, the best in division 1."))
    season_days = forms.IntegerField(
        min_value=1, max_value=366, initial=42, label=_("Season length (days)"),
        help_text=_("Every match of a division is created when its season starts and should "
                    "end within this time (42: six weeks)."))
    hours_per_phase = forms.DecimalField(
        min_value=0.001, max_value=8760, initial=48, label=_("Hours per turn"),
        help_text=_("How long each player has for a turn (48: two days)."))
    moves = forms.IntegerField(
        min_value=0, max_value=32, required=False, label=_("Players up and down"),
        help_text=_("How many of each division go up and down after a season; empty: a "
                    "quarter of the division (never more than half)."))
    relegate_forfeits = forms.IntegerField(
        min_value=1, max_value=99, required=False, label=_("Forfeits that relegate"),
        help_text=_("A player who forfeits this many matches in a season (missed deadlines "
                    "until the seat was taken from them, or left the match) goes down; "
                    "empty: never."))
    waits_for_last_match = forms.BooleanField(
        required=False, label=_("The season waits for its last match"),
        help_text=_("Otherwise a match still running at the end date counts for the "
                    "standings as lost by the side that used more of its time; it goes on, "
                    "unrated."))
    bots_allowed = forms.BooleanField(
        required=False, label=_("Bots allowed"),
        help_text=_("You may enter the game's bots as players (their games are not rated)."))
    fixed_deadlines = forms.BooleanField(
        required=False, label=_("Fixed deadlines"),
        help_text=_("No deadline is moved out of a player's night, nor for a player's leave."))


def two_seat_game_choices() -> list[tuple[str, str]]:
    """The games a team match can be played in (each board is a game for two)."""
    return sorted(((slug, game.name) for slug, game in engine.games().items()
                   if game.min_seats <= 2 <= game.max_seats), key=lambda item: item[1])


class TeamMatchForm(forms.Form):
    """A challenge to another club: the other club is chosen on the page (a select)."""

    opponent = forms.IntegerField(label=_("Club to challenge"), min_value=1)
    game = forms.ChoiceField(label=_("Game"), choices=two_seat_game_choices)
    boards = forms.IntegerField(
        label=_("Boards"), min_value=1, max_value=32, initial=4,
        help_text=_("How many players each club fields; each board is one game between a "
                    "player of each club."))
    hours_per_phase = forms.DecimalField(
        min_value=0.001, max_value=8760, initial=72, label=_("Hours per turn"),
        help_text=_("How long each player has for a turn (72: three days)."))
    starts_at = forms.DateTimeField(
        label=_("Starts at"), required=False,
        help_text=_("UTC, as 2026-12-24 18:00; empty: three days from now. The boards start "
                    "sooner when both clubs have named a player for every board."))


class TeamLeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"), choices=two_seat_game_choices)
    boards = forms.IntegerField(label=_("Boards"), min_value=1, max_value=32, initial=4,
                                help_text=_("Boards of each team match."))
    cycles = forms.IntegerField(min_value=1, max_value=2, initial=1, label=_("Cycles"),
                                help_text=_("1: each club meets each other once; 2: twice."))
    round_days = forms.IntegerField(
        min_value=1, max_value=365, initial=14, label=_("Days per round"),
        help_text=_("Each round's team matches start this many days after the last round's."))
    hours_per_phase = forms.DecimalField(
        min_value=0.001, max_value=8760, initial=72, label=_("Hours per turn"))
