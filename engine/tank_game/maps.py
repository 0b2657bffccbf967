"""Maps are data: ``maps/<name>.json`` with size, walls (durability 1-6), mines and spawns.

Loaded once at import time; game functions never read files.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.tank_game import squares


def _check(data: dict[str, Any]) -> dict[str, Any]:
    size = data["size"]
    if not isinstance(size, int) or not 2 <= size <= 26:
        raise ValueError(f"map {data.get('name')}: size must be 2..26")
    walls = data["walls"]
    for sq, durability in walls.items():
        if squares.parse(sq, size) is None or not 1 <= durability <= 6:
            raise ValueError(f"map {data['name']}: bad wall {sq}={durability}")
    taken = set(walls)
    for key in ("mines", "spawns"):
        for sq in data[key]:
            if squares.parse(sq, size) is None or sq in taken:
                raise ValueError(f"map {data['name']}: bad or overlapping {key} square {sq}")
            taken.add(sq)
    return data


def _load() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for entry in resources.files("engine.tank_game").joinpath("maps").iterdir():
        if entry.name.endswith(".json"):
            data = _check(json.loads(entry.read_text(encoding="utf-8")))
            found[data["name"]] = data
    return found


MAPS: dict[str, dict[str, Any]] = _load()
