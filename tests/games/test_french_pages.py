"""The game pages read in French for a French reader.

For each of the site's games a match is played through the services (as in
``tests/portal/test_in_words.py``: seat 1 a player playing the random bot's orders, seat 2 the
bot) by a player whose language is French. Then its pages are read as that player and as a
spectator with French chosen: the match page (at its start too, where a game has a setup),
the history, every replay frame, the game's own pages, the submission status, the lobby, the
create form for the game, and "my matches". None may show a frequent English word outside
code, addresses and proper nouns (``tests.french``).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import engine
from games import services
from games.models import Match
from portal.accounts.models import Profile
from tests.french import english_in, typography_in
from tests.portal.builders import (
    fast_password_hashing,  # noqa: F401  (autouse)
    make_user,
)
from tests.portal.test_in_words import GAMES, OPTIONS, pages_of, play

pytestmark = pytest.mark.django_db

# English these pages show that other parts write, each pattern the text it stands for (the
# test leaves out only that text). None is in the games' web side: the engines' own texts
# (event stories, board diagrams, order grammars, problem messages, logbook entries) and the
# portal's report form. Remove a line when its part speaks French.
ELSEWHERE = [
    # engine/: how to write orders (the text grammar's help, under its <summary>)
    r"(?s)(?<=</summary>)\s*<pre>.*?</pre>",
    # engine/final_act: the round story, its headline, the events drawn on the board
    r'(?s)<ol class="fa-story">.*?</ol>', r'(?s)<p class="fa-headline">.*?</p>',
    r'(?s)<g class="fa-ev [^"]*"><title>.*?</title>', r"(?s)<desc [^>]*>.*?</desc>",
    # engine/final_act, engine/tank_game: a phase's events told by the engine (history)
    r"(?:Alpha|Delta|You) deployed [^<]*", r"(?:Alpha|Delta|Your) \w+ (?:moved|stayed|tried) [^<]*",
    r"Gameday \d+ opened: [^<]*", r"(?<=</time></a>)[^<]*",
    # engine/tank_game: why an action is refused; a bot's tank is named "Seat 2"
    r"(?:Seat )?\w+ is \d+ squares? away; your range is \d+\.",
    r"[^<>:]* costs \d+[^<;]*; you have \d+\.",
    r"The gameday is opening; try again in a moment\.", r"Seat \d+(?= \(\w+\) —|</td>| \d+ \d)",
    # templates/reports/form.html (portal): the report button
    r'(?s)<details class="report">.*?</details>',
]


def _player(slug: str):
    player = make_user(f"joueur-{slug}")
    Profile.objects.update_or_create(user=player, defaults={"language": "fr"})
    return player


def _match(slug: str, player) -> Match:
    return services.match_create(
        creator=player, game=slug, options=OPTIONS.get(slug, {}), hours_per_phase=24,
        seats=[{"kind": "human", "user": player}, {"kind": "bot", "bot": "random"}],
        title=f"Partie {slug}")


def _french(client: Client) -> Client:
    client.cookies["django_language"] = "fr"
    return client


def _read(client: Client, url: str, names: list[str], **headers) -> list[str]:
    response = client.get(url, **headers)
    if response.status_code in (302, 403, 404, 405):
        return []
    assert response.status_code == 200, (url, response.status_code)
    body = b"".join(response.streaming_content).decode() if response.streaming \
        else response.content.decode()
    if "html" not in response.get("Content-Type", ""):
        return []  # a record or a logbook as text: the data's own words
    page = without_elsewhere(own_part(body))
    return [f"{url}: {hit}" for hit in [*english_in(page, names=names),
                                        *typography_in(page, names=names)]]


def without_elsewhere(page: str) -> str:
    for pattern in ELSEWHERE:
        page = re.sub(pattern, " ", page)
    return page


def own_part(page: str) -> str:
    """A full page's title and main part (the site's menu and footer are the site's, read by
    their own tests), or a partial as it is."""
    if "<main" not in page:
        return page
    title = page[page.index("<title"):page.index("</title>")]
    return title.rsplit("·", 1)[0] + page[page.index("<main"):page.index("</main>")]


@pytest.mark.presentation
@pytest.mark.parametrize("slug", GAMES)
def test_a_played_matchs_pages_read_in_french(slug, settings):
    settings.SITE_URL = "https://portal.test"
    player = _player(slug)
    match = _match(slug, player)
    viewers = {"player": _french(Client()), "spectator": _french(Client())}
    viewers["player"].force_login(player)
    names = [player.username, match.title, str(engine.get(slug).name)]

    found = []
    for viewer in viewers.values():  # the first phase: a setup, or the first turn
        found += _read(viewer, reverse("games:match", args=[match.pk]), names)

    play(match, player)
    match.refresh_from_db()
    for who, viewer in viewers.items():
        for url in pages_of(match):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                found += [f"{who} {hit}" for hit in _read(viewer, url, names, **headers)]
    player_client = viewers["player"]
    for url in (reverse("games:lobby"), reverse("games:my_matches"),
                reverse("games:match_create") + f"?game={slug}"):
        found += _read(player_client, url, names)
    assert not found, f"{len(found)} English words:\n" + "\n".join(sorted(set(found)))
