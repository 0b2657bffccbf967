"""The four games' rules pages in French: no English left in the page's own text, the numbers
still the engine's, and the Final Act diagrams captioned in the reader's language. The English
pages are checked by each game's own rules tests.

Three parts of a rules page are other code's words, not the page's, and are left out here: the
board drawings (``<svg>``, drawn by each game's board code), the Final Act board legend (an
include shared with the match page) and the round reports under two diagrams (the engine's
report of a round, as the match page tells it)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

import engine
from engine.panzer_squadron.options import DEFAULT_TURN_LIMIT
from engine.tank_game import actions, council, state
from games import plugins
from games.final_act.rules import rule_diagrams
from games.option_fields import notes_text
from tests.french import english_in

pytestmark = pytest.mark.django_db

GAMES = ("final-act", "final-strategy", "panzer-squadron", "tank-game")


def rules_page(client, slug: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(reverse("games:rules", args=[slug]))
    assert response.status_code == 200
    return response.content.decode()


def own_text(page: str) -> str:
    """The page's main part, its boards and their stories included."""
    return page[page.index("<main"):page.index("</main>")]


@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_page_reads_in_french(client, slug):
    page = rules_page(client, slug, "fr")
    assert '<html lang="fr">' in page
    assert english_in(own_text(page), names=[plugins.plugin_for(slug).name]) == []


@pytest.mark.parametrize("slug", GAMES)
def test_the_english_rules_page_is_found_english(client, slug):
    """The same check on the English page finds English (so the French check can fail)."""
    found = english_in(own_text(rules_page(client, slug, "en-gb")))
    assert {"the", "and", "you"} <= {word.lower() for sentence in found
                                     for word in sentence.replace(",", " ").split()}


def test_final_act_diagrams_are_captioned_in_each_language(client):
    with translation.override("fr"):
        french = rule_diagrams()
        assert rule_diagrams() is french  # built once per language
    with translation.override("en-gb"):
        english = rule_diagrams()
    assert french.keys() == english.keys()
    for key, diagram in french.items():
        assert diagram.caption != english[key].caption
        assert diagram.state == english[key].state  # the same position, told in French
    page = rules_page(client, "final-act", "fr")
    cone = french["cone"]
    assert cone.caption.startswith("Le cône de tir d'Alpha C")
    figure = re.search(r'<figure id="diagram-cone">.*?</figure>', page, re.S)
    assert figure and 'aria-label="Le cône de tir d&#x27;Alpha C' in figure.group(0)


def test_final_act_buttons_are_named_as_the_panels_name_them(client):
    """The page names the panels' buttons through the same catalogue entries."""
    page = rules_page(client, "final-act", "fr")
    for label in ("Use the default layout", "Aim on the board", "Pick on the board"):
        with translation.override("fr"):
            french = translation.gettext(label)
        assert french != label and f"« {french} »" in page


def test_panzer_squadron_page_in_french_keeps_the_engines_numbers(client):
    page = rules_page(client, "panzer-squadron", "fr")
    assert "<th scope=\"row\">Léger</th><td>20</td><td>70 / 55 / 45</td>" in page
    assert f"({DEFAULT_TURN_LIMIT} tours, sauf si la partie" in page
    assert "Village crossing (<code>default</code>)" in page


def test_tank_game_has_a_rules_page_of_its_own_from_the_engine(client):
    """Tank Game's page explains the game (not the engine's docstring), with its numbers read
    from the engine, in both languages."""
    english = re.sub(r"\s+", " ", rules_page(client, "tank-game", "en-gb"))
    assert "engine" not in english and "shared/rules" not in english
    assert f"<td>{actions.BUY_AP_COST} gold</td>" in english
    assert f"{council.COST['grant_life']} gold: a tank, living or dead" in english
    french = rules_page(client, "tank-game", "fr")
    assert f"<td>{actions.UPGRADE_RANGE_COST} pièces d'or</td>" in french
    assert f"Chaque char commence avec {state.START_LIVES} vies" in french
    game = engine.get("tank-game")
    with translation.override("fr"):
        schedule = notes_text(game, game.default_options())
    assert schedule and all(line.replace("'", "&#x27;") in french for line in schedule)


def test_final_strategy_uses_the_french_rule_books_terms(client):
    """The French rule book's names: carrés de sécurité, carrés neutres, ravisseurs."""
    page = rules_page(client, "final-strategy", "fr")
    assert "Carrés de sécurité" in page and "Carrés neutres" in page and "ravisseur" in page
    assert "refuge" not in page
