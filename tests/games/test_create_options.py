"""Creating a match without JSON: a preset first, then the game's options as fields drawn from
its schema; bad values come back next to their field (a 400, nothing created); a Tank Game
created with the defaults at any hour is playable at once, and its bot waits for a gameday."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django import forms
from django.urls import reverse

from games import services
from games.models import Action, Match
from tests.portal.builders import fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")


def form_data(form) -> dict:
    """What the browser posts for ``form`` as drawn (nothing changed by hand)."""
    data: dict = {}
    for bound in form:
        value, widget = bound.value(), bound.field.widget
        if isinstance(widget, forms.MultiWidget):
            parts = value if isinstance(value, list) else widget.decompress(value)
            data.update({f"{bound.html_name}_{i}": "" if part is None else str(part)
                         for i, part in enumerate(parts)})
        elif isinstance(bound.field, forms.BooleanField):
            if value:
                data[bound.html_name] = "on"
        elif isinstance(value, list | tuple):
            data[bound.html_name] = [str(item) for item in value]
        elif value is not None:
            data[bound.html_name] = str(value)
    return data


def drawn(client, game: str, preset: str | None = None, **more):
    query = {"game": game, **({"preset": preset} if preset else {}), **more}
    response = client.get(reverse("games:match_create"), query)
    assert response.status_code == 200
    return response


@pytest.fixture
def alice(client):
    user = make_user("alice")
    user.profile.time_zone = "Europe/Paris"
    user.profile.save()
    client.force_login(user)
    return user


@pytest.mark.parametrize("game", ["final-act", "final-strategy", "panzer-squadron",
                                  "tank-game"])
def test_choosing_only_the_game_and_the_bot_preset_creates_a_match_against_a_bot(
        client, alice, game):
    form = drawn(client, game, "quick").context["form"]
    data = form_data(form)
    assert data.get("options", "") == ""  # no JSON anywhere
    response = client.post(reverse("games:match_create"), data)
    assert response.status_code == 302, response.context["form"].errors
    match = Match.objects.get()
    assert match.status == Match.Status.ACTIVE
    assert match.seats.get(number=2).bot
    assert match.hours_per_phase == Decimal("0.25")


def test_the_fields_come_from_the_schema_with_labels_and_help(client, alice):
    page = drawn(client, "tank-game").content.decode()
    assert 'name="option__schedule__weekdays" value="sun"' in page
    assert "Cooldown after each action (minutes)" in page
    assert "A tank waits this long before its next action" in page
    assert 'type="time" name="option__schedule__open" value="10:00"' in page
    form = drawn(client, "tank-game").context["form"]
    assert form["option__schedule__time_zone"].value() == "Europe/Paris"  # the creator's


def test_the_form_says_when_gamedays_open(client, alice):
    page = drawn(client, "tank-game", "correspondence").content.decode()
    assert "The first gameday opens as soon as the match starts." in page
    assert "A gameday opens every day at 10:00 and closes at 22:00 (Europe/Paris)." in page
    quick = drawn(client, "tank-game", "quick").content.decode()
    assert "A gameday opens every 2 minutes and stays open 2 minutes." in quick


def test_seat_labels_are_not_doubled(client, alice):
    page = drawn(client, "tank-game").content.decode()
    assert "Seat 1: Seat 1" not in page and "Seat 1 (Seat 1)" not in page
    assert '<label for="id_seat_1">Seat 1:</label>' in page
    assert "Seat 1 (Red)" in drawn(client, "final-strategy").content.decode()


@pytest.mark.parametrize("preset, hours, bank, increment, second_seat", [
    ("quick", "0.25", None, "0", "bot:"),
    ("correspondence", "24", None, "0", "open"),
    ("clock", "24", "72", "24", "open"),
])
def test_each_preset_sets_the_time_control_and_the_other_seats(
        client, alice, preset, hours, bank, increment, second_seat):
    data = form_data(drawn(client, "final-act", preset).context["form"])
    assert data["seat_2"].startswith(second_seat)
    response = client.post(reverse("games:match_create"), data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.hours_per_phase == Decimal(hours)
    assert match.clock_bank_hours == (Decimal(bank) if bank else None)
    assert match.clock_increment_hours == Decimal(increment)


def test_the_quick_preset_gives_tank_game_frequent_gamedays(client, alice):
    data = form_data(drawn(client, "tank-game", "quick").context["form"])
    assert data["option__schedule__kind"] == "every"
    client.post(reverse("games:match_create"), data)
    assert Match.objects.get().options["schedule"] == {"kind": "every", "minutes": 2,
                                                      "open_minutes": 2}


def test_fields_build_the_options_and_a_plugins_own_widget_gives_its_value(client, alice):
    data = form_data(drawn(client, "final-act", "correspondence").context["form"])
    data.update({"option__advanced": ["wrecks", "repair"], "option__tokens_0": "draft-k",
                 "option__tokens_1": "5", "option__extra_forces": "on",
                 "option__round_limit": "30"})
    assert client.post(reverse("games:match_create"), data).status_code == 302
    assert Match.objects.get().options == {"advanced": ["wrecks", "repair"],
                                           "tokens": {"mode": "draft-k", "k": 5},
                                           "extra_forces": True, "round_limit": 30}


@pytest.mark.parametrize("game, changes, field, message", [
    ("final-act", {"option__round_limit": "abc"}, "option__round_limit", "whole number"),
    ("final-act", {"option__round_limit": "5000"}, "option__round_limit",
     "less than or equal to 1000"),
    # the engine's own problems, put next to the field their path names
    ("final-act", {"option__tokens_0": "random-k", "option__tokens_1": "9"}, "option__tokens",
     "k must be a whole number from 1 to 7"),
    ("tank-game", {"option__schedule__open": "18:00", "option__schedule__close": "09:00"},
     "option__schedule__close", "The closing time must be after the opening time."),
    ("tank-game", {"option__schedule__weekdays": []}, "option__schedule__weekdays",
     "Weekdays: a non-empty list"),
])
def test_bad_values_are_a_400_next_to_their_field_and_create_nothing(
        client, alice, game, changes, field, message):
    data = form_data(drawn(client, game, "correspondence").context["form"])
    data.update(changes)
    response = client.post(reverse("games:match_create"), data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert message in " ".join(errors[field]), errors
    assert Match.objects.count() == 0
    assert message in response.content.decode()


def test_options_written_as_json_are_used_instead_and_their_problems_named_by_path(
        client, alice):
    data = form_data(drawn(client, "final-act", "correspondence").context["form"])
    data["options"] = '{"round_limit": 0}'
    response = client.post(reverse("games:match_create"), data)
    assert response.status_code == 400
    assert "round_limit: The round limit" in " ".join(response.context["form"].errors["options"])
    data["options"] = '{"round_limit": 7}'
    assert client.post(reverse("games:match_create"), data).status_code == 302
    assert Match.objects.get().options["round_limit"] == 7


def test_a_preset_changed_without_redrawing_is_filled_in_again_not_created(client, alice):
    data = form_data(drawn(client, "final-act", "quick").context["form"])
    data["preset"] = "clock"  # the time fields still hold the quick game's
    response = client.post(reverse("games:match_create"), data)
    assert response.status_code == 400
    assert "filled in again" in response.content.decode()
    assert response.context["form"]["clock_bank_hours"].value() == "72"
    assert Match.objects.count() == 0


def test_a_tank_game_created_with_the_defaults_at_three_in_the_night_takes_an_action_at_once(
        client, alice, monkeypatch):
    """Tuesday 03:00 in the creator's zone (Paris): the first gameday opens with the match."""
    night = datetime(2026, 11, 24, 3, 0, tzinfo=PARIS)
    monkeypatch.setattr("django.utils.timezone.now", lambda: night)
    data = form_data(drawn(client, "tank-game", "correspondence").context["form"])
    data["seat_2"] = "bot:random"
    assert client.post(reverse("games:match_create"), data).status_code == 302
    match = Match.objects.get()
    assert match.options["schedule"]["time_zone"] == "Europe/Paris"
    game_view = match.state["tanks"]["1"]
    action = {"type": "buy_ap"} if game_view["gold"] >= 3 else None
    from engine import get

    game = get("tank-game")
    action = action or next(a for a in game.legal_actions(match.state, 1) if a["type"] == "move")
    receipt = services.actions_apply(match_id=match.pk, seat_number=1, user=alice,
                                     action=action, source="web", now=night.replace(second=5))
    assert receipt.seq >= 2  # after the first gameday's tick
    ticks = Action.objects.filter(match=match, kind=Action.Kind.TICK)
    assert list(ticks.values_list("gameday", flat=True)) == ["2026-11-24"]


