"""Lobby, my matches, creating a match and joining by invite link."""

import json
import re

import pytest
from django.urls import reverse

from games.models import Match
from tests.portal.builders import duel, fast_password_hashing, make_user  # noqa: F401

pytestmark = pytest.mark.django_db


def create_data(**overrides):
    data = {
        "game": "toy-duel", "title": "Friendly", "seat_count": "2", "seat_1": "me",
        "seat_2": "bot:random", "options": json.dumps({"target": 3, "poison_round": 0}),
        "options_game": "toy-duel", "hours_per_phase": "24", "miss_policy": "replace",
        "miss_limit": "3", "is_public": "on",
    }
    data.update(overrides)
    return data


def test_lobby_lists_public_open_matches_but_not_private_ones(client):
    alice = make_user("alice")
    public = duel(alice, title="Public table")
    duel(alice, is_public=False, title="Secret table")
    page = client.get(reverse("games:lobby")).content.decode()
    assert "Public table" in page and reverse("games:match", args=[public.pk]) in page
    assert "Secret table" not in page


def test_the_lists_rendered_with_jinja2_escape_what_players_typed(client):
    alice, bob = make_user("alice"), make_user("bob")
    duel(alice, title="<b>Bold</b> & co")
    duel(alice, bob, title="<i>Playing</i>")
    client.force_login(alice)
    for name in ("games:lobby", "games:my_matches"):
        page = client.get(reverse(name)).content.decode()
        assert "&lt;b&gt;Bold&lt;/b&gt; &amp; co" in page and "<b>Bold</b>" not in page, name
        assert "&lt;i&gt;Playing&lt;/i&gt;" in page and "<i>Playing</i>" not in page, name


def test_my_matches_puts_the_ones_waiting_for_me_first(client):
    alice, bob = make_user("alice"), make_user("bob")
    open_match = duel(alice, title="Still open")
    waiting = duel(alice, bob, title="Waiting on me")
    client.force_login(alice)
    page = client.get(reverse("games:my_matches")).content.decode()
    assert page.index("Waiting on me") < page.index("Still open")
    assert "Your move" in page
    assert reverse("games:match", args=[open_match.pk]) in page
    assert reverse("games:match", args=[waiting.pk]) in page


def test_the_lobby_shows_a_page_at_a_time_newest_first(client):
    from games.views.lobby import LOBBY_SIZE

    alice = make_user("alice")
    for n in range(LOBBY_SIZE + 1):
        duel(alice, title=f"Table {n:02d}.")
    first = client.get(reverse("games:lobby")).content.decode()
    assert f"Table {LOBBY_SIZE:02d}." in first and "Table 00." not in first
    assert 'href="?page=2"' in first
    second = client.get(reverse("games:lobby"), {"page": "2"}).content.decode()
    assert "Table 00." in second and f"Table {LOBBY_SIZE:02d}." not in second
    assert 'href="?page=1"' in second and 'href="?page=3"' not in second
    for bad in ("0", "x", "-1", "99999999"):
        assert client.get(reverse("games:lobby"), {"page": bad}).status_code == 404


def test_my_finished_matches_come_a_page_at_a_time(client):
    from games import selectors
    from games.services import match_abort

    alice, bob = make_user("alice"), make_user("bob")
    for n in range(selectors.FINISHED_PAGE + 2):
        match = duel(alice, bob, title=f"Over {n:02d}.")
        match_abort(match_id=match.pk, by=alice, note="done")
    current = duel(alice, bob, title="Still on")
    client.force_login(alice)
    page = client.get(reverse("games:my_matches")).content.decode()
    assert "Still on" in page and reverse("games:match", args=[current.pk]) in page
    assert f"Over {selectors.FINISHED_PAGE + 1:02d}." in page and "Over 00." not in page
    older = re.search(r'href="\?before=(\d+)"', page)
    assert older, "no link to the older finished matches"
    rest = client.get(reverse("games:my_matches"), {"before": older.group(1)}).content.decode()
    assert "Over 00." in rest and "Over 01." in rest and "Still on" not in rest
    assert 'href="?before=' not in rest
    assert client.get(reverse("games:my_matches"), {"before": "x"}).status_code == 404


