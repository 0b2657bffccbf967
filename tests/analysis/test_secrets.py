"""No analysis page shows what its viewer may not know: sealed sheets, Final Act's hidden
setup and secret tokens, Final Strategy's bunkers, Panzer Squadron's standing reactions —
requested as every role (anonymous, the other player, the sheet's owner, a spectator, the
analysis's owner, a moderator), on every page of the board and its shared link."""

from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.contrib.auth.models import Group
from django.template.loader import render_to_string
from django.urls import reverse

import engine
from analysis.models import Analysis
from games.models import Submission
from games.plugins import sheet_text
from games.services import orders_submit
from tests.helpers import client_for
from tests.portal.builders import duel

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    moderator = make_user("moderator", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    return {"anonymous": None, "seat1": make_user("alice"), "seat2": make_user("bob"),
            "spectator": make_user("carol"), "moderator": moderator}


def pages(analysis, owner_client) -> list[tuple[str, dict]]:
    """Every page of the analysis board for ``analysis`` (the suggestions: its owner's)."""
    detail = reverse("analysis:detail", args=[analysis.token])
    found = [(detail, {"as": s, "node": str(n["id"])}) for n in analysis.nodes
             for s in ["", *map(str, range(1, analysis.seats + 1))]]
    found += [(detail, {})]
    return found


def seen_by_everyone(analysis, people, owner, forbidden: list[str],
                     suggestion_forbidden: list[str] | None = None) -> None:
    """Every page, as every role, holds none of the ``forbidden`` texts; the owner's bot
    suggestion none of ``suggestion_forbidden`` (by default the same)."""
    targets = pages(analysis, owner)
    roles = {**people, "owner": analysis.owner}
    for role, user in roles.items():
        client = client_for(user)
        for url, query in targets:
            for htmx in (False, True):
                response = client.get(url, query, **({"HTTP_HX_REQUEST": "true"} if htmx
                                                     else {}))
                assert response.status_code == 200, (role, url, query)
                body = without_grammar_help(response.content.decode())
                for secret in forbidden:
                    assert secret not in body, (role, url, query, secret)
        if user is not None and analysis.match_id:
            start = client.get(reverse("analysis:start", args=[analysis.match_id]))
            for secret in forbidden:
                assert secret not in start.content.decode(), (role, secret)
        suggest = client.get(reverse("analysis:suggest", args=[analysis.token]),
                             {"node": "0", "seat": "1"})
        assert suggest.status_code == (200 if user == analysis.owner else 403) or \
            suggest.status_code == 409
        for secret in (forbidden if suggestion_forbidden is None else suggestion_forbidden):
            assert secret not in suggest.content.decode()


def without_grammar_help(body: str) -> str:
    """The page without the grammar's help, which names every kind of order (a reaction's
    modes among them) whoever reads it."""
    return re.sub(r"<details><summary>[^<]*</summary><pre>.*?</pre></details>", "", body,
                  flags=re.S)


def markers(text: str, salt: str) -> list[str]:
    found = [salt]
    for line in text.splitlines():
        if len(line.strip()) >= 12:
            found += [line.strip(), html.escape(line.strip())]
    return found


def test_final_act_hidden_setup_stays_sealed_on_every_page(people):
    game = engine.get("final-act")
    match = duel(people["seat1"], people["seat2"], game="final-act")
    sheet = game.bot_submission(match.state, 1, "random", random.Random(5))
    orders_submit(match_id=match.pk, seat_number=1, user=people["seat1"], source="web",
                  phase_number=match.phase_number, data=sheet)
    stored = Submission.objects.get(phase__match=match, seat__number=1)
    text = sheet_text(game, match.state, 1, stored.data)
    # The other player opens the board on the running match.
    owner = client_for(people["seat2"])
    assert owner.post(reverse("analysis:start", args=[match.pk]), {"phase": ""}).status_code \
        == 302
    analysis = Analysis.objects.get()
    stored_json = json.dumps(analysis.nodes)
    assert stored.salt not in stored_json and json.dumps(stored.data)[1:-1] not in stored_json
    assert all(u["at"] is None for u in analysis.nodes[0]["state"]["units"]) or \
        analysis.nodes[0]["state"]["units"] == match.state["units"]
    # The bot's suggestion for seat 1 is a fresh random setup of the public position: one of
    # its lines may match a sealed line by chance (a berm on the same two squares: a CI run
    # drew one), so there the salt and the sealed setup as a whole are what must not show.
    whole = "\n".join(line.strip() for line in text.splitlines() if line.strip())
    shown = render_to_string("analysis/suggestion.html", {"text": text, "seat": 1, "node": 0})
    assert whole in shown or html.escape(whole) in shown  # what a leak would show
    seen_by_everyone(analysis, people, owner, markers(text, stored.salt),
                     suggestion_forbidden=[stored.salt, whole, html.escape(whole)])


def test_final_act_secret_tokens_refuse_analysis_of_the_running_match(people):
    match = duel(people["seat1"], people["seat2"], game="final-act",
                 options={"tokens": {"mode": "random-k"}})
    game = engine.get("final-act")
    if game.public_state(match.state) is not None:
        pytest.skip("no token is dealt before the setup in this scenario")
    for role, user in people.items():
        client = client_for(user)
        page = client.get(reverse("analysis:start", args=[match.pk]))
        assert page.status_code == 200
        assert "only its players may know" in page.content.decode()
        refused = client.post(reverse("analysis:start", args=[match.pk]), {"phase": ""})
        assert refused.status_code in (302, 403), role  # anonymous: to the log-in first
        if user is not None:
            assert refused.status_code == 403
    assert not Analysis.objects.exists()


def test_final_strategy_bunkers_refuse_analysis_of_the_running_match(people):
    match = duel(people["seat1"], people["seat2"], game="final-strategy")
    for role, user in people.items():
        client = client_for(user)
        page = client.get(reverse("analysis:start", args=[match.pk])).content.decode()
        assert "only its players may know" in page and "troops" not in page, role
        if user is not None:
            response = client.post(reverse("analysis:start", args=[match.pk]), {"phase": ""})
            assert response.status_code == 403, role
    assert not Analysis.objects.exists()


def test_panzer_squadron_standing_reactions_never_reach_the_board(people):
    game = engine.get("panzer-squadron")
    match = duel(people["seat1"], people["seat2"], game="panzer-squadron")
    tank = next(t["name"] for t in match.state["tanks"] if t["seat"] == 2)
    orders_submit(match_id=match.pk, seat_number=2, user=people["seat2"], source="web",
                  phase_number=match.phase_number,
                  data={"reactions": {tank: {"mode": "side-rear", "max_range": 4}}})
    match.refresh_from_db()
    assert match.state["reactions"][tank]["mode"] == "side-rear"
    owner = client_for(people["seat2"])  # even the reactions' author gets the public position
    owner.post(reverse("analysis:start", args=[match.pk]), {"phase": ""})
    analysis = Analysis.objects.get()
    assert "side-rear" not in json.dumps(analysis.nodes)
    assert analysis.nodes[0]["state"] == game.public_state(match.state)
    seen_by_everyone(analysis, people, owner, ["side-rear", "side_rear"])
