"""Game cards (tank types) and maps are data: ``cards.json`` and ``maps/<name>.json``.

Loaded once at import time; the rules never read files.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.panzer_squadron import hexes

_ROOT = resources.files("engine.panzer_squadron")


def _load_cards() -> dict[str, dict[str, Any]]:
    raw = _ROOT.joinpath("cards.json").read_text(encoding="utf-8")
    cards: dict[str, dict[str, Any]] = json.loads(raw)
    for key, card in cards.items():
        if set(card["armour"]) != {"front", "side", "rear"} or card["modifier"] > 0:
            raise ValueError(f"card {key}: armour needs front/side/rear, modifier <= 0")
    return cards


def _check_map(data: dict[str, Any]) -> dict[str, Any]:
    size = tuple(data["size"])
    seen: set[str] = set()
    for kind in ("woods", "building", "water"):
        for at in data["terrain"][kind]:
            if hexes.parse(at, size) is None or at in seen:
                raise ValueError(f"map {data['name']}: bad or repeated hex {at}")
            seen.add(at)
    for tank in data["tanks"]:
        if tank["at"] in seen or hexes.parse(tank["at"], size) is None:
            raise ValueError(f"map {data['name']}: tank {tank['name']} on {tank['at']}")
        seen.add(tank["at"])
    return data


def _load_maps() -> dict[str, dict[str, Any]]:
    found = {}
    for entry in _ROOT.joinpath("maps").iterdir():
        if entry.name.endswith(".json"):
            data = _check_map(json.loads(entry.read_text(encoding="utf-8")))
            found[data["name"]] = data
    return found


CARDS: dict[str, dict[str, Any]] = _load_cards()
MAPS: dict[str, dict[str, Any]] = _load_maps()
DEFAULT_MAP = "default"
