"""The analysis board: starting from a match (finished: everything; running: the public
position only), playing every side, stepping back, branching, sharing, bots' suggestions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis.models import Analysis
from games import services
from games.models import Match
from tests.helpers import submit

pytestmark = pytest.mark.django_db


def finished_duel(toy_duel, django_capture_on_commit_callbacks):
    """A Toy Duel North won 2–0 in two phases."""
    match = toy_duel(options={"target": 2})
    for phase in (1, 2):
        submit(match, match.alice, 1, 5, phase)
        submit(match, match.bob, 2, 3, phase)
        with django_capture_on_commit_callbacks():
            services.phase_resolve(match_id=match.pk, phase_number=phase)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def start(client, match, phase=""):
    return client.post(reverse("analysis:start", args=[match.pk]), {"phase": phase})


def test_a_finished_match_opens_at_any_phase_and_the_link_is_readable_by_anyone(
        client, toy_duel, make_user, django_capture_on_commit_callbacks):
    match = finished_duel(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(make_user("carol"))
    page = client.get(reverse("analysis:start", args=[match.pk]))
    assert page.status_code == 200 and "Before phase 2" in page.content.decode()
    response = start(client, match, "2")
    analysis = Analysis.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(
        f"/analysis/{analysis.token}/")
    assert analysis.nodes[0]["state"]["scores"] == {"1": 1, "2": 0}  # before phase 2
    assert len(analysis.token) >= 22
    client.logout()
    shared = client.get(reverse("analysis:detail", args=[analysis.token]))
    assert shared.status_code == 200
    assert "Only the person who made this analysis can play in it." in shared.content.decode()


def test_playing_every_side_stepping_back_and_branching(
        client, toy_duel, django_capture_on_commit_callbacks):
    match = finished_duel(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(match.alice)
    start(client, match, "1")
    analysis = Analysis.objects.get()
    play = reverse("analysis:play", args=[analysis.token])
    first = client.post(play, {"node": "0", "orders_1": "2", "orders_2": "4"})
    assert first.status_code == 302 and first["Location"].endswith("?node=1")
    analysis.refresh_from_db()
    assert analysis.nodes[1]["state"]["scores"] == {"1": 0, "2": 1}
    assert analysis.nodes[1]["moves"] == {"1": "2", "2": "4"}
    # Step back to the start and branch: another line from the same position.
    back = client.get(reverse("analysis:detail", args=[analysis.token]), {"node": "1"})
    assert 'href="?node=0"' in back.content.decode()
    client.post(play, {"node": "0", "orders_1": "5", "orders_2": ""})  # blank: the default
    analysis.refresh_from_db()
    assert [n["parent"] for n in analysis.nodes] == [None, 0, 0]
    assert analysis.nodes[2]["state"]["scores"] == {"1": 1, "2": 0}
    # The same moves again lead to the same position, not a copy of it.
    again = client.post(play, {"node": "0", "orders_1": "2", "orders_2": "4"})
    assert again["Location"].endswith("?node=1")
    # Play on to the end of the branch: the game is over there.
    client.post(play, {"node": "2", "orders_1": "5", "orders_2": "1"})
    analysis.refresh_from_db()
    over = client.get(reverse("analysis:detail", args=[analysis.token]), {"node": "3"})
    assert "Game over: North won" in over.content.decode()
    refused = client.post(play, {"node": "3", "orders_1": "5", "orders_2": "1"})
    assert refused.status_code == 409
    page = client.get(reverse("analysis:detail", args=[analysis.token]), {"node": "0"})
    assert "2 branches" in page.content.decode()
    # The match itself never moved.
    assert Match.objects.get(pk=match.pk).state == match.state


def test_htmx_steps_answer_the_position_alone_and_push_its_url(
        client, toy_duel, django_capture_on_commit_callbacks):
    match = finished_duel(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(match.alice)
    start(client, match, "1")
    analysis = Analysis.objects.get()
    played = client.post(reverse("analysis:play", args=[analysis.token]),
                         {"node": "0", "orders_1": "3", "orders_2": "1"}, HTTP_HX_REQUEST="true")
    assert played.status_code == 200 and played["HX-Push-Url"].endswith("?node=1")
    body = played.content.decode()
    assert body.lstrip().startswith("<section id=\"analysis\"") and "<html" not in body
    step = client.get(reverse("analysis:detail", args=[analysis.token]), {"node": "0"},
                      HTTP_HX_REQUEST="true")
    assert step.status_code == 200 and "<html" not in step.content.decode()


def test_bad_orders_are_a_400_naming_the_seat_and_nothing_is_stored(
        client, toy_duel, django_capture_on_commit_callbacks):
    match = finished_duel(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(match.alice)
    start(client, match, "1")
    analysis = Analysis.objects.get()
    play = reverse("analysis:play", args=[analysis.token])
    response = client.post(play, {"node": "0", "orders_1": "nine", "orders_2": "7"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "These orders cannot be played" in text and "North" in text and "South" in text
    assert "nine" in text  # the sheet comes back to be fixed
    for bad in ({"node": "99"}, {"node": "x"}, {"node": "-1"}):
        assert client.post(play, {**bad, "orders_1": "1"}).status_code in (400, 404)
    analysis.refresh_from_db()
    assert len(analysis.nodes) == 1


def test_only_the_owner_plays_asks_bots_or_deletes(
        client, toy_duel, make_user, django_capture_on_commit_callbacks):
    match = finished_duel(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(match.alice)
    start(client, match, "1")
    analysis = Analysis.objects.get()
    suggest = reverse("analysis:suggest", args=[analysis.token])
    mine = client.get(suggest, {"node": "0", "seat": "2"}, HTTP_HX_REQUEST="true")
    assert mine.status_code == 200 and "A bot would play" in mine.content.decode()
    for who in (None, match.bob, make_user("moderator", is_staff=True)):
        client.logout()
        if who is not None:
            client.force_login(who)
        assert client.post(reverse("analysis:play", args=[analysis.token]),
                           {"node": "0", "orders_1": "1", "orders_2": "1"}).status_code == 403
        assert client.get(suggest, {"node": "0", "seat": "1"}).status_code == 403
        assert client.post(reverse("analysis:delete", args=[analysis.token])).status_code == 403
    analysis.refresh_from_db()
    assert len(analysis.nodes) == 1
    assert client.get(reverse("analysis:detail", args=["no-such-analysis"])).status_code == 404


def test_a_private_match_is_not_analysed_by_outsiders(client, toy_duel, make_user):
    match = toy_duel(is_public=False)
    client.force_login(make_user("carol"))
    assert client.get(reverse("analysis:start", args=[match.pk])).status_code == 404
    assert start(client, match).status_code == 404
    assert not Analysis.objects.exists()


def test_a_running_match_opens_at_its_public_position_with_the_analysis_own_dice(
        client, toy_duel):
    match = toy_duel()
    submit(match, match.alice, 1, 5, 1)  # sealed: not in the state, never in the analysis
    client.force_login(match.bob)
    assert start(client, match).status_code == 302
    analysis = Analysis.objects.get()
    assert analysis.nodes[0]["state"] == match.state
    assert '"number": 5' not in str(analysis.nodes) and "salt" not in str(analysis.nodes)


def test_a_continuous_game_acts_seat_by_seat_and_goes_on_to_its_next_event(client, make_user):
    import random

    import engine
    from tests.portal.builders import duel

    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, game="tank-game")
    client.force_login(alice)
    assert start(client, match).status_code == 302
    analysis = Analysis.objects.get()
    page = client.get(reverse("analysis:detail", args=[analysis.token])).content.decode()
    assert 'name="acting"' in page and 'name="tick"' in page
    game, state = engine.get("tank-game"), analysis.nodes[0]["state"]
    play = reverse("analysis:play", args=[analysis.token])
    suggestion = client.get(reverse("analysis:suggest", args=[analysis.token]),
                            {"node": "0", "seat": "2"})
    assert suggestion.status_code == 200
    text = game.format_text(state, 1, game.bot_submission(state, 1, "random",
                                                           random.Random(1)))
    assert client.post(play, {"node": "0", "acting": "1", "orders_1": text}).status_code == 302
    refused = client.post(play, {"node": "1", "acting": "1", "orders_1": text})
    assert refused.status_code == 400  # the tank waits out its cooldown
    assert client.post(play, {"node": "0", "acting": "9", "orders_1": "x"}).status_code == 400
    assert client.post(play, {"node": "0", "tick": "1"}).status_code == 302
    analysis.refresh_from_db()
    assert [n["parent"] for n in analysis.nodes] == [None, 0, 0]
    assert analysis.nodes[1]["moves"] == {"1": text.strip()}
    assert analysis.nodes[2]["label"] == "Next scheduled event"
    assert analysis.nodes[2]["at"] >= analysis.nodes[0]["at"]


def test_the_owner_deletes_an_analysis_and_its_link_is_gone(
        client, toy_duel, django_capture_on_commit_callbacks):
    match = finished_duel(toy_duel, django_capture_on_commit_callbacks)
    client.force_login(match.alice)
    start(client, match)
    analysis = Analysis.objects.get()
    page = client.get(reverse("analysis:detail", args=[analysis.token])).content.decode()
    assert "Delete this analysis" in page
    response = client.post(reverse("analysis:delete", args=[analysis.token]))
    assert response.status_code == 302 and response["Location"] == reverse("analysis:mine")
    assert client.get(reverse("analysis:detail", args=[analysis.token])).status_code == 404
