"""The time zones people choose from: the current canonical zones of the tz database (its
``zone.tab``, one or more per country: "Europe/Kyiv", never an old alias such as "Europe/Kiev",
"US/Pacific" or "Asia/Calcutta"), grouped by region, with UTC first. A stored zone is valid when
Python knows it (``zone_names``), so that a profile saved with an old alias still loads; the
forms offer it beside the canonical ones (``zone_choices(keep=...)``)."""

from __future__ import annotations

import zoneinfo
from functools import cache
from importlib import resources
from typing import Any

from django.utils.translation import pgettext_lazy

# The tz database's regions, as people name them.
REGIONS: dict[str, Any] = {
    "Africa": pgettext_lazy("time zone region", "Africa"),
    "America": pgettext_lazy("time zone region", "America"),
    "Antarctica": pgettext_lazy("time zone region", "Antarctica"),
    "Arctic": pgettext_lazy("time zone region", "Arctic"),
    "Asia": pgettext_lazy("time zone region", "Asia"),
    "Atlantic": pgettext_lazy("time zone region", "Atlantic Ocean"),
    "Australia": pgettext_lazy("time zone region", "Australia"),
    "Europe": pgettext_lazy("time zone region", "Europe"),
    "Indian": pgettext_lazy("time zone region", "Indian Ocean"),
    "Pacific": pgettext_lazy("time zone region", "Pacific Ocean"),
}


@cache
def zone_names() -> frozenset[str]:
    """Every zone name Python knows (canonical and old aliases alike)."""
    return frozenset(zoneinfo.available_timezones())


@cache
def canonical_zones() -> tuple[str, ...]:
    """The current canonical zones (``zone.tab`` of the tzdata package), sorted."""
    table = resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text()
    names = {line.split("\t")[2] for line in table.splitlines()
             if line.strip() and not line.startswith("#")}
    return tuple(sorted(names & zone_names()))


def zone_label(name: str) -> str:
    """A zone's name as people read it: "America/Argentina/Buenos Aires" (the region kept: a
    name is read alone too, by a screen reader or once chosen)."""
    return name.replace("_", " ")


def zone_choices(keep: str = "") -> list[tuple[Any, Any]]:
    """UTC, then each region's canonical zones as a group of choices; ``keep`` (a stored zone
    that is not canonical any more) first, as it is, so that a form showing it stays valid."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in canonical_zones():
        groups.setdefault(name.partition("/")[0], []).append((name, zone_label(name)))
    choices: list[tuple[Any, Any]] = [("UTC", "UTC")]
    if keep and keep != "UTC" and keep not in canonical_zones() and keep in zone_names():
        choices.append((keep, keep.replace("_", " ")))
    choices += [(REGIONS.get(region, region), zones) for region, zones in sorted(groups.items())]
    return choices
