"""The Final Act rules page: public, complete, and every diagram shows what its caption says."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

import engine
from engine.final_act.board_text import ORDERS_HELP, SETUP_HELP
from games.final_act.rules import rule_diagrams

SVG = "{http://www.w3.org/2000/svg}"
SECTIONS = (
    "goal",
    "board",
    "setup",
    "round",
    "moves",
    "collisions",
    "fire",
    "hits",
    "winning",
    "advanced",
    "tokens",
    "extra-forces",
    "on-this-site",
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client) -> str:
    response = client.get(reverse("games:rules", args=["final-act"]))
    assert response.status_code == 200
    return response.content.decode()


def boards(page: str) -> dict[str, ET.Element]:
    """Every board svg of the page, parsed, by its id."""
    found = {}
    for markup in re.findall(r"<svg class=\"fa-board\".*?</svg>", page, re.S):
        root = ET.fromstring(markup)
        found[root.get("id")] = root
    return found


def marked(svg: ET.Element, cls: str) -> set[str]:
    """Squares whose rect carries ``cls``."""
    return {
        rect.get("data-square")
        for rect in svg.iter(f"{SVG}rect")
        if cls in (rect.get("class") or "").split() and rect.get("data-square")
    }


def overlays(svg: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in svg.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def legal_unit(key: str, seat: int, name: str) -> dict:
    state = rule_diagrams()[key].state
    return engine.get("final-act").legal_actions(state, seat)["units"][name]


def test_the_page_is_public_and_has_every_section(client, page):
    """Anonymous visitors get the page; every section is there and linked from the contents."""
    for section in SECTIONS:
        assert f'<section id="{section}"' in page
        assert f'href="#{section}"' in page
    assert client.post(reverse("games:rules", args=["final-act"])).status_code == 405


def test_at_least_five_captioned_diagrams(page):
    """At least five board diagrams, each in a figure with its caption, which also names the
    svg for screen readers."""
    found = boards(page)
    assert len(found) >= 5
    for diagram in rule_diagrams().values():
        svg = found[f"fa-rules-{diagram.key}"]
        assert svg.get("aria-label", "").startswith(html.unescape(diagram.caption))
        figure = re.search(rf'<figure id="diagram-{diagram.key}">.*?</figure>', page, re.S)
        assert figure and f"<figcaption>{diagram.caption}" in html.unescape(figure.group(0))


def test_layout_diagram_marks_alpha_rows_1_to_3(page):
    """The default layout: both sides' units are drawn and Alpha's rows 1-3 are marked."""
    svg = boards(page)["fa-rules-layout"]
    rows = {f"{file}{rank}" for file in "abcdefghijkl" for rank in (1, 2, 3)}
    assert marked(svg, "is-area") == rows
    units = overlays(svg, "fa-unit")
    assert {(u.get("data-seat"), u.get("data-unit")) for u in units} == {
        (seat, name) for seat in ("1", "2") for name in ("C", "1", "1A", "1B", "2", "2A", "2B")
    }


def test_moves_diagram_marks_exactly_the_legal_moves(page):
    """Tank C on f4 facing north: forward, diagonals and back are marked, but not g5 (swamp)
    and nothing sideways."""
    svg = boards(page)["fa-rules-moves"]
    assert marked(svg, "is-legal") == {"e3", "e5", "f3", "f5", "g3"}
    legal = legal_unit("moves", 1, "C")
    assert marked(svg, "is-legal") == {m["to"] for m in legal["moves"] if m["move"] != "stay"}


def test_minefield_diagram_opens_only_the_passage(page):
    """Delta 1 on d9 facing south may step onto the passage d8 (arrow south), not c8 or e8."""
    svg = boards(page)["fa-rules-minefield"]
    squares = marked(svg, "is-legal")
    assert "d8" in squares and not {"c8", "e8"} & squares
    legal = legal_unit("minefield", 2, "1")
    assert squares == {m["to"] for m in legal["moves"] if m["move"] != "stay"}


def test_cone_diagram_marks_exactly_the_legal_cone(page):
    """Shaded = the squares Alpha C may shell, crossed = cone squares out of its line of fire
    (behind Delta 2A on e6 and behind the berm on g7); both straight from legal_actions."""
    svg = boards(page)["fa-rules-cone"]
    legal = legal_unit("cone", 1, "C")
    assert marked(svg, "is-cone") == set(legal["fire"])
    assert marked(svg, "is-blocked") == set(legal["blocked"])
    assert {"e7", "e8", "e9", "e10", "g8"} <= marked(svg, "is-blocked")
    assert {"e6", "g7"} <= marked(svg, "is-cone")  # the blocker's own squares can be shelled


def test_berm_diagram_reaches_seven_ahead_and_sees_over_tanks(page):
    """From the berm on f3, Alpha 1's cone reaches f10 and nothing in it is blocked."""
    svg = boards(page)["fa-rules-berm"]
    legal = legal_unit("berm", 1, "1")
    assert marked(svg, "is-cone") == set(legal["cone"])
    assert "f10" in marked(svg, "is-cone") and marked(svg, "is-blocked") == set()


def test_at_cone_diagram(page):
    """AT1's cone: four ahead, two to each side, twelve squares in all."""
    svg = boards(page)["fa-rules-at-cone"]
    assert marked(svg, "is-cone") == set(legal_unit("at_cone", 1, "AT1")["cone"])
    assert len(marked(svg, "is-cone")) == 12 and "e8" in marked(svg, "is-cone")


def test_collision_diagram_shows_the_bounces(page):
    """Both 2A tanks and Alpha 1 stayed where they were (three bounce marks); the two C tanks
    moved (two move arrows); the round report says so."""
    diagram = rule_diagrams()["collision"]
    at = {(u["seat"], u["name"]): u["at"] for u in diagram.state["units"]}
    assert (at[(1, "2A")], at[(2, "2A")], at[(1, "1")]) == ("i5", "k7", "i4")
    assert (at[(1, "C")], at[(2, "C")]) == ("c5", "c8")
    svg = boards(page)["fa-rules-collision"]
    assert len(overlays(svg, "fa-ev-bounce")) == 3 and len(overlays(svg, "fa-ev-move")) == 2
    assert "Alpha 2A tried to move to j6 but stayed at i5: Delta 2A also moved there." in (
        html.unescape(page)
    )


def test_hits_diagram_shows_a_damage_and_an_out(page):
    """Delta 2A drove onto the shelled f8 and is damaged; Delta 1B, already damaged, is out."""
    diagram = rule_diagrams()["hits"]
    units = {(u["seat"], u["name"]): u for u in diagram.state["units"]}
    assert (units[(2, "2A")]["at"], units[(2, "2A")]["hits"]) == ("f8", 1)
    assert units[(2, "1B")]["state"] == "out"
    svg = boards(page)["fa-rules-hits"]
    hits = overlays(svg, "fa-ev-hit")
    assert len(hits) == 2 and len([h for h in hits if "is-out" in h.get("class", "")]) == 1
    assert "Delta 2A moved f9 → f8 and was hit by Alpha C's shell — damaged." in diagram.story


def test_the_email_grammar_is_the_engines(page):
    """The email section shows the order grammar the email parser reads."""
    text = html.unescape(page)
    assert SETUP_HELP in text and ORDERS_HELP in text


def test_diagrams_are_built_once():
    """The diagrams never change: one build per process."""
    assert rule_diagrams() is rule_diagrams()
