"""What other apps add to a player's page: sections (ratings, clubs, seasons, team matches…)
and who counts as close enough to read a page its player kept for their clubs.

The page itself never imports what fills it: a section is registered from an
``AppConfig.ready``, and the page shows what is there. The competitions' sections are the
player pages' own (``portal.players.competitions``, registered by ``portal.players.apps``):
the competitions sit below the portal and know nothing of its pages. A section is a template
and a function giving its context, or None when it has nothing to show for this player and
this reader.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PageReader:
    """Who reads whose page: ``viewer`` may be anonymous; ``sees_private``: the player
    themselves or a moderator (private matches count only for them)."""

    player: Any
    viewer: Any
    sees_private: bool


@dataclass(frozen=True)
class Section:
    key: str  # also the section's id on the page
    order: int  # smaller first; the portal's own sections are 10 (record) to 40 (current)
    template: str
    context: Callable[[PageReader], dict[str, Any] | None]
    # The section for the API (plain JSON data made from its context); None: page only.
    data: Callable[[dict[str, Any]], Any] | None = None


_sections: dict[str, Section] = {}
_audiences: list[Callable[[Any, Any], bool]] = []


def section_register(section: Section) -> Section:
    """Add (or replace, by key) a section of every player's page."""
    _sections[section.key] = section
    return section


def sections() -> list[Section]:
    return sorted(_sections.values(), key=lambda s: (s.order, s.key))


def audience_register(shares: Callable[[Any, Any], bool]) -> None:
    """``shares(viewer, player)``: True when ``viewer`` is in a circle of ``player`` (a club
    they both belong to) that may read a page kept for club members."""
    if shares not in _audiences:
        _audiences.append(shares)


def shares_a_circle(viewer: Any, player: Any) -> bool:
    return any(shares(viewer, player) for shares in _audiences)