def test_a_bot_outside_a_gameday_waits_without_raising_and_acts_when_it_opens(
        alice, caplog, monkeypatch):
    """Rule-book gamedays (Mon, Wed, Thu 10:00-16:00 UTC, not opened at the start): the bot
    is queued at the start on a Tuesday and waits; the next gameday's tick queues it again."""
    schedule = {"kind": "weekly", "weekdays": ["mon", "wed", "thu"], "open": "10:00",
                "close": "16:00", "time_zone": "UTC"}
    match = services.match_create(
        creator=alice, game="tank-game", options={"schedule": schedule},
        seats=[{"kind": "human", "user": alice}, {"kind": "bot", "bot": "random"}],
        hours_per_phase=24)
    tuesday = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    match.deadline = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
    match.save(update_fields=["deadline"])
    monkeypatch.setattr("django.utils.timezone.now", lambda: tuesday)
    with caplog.at_level(logging.INFO):
        assert services.bot_submit(match_id=match.pk, seat_number=2,
                                   phase_number=match.phase_number) is None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert "waits" in caplog.text
    assert not Action.objects.filter(match=match, kind=Action.Kind.ACTION).exists()
    wednesday = datetime(2026, 11, 25, 10, 1, tzinfo=UTC)
    monkeypatch.setattr("django.utils.timezone.now", lambda: wednesday)
    assert services.gameday_tick(match_id=match.pk, now=wednesday)
    assert services.bot_submit(match_id=match.pk, seat_number=2,
                               phase_number=match.phase_number) is not None
    assert Action.objects.filter(match=match, kind=Action.Kind.ACTION, seat=2).exists()


def test_redrawing_for_another_seat_count_keeps_the_options_as_they_were_set(client, alice):
    """"Update seats and options" (or changing the seat count) draws the form again from what
    was chosen: the plug-in's own widget keeps its value, and the options the page shows are
    the options, not the query's strings."""
    data = form_data(drawn(client, "final-act", "correspondence").context["form"])
    data.update({"option__advanced": ["wrecks"], "option__tokens_0": "draft-k",
                 "option__tokens_1": "5", "option__extra_forces": "on",
                 "option__round_limit": "30", "seat_count": "2"})
    form = client.get(reverse("games:match_create"), data).context["form"]
    assert form.current_options() == {"advanced": ["wrecks"],
                                      "tokens": {"mode": "draft-k", "k": 5},
                                      "extra_forces": True, "round_limit": 30}
    again = form_data(form)
    assert (again["option__tokens_0"], again["option__tokens_1"]) == ("draft-k", "5")
    assert client.post(reverse("games:match_create"), again).status_code == 302
    assert Match.objects.get().options["tokens"] == {"mode": "draft-k", "k": 5}
