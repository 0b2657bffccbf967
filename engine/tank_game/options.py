"""Match options: map, cooldown, gameday schedule, armistice limit, carry-over bounties, names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.base import PRESET_QUICK, Option, OptionKind, OptionsError, Problem
from engine.base import gettext_noop as _
from engine.tank_game.maps import MAPS

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_TIME = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$")
_SEAT = re.compile(r"[0-9]{1,3}")

# A gameday every day (the rule book's Monday, Wednesday and Thursday 10:00-16:00 is a
# choice away), the first one open as soon as the match starts: a new match is playable at once.
DEFAULT_SCHEDULE: dict[str, Any] = {
    "kind": "weekly",
    "weekdays": list(WEEKDAYS),
    "open": "10:00",
    "close": "22:00",
    "time_zone": "UTC",
    "holidays": [],
    "first_gameday_at_start": True,
}
# A quick game (against a bot, now): a gameday every two minutes, always open.
QUICK_SCHEDULE: dict[str, Any] = {"kind": "every", "minutes": 2, "open_minutes": 2}


def default_options() -> dict[str, Any]:
    return {
        "map": "classic",
        "cooldown_minutes": 5,
        "schedule": dict(DEFAULT_SCHEDULE, weekdays=list(WEEKDAYS), holidays=[]),
        "armistice_limit": 50,
        "bounties": {},
        "names": {},
    }


def _int(value: Any, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _schedule(raw: Any, problems: list[Problem]) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        problems.append(Problem("schedule", _("The schedule must be an object with a 'kind'.")))
        return dict(DEFAULT_SCHEDULE)
    kind = raw.get("kind")
    if kind == "every":
        unknown = set(raw) - {"kind", "minutes", "open_minutes"}
        if unknown:
            problems.append(
                Problem("schedule", _("Unknown schedule keys: %(unknown)s."),
                        {"unknown": ', '.join(sorted(unknown))})
            )
        minutes = _int(raw.get("minutes"), 1, 10080)
        if minutes is None:
            problems.append(Problem("schedule.minutes", _("Minutes between gamedays: 1 to 10080.")))
            minutes = 60
        open_minutes = _int(raw.get("open_minutes", minutes), 1, minutes)
        if open_minutes is None:
            problems.append(
                Problem("schedule.open_minutes", _("Open minutes must be 1 to %(minutes)s."),
                        {"minutes": minutes})
            )
            open_minutes = minutes
        return {"kind": "every", "minutes": minutes, "open_minutes": open_minutes}
    if kind != "weekly":
        problems.append(Problem("schedule.kind", _("The schedule kind is 'weekly' or 'every'.")))
        return dict(DEFAULT_SCHEDULE)
    unknown = set(raw) - set(DEFAULT_SCHEDULE)
    if unknown:
        problems.append(
            Problem("schedule", _("Unknown schedule keys: %(unknown)s."),
                    {"unknown": ', '.join(sorted(unknown))})
        )
    out: dict[str, Any] = {"kind": "weekly"}
    days = raw.get("weekdays", DEFAULT_SCHEDULE["weekdays"])
    if (
        not isinstance(days, list)
        or not days
        or any(not isinstance(d, str) or d.lower() not in WEEKDAYS for d in days)
    ):
        problems.append(
            Problem("schedule.weekdays", _("Weekdays: a non-empty list of %(weekdays)s."),
                    {"weekdays": ', '.join(WEEKDAYS)})
        )
        days = DEFAULT_SCHEDULE["weekdays"]
    out["weekdays"] = [d for d in WEEKDAYS if d in {str(x).lower() for x in days}]
    for key in ("open", "close"):
        value = raw.get(key, DEFAULT_SCHEDULE[key])
        if not isinstance(value, str) or not _TIME.match(value):
            problems.append(
                Problem(f"schedule.{key}", _("A time of day as HH:MM (24 h), e.g. 10:00."))
            )
            value = DEFAULT_SCHEDULE[key]
        out[key] = value
    if out["open"] >= out["close"]:
        problems.append(
            Problem("schedule.close", _("The closing time must be after the opening time."))
        )
    zone = raw.get("time_zone", "UTC")
    try:
        if not isinstance(zone, str) or not zone:
            raise ValueError(zone)
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        problems.append(Problem("schedule.time_zone", _("Unknown time zone %(zone)s."),
                                {"zone": repr(zone)}))
        zone = "UTC"
    out["time_zone"] = zone
    holidays = raw.get("holidays", [])
    good: list[str] = []
    if not isinstance(holidays, list):
        problems.append(Problem("schedule.holidays", _("Holidays: a list of dates YYYY-MM-DD.")))
        holidays = []
    for i, day in enumerate(holidays):
        try:
            good.append(date.fromisoformat(day).isoformat())
        except (TypeError, ValueError):
            problems.append(Problem(f"schedule.holidays.{i}", _("%(day)s is not a date "
                                                                "YYYY-MM-DD."),
                                    {"day": repr(day)}))
    out["holidays"] = sorted(set(good))
    # Absent in schedules stored before it existed: their first gameday waited for the schedule.
    at_start = raw.get("first_gameday_at_start", False)
    if not isinstance(at_start, bool):
        problems.append(Problem("schedule.first_gameday_at_start", _("true or false.")))
        at_start = False
    out["first_gameday_at_start"] = at_start
    return out


def validate_options(options: Any) -> dict[str, Any]:
    """Normalized options, or OptionsError listing every problem."""
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise OptionsError([Problem("", _("Options must be an object."))])
    problems: list[Problem] = []
    out = default_options()
    known = set(out)
    unknown = [str(k) for k in options if k not in known]
    if unknown:
        problems.append(Problem("", _("Unknown options: %(unknown)s."),
                                {"unknown": ', '.join(sorted(unknown))}))
    if "map" in options:
        if not isinstance(options["map"], str) or options["map"] not in MAPS:
            problems.append(Problem("map", _("The map is one of: %(maps)s."),
                                    {"maps": ', '.join(sorted(MAPS))}))
        else:
            out["map"] = options["map"]
    if "cooldown_minutes" in options:
        value = _int(options["cooldown_minutes"], 0, 1440)
        if value is None:
            problems.append(Problem("cooldown_minutes", _("The cooldown is 0 to 1440 minutes.")))
        else:
            out["cooldown_minutes"] = value
    if "schedule" in options:
        out["schedule"] = _schedule(options["schedule"], problems)
    if "armistice_limit" in options:
        value = _int(options["armistice_limit"], 1, 100000)
        if value is None:
            problems.append(
                Problem("armistice_limit", _("The armistice limit is a whole number >= 1."))
            )
        else:
            out["armistice_limit"] = value
    for key, (low, high) in (("bounties", (0, 1000)), ("names", (1, 40))):
        raw = options.get(key, {})
        if not isinstance(raw, Mapping):
            problems.append(Problem(key, _("%(key)s maps seat numbers to values."),
                                    {"key": key}))
            continue
        clean: dict[str, Any] = {}
        for seat, item in raw.items():
            if _int(int(seat) if _SEAT.fullmatch(str(seat)) else None, 1, 100) is None:
                problems.append(Problem(f"{key}.{seat}", _("%(seat)s is not a seat number 1-100."),
                                        {"seat": repr(seat)}))
                continue
            if key == "bounties":
                if _int(item, low, high) is None:
                    problems.append(Problem(f"{key}.{seat}", _("A bounty is 0 to 1000 gold.")))
                    continue
            elif not isinstance(item, str) or not low <= len(item.strip()) <= high:
                problems.append(Problem(f"{key}.{seat}", _("A name is 1 to 40 characters.")))
                continue
            else:
                item = " ".join(item.split())
            clean[str(int(seat))] = item
        out[key] = clean
    if problems:
        raise OptionsError(problems)
    return out


# -- the options as a form shows them (``validate_options`` above stays the judge) -------------

WEEKDAY_NAMES = (_("Monday"), _("Tuesday"), _("Wednesday"), _("Thursday"), _("Friday"),
                 _("Saturday"), _("Sunday"))
_WEEKLY = ("schedule.kind", ("weekly",))
_EVERY = ("schedule.kind", ("every",))

OPTIONS_SCHEMA: tuple[Option, ...] = (
    Option("map", OptionKind.CHOICE, _("Map"),
           choices=(("classic", _("Classic: 12 × 12 squares, up to 16 tanks")),
                    ("big", _("Big: 26 × 26 squares, up to 104 tanks")))),
    Option("schedule.kind", OptionKind.CHOICE, _("Gamedays"),
           _("Tanks act only while a gameday is open; each gameday gives every living tank "
             "an action point."),
           choices=(("weekly", _("Daily, or on the days you choose, at set hours")),
                    ("every", _("Every few minutes (a quick game)")))),
    Option("schedule.first_gameday_at_start", OptionKind.BOOL,
           _("The first gameday opens as soon as the match starts"),
           _("It lasts until that day's closing time, or until the next gameday opens."),
           when=_WEEKLY),
    Option("schedule.weekdays", OptionKind.CHOICES, _("Days with a gameday"),
           choices=tuple(zip(WEEKDAYS, WEEKDAY_NAMES, strict=True)), when=_WEEKLY),
    Option("schedule.open", OptionKind.TIME, _("A gameday opens at"), when=_WEEKLY),
    Option("schedule.close", OptionKind.TIME, _("and closes at"), when=_WEEKLY),
    Option("schedule.time_zone", OptionKind.TIME_ZONE, _("Time zone of the gamedays"),
           _("Yours, unless you choose another."), when=_WEEKLY),
    Option("schedule.holidays", OptionKind.CUSTOM, _("Holidays (no gameday)"), when=_WEEKLY,
           fallback=[]),
    Option("schedule.minutes", OptionKind.INT, _("Minutes from one gameday to the next"),
           minimum=1, maximum=10080, when=_EVERY, fallback=60),
    Option("schedule.open_minutes", OptionKind.CUSTOM, _("Minutes a gameday stays open"),
           when=_EVERY, fallback=60),
    Option("cooldown_minutes", OptionKind.INT, _("Cooldown after each action (minutes)"),
           _("A tank waits this long before its next action; Council votes do not wait."),
           minimum=0, maximum=1440),
    Option("armistice_limit", OptionKind.INT, _("Armistice limit"),
           _("The Council wins when the armistice counter reaches this (it grows each gameday "
             "by the number of Council members)."), minimum=1, maximum=100000),
)


def preset_options(preset: str) -> dict[str, Any]:
    """A quick game has a gameday every two minutes and a one-minute cooldown."""
    if preset == PRESET_QUICK:
        return {"schedule": dict(QUICK_SCHEDULE), "cooldown_minutes": 1}
    return {}


def options_notes(options: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """When gamedays open, in words (``options`` are valid)."""
    schedule = options["schedule"]
    if schedule["kind"] == "every":
        return [(_("A gameday opens every %(minutes)s minutes and stays open %(open)s "
                   "minutes."), {"minutes": schedule["minutes"],
                                 "open": schedule["open_minutes"]})]
    days = schedule["weekdays"]
    values = {"open": schedule["open"], "close": schedule["close"],
              "zone": schedule["time_zone"],
              "days": tuple(WEEKDAY_NAMES[WEEKDAYS.index(d)] for d in days)}
    if len(days) == len(WEEKDAYS):
        later = _("A gameday opens every day at %(open)s and closes at %(close)s (%(zone)s).")
    else:
        later = _("A gameday opens at %(open)s and closes at %(close)s (%(zone)s) on these "
                  "days: %(days)s.")
    if schedule.get("first_gameday_at_start", False):
        return [(_("The first gameday opens as soon as the match starts."), {}),
                (later, values)]
    return [(later, values)]