def test_create_form_is_prefilled_with_the_games_default_options(client):
    client.force_login(make_user("alice"))
    response = client.get(reverse("games:match_create"), {"game": "toy-duel"})
    assert response.status_code == 200
    form = response.context["form"]
    assert form["options"].value() in (None, "")  # the JSON box is for those who want it
    assert json.loads(form.fields_json()) == {"target": 3, "poison_round": 0}
    assert [f.name for f in form.seat_fields()] == ["seat_1", "seat_2"]


def test_create_form_redraw_for_another_game_refills_its_defaults(client):
    client.force_login(make_user("alice"))
    response = client.get(reverse("games:match_create"), {
        "game": "toy-duel", "options": '{"x": 1}', "options_game": "another-game"},
        headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b"<html" not in response.content  # an HTMX request gets the form partial only
    assert response.context["form"]["options"].value() == ""
    assert json.loads(response.context["form"].fields_json())["target"] == 3


def test_creating_a_match_against_a_bot_starts_it(client):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(reverse("games:match_create"), create_data())
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:match", args=[match.pk])
    assert match.status == Match.Status.ACTIVE and match.phase_number == 1
    assert [(s.user, s.bot) for s in match.seats.all()] == [(alice, ""), (None, "random")]


def test_invalid_options_json_is_a_400_next_to_the_field_and_stores_nothing(client):
    client.force_login(make_user("alice"))
    response = client.post(reverse("games:match_create"), create_data(options="{target: 3"))
    assert response.status_code == 400
    assert "Options are not valid JSON" in " ".join(response.context["form"].errors["options"])
    assert not Match.objects.exists()


def test_options_the_game_refuses_show_each_problem_with_its_path(client):
    client.force_login(make_user("alice"))
    response = client.post(reverse("games:match_create"),
                           create_data(options='{"target": 99, "colour": "red"}'))
    assert response.status_code == 400
    errors = response.context["form"].errors["options"]
    assert "target: The target must be between 1 and 9 points." in errors
    assert "colour: Unknown option 'colour'." in errors
    assert "The target must be between 1 and 9 points." in response.content.decode()
    assert not Match.objects.exists()


@pytest.mark.parametrize("field, value, message", [
    ("seat_count", "7", "less than or equal to 2"),
    ("seat_2", "bot:genius", "Select a valid choice"),
    ("hours_per_phase", "0", "greater than or equal to 0.05"),
    ("miss_limit", "abc", "Enter a whole number"),
    ("game", "chess", "Select a valid choice"),
])
def test_bad_create_input_is_a_400_naming_the_field(client, field, value, message):
    client.force_login(make_user("alice"))
    response = client.post(reverse("games:match_create"), create_data(**{field: value}))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_taking_two_seats_is_refused(client):
    client.force_login(make_user("alice"))
    response = client.post(reverse("games:match_create"), create_data(seat_2="me"))
    assert response.status_code == 400
    assert "You can take only one seat." in response.content.decode()


def test_htmx_create_with_errors_gets_the_form_partial(client):
    client.force_login(make_user("alice"))
    response = client.post(reverse("games:match_create"), create_data(options="[]"),
                           headers={"HX-Request": "true"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "<html" not in body and 'id="create-form"' in body
    assert "Options must be a JSON object" in body


def test_htmx_create_redirects_with_a_header(client):
    client.force_login(make_user("alice"))
    response = client.post(reverse("games:match_create"), create_data(),
                           headers={"HX-Request": "true"})
    match = Match.objects.get()
    assert response["HX-Redirect"] == reverse("games:match", args=[match.pk])


def test_anonymous_visitors_are_sent_to_log_in_to_create(client):
    response = client.post(reverse("games:match_create"), create_data())
    assert response.status_code == 302 and reverse("account_login") in response.url
    assert not Match.objects.exists()


def test_invite_link_lets_a_player_join_a_private_match_and_starts_it(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, is_public=False, title="Private")
    client.force_login(bob)
    assert client.get(reverse("games:match", args=[match.pk])).status_code == 404
    page = client.get(reverse("games:invite", args=[match.invite_token]))
    assert page.status_code == 200 and "Take an open seat" in page.content.decode()
    response = client.post(reverse("games:invite_accept", args=[match.invite_token]))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert client.get(reverse("games:match", args=[match.pk])).status_code == 200


def test_an_unknown_invite_token_is_a_404(client):
    client.force_login(make_user("bob"))
    assert client.get(reverse("games:invite", args=["nope"])).status_code == 404
    assert client.post(reverse("games:invite_accept", args=["nope"])).status_code == 404


def test_joining_a_full_match_is_a_409_with_the_reason(client):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = duel(alice, bob)
    client.force_login(carol)
    response = client.post(reverse("games:invite_accept", args=[match.invite_token]))
    assert response.status_code == 409
    assert "no longer taking players" in response.content.decode()


def test_join_and_leave_an_open_public_match(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, title="Open")
    client.force_login(alice)
    assert client.post(reverse("games:join", args=[match.pk])).status_code == 409  # seated
    assert client.post(reverse("games:leave", args=[match.pk])).status_code == 302
    assert not match.seats.filter(user=alice).exists()
    client.force_login(bob)
    assert client.post(reverse("games:join", args=[match.pk]), {"seat_number": "x"}
                       ).status_code == 400
    assert client.post(reverse("games:join", args=[match.pk]), {"seat_number": "9"}
                       ).status_code == 404
    assert client.post(reverse("games:join", args=[match.pk]), {"seat_number": "2"}
                       ).status_code == 302
    assert match.seats.get(number=2).user == bob


def test_the_invite_link_is_shown_only_to_participants(client):
    alice, carol = make_user("alice"), make_user("carol")
    match = duel(alice, title="Open")
    client.force_login(alice)
    page = client.get(reverse("games:match", args=[match.pk])).content.decode()
    assert match.invite_token in page
    client.force_login(carol)
    assert match.invite_token not in client.get(
        reverse("games:match", args=[match.pk])).content.decode()


def test_final_act_gets_its_option_fields_and_its_own_tokens_widget(client):
    import engine

    game = engine.get("final-act")
    client.force_login(make_user("alice"))
    page = client.get(reverse("games:match_create"), {"game": game.slug}).content.decode()
    assert 'name="option__advanced" value="wrecks"' in page
    assert 'name="option__tokens_0"' in page and 'name="option__tokens_1"' in page
    assert json.loads(client.get(reverse("games:match_create"), {"game": game.slug})
                      .context["form"].fields_json()) == game.default_options()
    toy = client.get(reverse("games:match_create"), {"game": "toy-duel"}).content.decode()
    assert 'name="option__' not in toy


def test_creating_a_final_act_match_with_widget_options(client):
    client.force_login(make_user("alice"))
    options = {"advanced": ["wrecks"], "tokens": {"mode": "draft-k", "k": 5},
               "extra_forces": True, "round_limit": 80}
    response = client.post(reverse("games:match_create"), create_data(
        game="final-act", options_game="final-act", options=json.dumps(options)))
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.options["tokens"] == {"mode": "draft-k", "k": 5}
    assert match.status == Match.Status.ACTIVE and match.phase_name == "setup"


def test_a_twenty_seat_match_is_created_with_open_seats_to_fill_by_invite(client):
    import tests.portal.notegame  # noqa: F401  (registers "crowd-notes", 2 to 30 seats)

    client.force_login(make_user("alice"))
    redraw = client.get(reverse("games:match_create"), {
        "game": "crowd-notes", "options_game": "crowd-notes", "seat_count": "20"})
    assert len(redraw.context["form"].seat_fields()) == 12
    data = create_data(game="crowd-notes", options_game="crowd-notes", options="{}",
                       seat_count="20", seat_2="open")
    data.update({f"seat_{n}": "open" for n in range(3, 13)})
    response = client.post(reverse("games:match_create"), data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.seats.count() == 20 and match.status == Match.Status.OPEN
    assert match.seats.filter(user__isnull=True, bot="").count() == 19
