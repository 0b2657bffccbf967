"""The Tank Game pages: board SVG, my action panel (and why not), the Council, actions posted
with HTMX (4xx on refusal, nothing written), the logbook with its slider and text export, and
creating a match through the generic create form."""

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

import engine.tank_game  # noqa: F401  (registers "tank-game" if BUILTIN_GAMES does not yet)
from games import services
from games.models import Action, Match

pytestmark = pytest.mark.django_db

ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


@pytest.fixture
def tanks(make_user):
    users = [make_user(f"tank{n}") for n in (1, 2, 3)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN, "cooldown_minutes": 5},
        seats=[{"kind": "human", "user": u} for u in users])
    match.players = dict(enumerate(users, start=1))
    services.gameday_tick(match_id=match.pk)  # what the sweeper does within seconds
    match.refresh_from_db()
    return match


def streamed(response) -> str:
    return b"".join(response.streaming_content).decode()


def my_move(match, seat=1):
    match.refresh_from_db()
    legal = engine.get("tank-game").legal_actions(match.state, seat)
    return next(a for a in legal if a["type"] == "move")


def test_the_match_page_shows_the_board_my_panel_and_the_council(client, tanks):
    client.force_login(tanks.players[1])
    response = client.get(reverse("games:match", args=[tanks.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in html and 'class="wall"' in html and 'class="mine"' in html
    assert "Move to" in html and "Council" in html and "Coffer" in html
    assert "tank1" in html  # the players' names are the tanks' display names
    assert reverse("games:tank_logbook", args=[tanks.pk]) in html


def test_spectators_see_the_board_but_no_action_panel(client, tanks):
    response = client.get(reverse("games:match", args=[tanks.pk]))
    html = response.content.decode()
    assert response.status_code == 200 and "<svg" in html and "Move to" not in html


def test_an_action_is_posted_and_the_second_within_the_cooldown_is_a_409_or_400(client, tanks):
    client.force_login(tanks.players[1])
    url = reverse("games:tank_act", args=[tanks.pk])
    response = client.post(url, {"type": "move", "to": my_move(tanks)["to"]},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Action.objects.filter(match=tanks, kind="action").count() == 1
    response = client.post(url, {"type": "buy_ap"}, HTTP_HX_REQUEST="true")
    assert 400 <= response.status_code < 500
    assert "You can act again in" in response.content.decode()
    assert Action.objects.filter(match=tanks, kind="action").count() == 1
    page = client.get(reverse("games:match", args=[tanks.pk])).content.decode()
    assert "Not now" in page and "You can act again in" in page  # why not, on the panel


@pytest.mark.parametrize("data, message", [
    ({}, "Choose an action"),
    ({"type": "give", "to": "A1", "gold": "lots"}, "gold must be a whole number"),
    ({"type": "move", "to": "Z99"}, "Z99"),
    ({"type": "fly"}, "action type is one of"),
    ({"type": "move", "to": "x" * 500}, "too long"),
])
def test_bad_action_input_is_a_4xx_naming_what_is_wrong(client, tanks, data, message):
    client.force_login(tanks.players[2])
    response = client.post(reverse("games:tank_act", args=[tanks.pk]), data,
                           HTTP_HX_REQUEST="true")
    assert 400 <= response.status_code < 500
    assert message in response.content.decode()
    assert not Action.objects.filter(match=tanks, kind="action").exists()


def test_only_seated_players_may_act(client, tanks, make_user):
    url = reverse("games:tank_act", args=[tanks.pk])
    assert client.post(url, {"type": "buy_ap"}).status_code == 302  # to log in
    client.force_login(make_user("stranger"))
    assert client.post(url, {"type": "buy_ap"}).status_code == 403
    assert client.get(url).status_code == 405


def test_the_logbook_page_slider_and_text_export(client, tanks):
    client.force_login(tanks.players[1])
    start = timezone.now()
    spawn2 = next(t["at"] for t in engine.get("tank-game").view(tanks.state, None)["tanks"]
                  if t["seat"] == 2)
    services.actions_apply(match_id=tanks.pk, seat_number=1, user=tanks.players[1],
                           action=my_move(tanks, 1), source="web", now=start)
    services.actions_apply(match_id=tanks.pk, seat_number=2, user=tanks.players[2],
                           action=my_move(tanks, 2), source="web",
                           now=start + timedelta(seconds=1))
    last = Action.objects.filter(match=tanks).order_by("-seq").first().seq
    url = reverse("games:tank_logbook", args=[tanks.pk])
    page = client.get(url).content.decode()
    assert 'type="range"' in page and f'max="{last}"' in page and "tank1" in page
    earlier = client.get(url, {"upto": last - 1}, HTTP_HX_REQUEST="true")
    assert earlier.status_code == 200 and f"After entry {last - 1} of {last}" in \
        earlier.content.decode()
    # The board at an earlier entry is the replay up to it: tank 2 has not moved yet.
    earlier_view = earlier.context["view"]
    tank2 = next(t for t in earlier_view["tanks"] if t["seat"] == 2)
    assert tank2["at"] == spawn2
    now_view = client.get(url, HTTP_HX_REQUEST="true").context["view"]
    assert next(t for t in now_view["tanks"] if t["seat"] == 2)["at"] != spawn2
    tanks.refresh_from_db()
    assert client.get(url, {"upto": "abc"}).status_code == 400
    text = client.get(reverse("games:tank_logbook_text", args=[tanks.pk]))
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    lines = streamed(text).splitlines()
    entries = [e for row in Action.objects.filter(match=tanks).order_by("seq") for e in row.events]
    assert len(lines) == len(entries) == 3  # the tick and two moves, one line each, in order
    assert lines[0].endswith("Gameday 1 opened")  # an accelerated schedule: no slot number
    assert lines[1].endswith(f"tank1 — Moved to {entries[1]['action']['to']}")
    assert client.get(url, {"upto": last + 1}).status_code == 400  # no such entry


def test_a_tank_game_is_created_through_the_generic_create_form(client, make_user):
    client.force_login(make_user("creator"))
    options = {"map": "big", "cooldown_minutes": 5, "schedule": {
        "kind": "weekly", "weekdays": ["mon", "wed", "thu"], "open": "10:00", "close": "16:00",
        "time_zone": "Europe/Berlin", "holidays": ["2026-12-25"]}}
    data = {"game": "tank-game", "title": "Big one", "seat_count": "20", "seat_1": "me",
            "options": json.dumps(options), "options_game": "tank-game",
            "hours_per_phase": "24", "miss_policy": "replace", "miss_limit": "3",
            "is_public": "on"}
    data.update({f"seat_{n}": "open" for n in range(2, 13)})
    response = client.post(reverse("games:match_create"), data)
    match = Match.objects.get()
    assert response.status_code == 302, response.content.decode()[:2000]
    assert match.seats.count() == 20 and match.status == Match.Status.OPEN
    assert match.options["schedule"]["time_zone"] == "Europe/Berlin"
    bad = client.post(reverse("games:match_create"),
                      {**data, "options": json.dumps({**options, "map": "moon"})})
    assert bad.status_code == 400 and Match.objects.count() == 1


def test_logbook_pages_of_a_game_without_a_logbook_do_not_exist(client, make_user):
    alice = make_user("duelist")
    match = services.match_create(creator=alice, game="toy-duel", options={},
                                  hours_per_phase=24, seats=[{"kind": "human", "user": alice},
                                                             {"kind": "bot", "bot": "random"}])
    client.force_login(alice)
    for name in ("tank_logbook", "tank_logbook_text", "tank_play"):
        assert client.get(reverse(f"games:{name}", args=[match.pk])).status_code == 404
    assert client.post(reverse("games:tank_act", args=[match.pk]),
                       {"type": "move"}).status_code == 404


def test_my_ballot_vote_shows_on_my_page_only(client, make_user):
    users = [make_user(f"voter{n}") for n in (1, 2, 3, 4)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN},
        seats=[{"kind": "human", "user": u} for u in users])
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    # A position: seats 3 and 4 fell earlier (dead tanks sit on the Council), the coffer empty.
    state = match.state
    for seat in ("3", "4"):
        state["tanks"][seat].update(lives=0, ap=0, gold=0, bounty=0, status="dead", durability=3)
        state["deaths"].append(int(seat))
    state["coffer"] = 0
    Match.objects.filter(pk=match.pk).update(state=state)
    url = reverse("games:tank_act", args=[match.pk])
    client.force_login(users[2])
    assert client.post(url, {"type": "open_ballot", "decree": "stimulus", "target": "1"},
                       HTTP_HX_REQUEST="true").status_code == 200
    client.force_login(users[3])
    ballot = Match.objects.get(pk=match.pk).state["ballots"][0]["id"]
    assert client.post(url, {"type": "vote", "ballot": str(ballot), "target": "2"},
                       HTTP_HX_REQUEST="true").status_code == 200

    def page(user):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        return client.get(reverse("games:match", args=[match.pk])).content.decode()

    assert "Your vote: voter1" in page(users[2]) and "Your vote: voter2" not in page(users[2])
    assert "Your vote: voter2" in page(users[3]) and "Your vote: voter1" not in page(users[3])
    for other in (users[0], None):
        assert "Your vote" not in page(other)
    text = streamed(client.get(reverse("games:tank_logbook_text", args=[match.pk])))
    votes = [line for line in text.splitlines() if "voted" in line]
    assert len(votes) == 2 and "voter3" in votes[0] and "voter4" in votes[1]
    assert not any("voter1" in line or "voter2" in line for line in votes)  # whom: private


def test_without_htmx_an_action_redirects_and_a_refusal_shows_the_page(client, tanks):
    client.force_login(tanks.players[3])
    url = reverse("games:tank_act", args=[tanks.pk])
    done = client.post(url, {"type": "move", "to": my_move(tanks, 3)["to"]})
    assert done.status_code == 302 and done.url == reverse("games:match", args=[tanks.pk])
    refused = client.post(url, {"type": "move", "to": "A1"})
    assert refused.status_code == 400 and b"<html" in refused.content
    assert b"You can act again in" in refused.content


def test_an_action_both_illegal_and_inside_the_cooldown_is_refused_as_cooldown(tanks):
    """The cooldown comes first: while it runs the player can do nothing, so the answer is the
    time left (with the other problems listed), whatever else is wrong with the action."""
    start = timezone.now()
    first = my_move(tanks)
    services.actions_apply(match_id=tanks.pk, seat_number=1, user=tanks.players[1],
                           action=first, source="web", now=start)
    tanks.refresh_from_db()
    me = tanks.state["tanks"]["1"]
    other = tanks.state["tanks"]["2"]["at"]
    with pytest.raises(services.ServiceError) as caught:  # occupied, far away, and no AP left
        services.actions_apply(match_id=tanks.pk, seat_number=1, user=tanks.players[1],
                               action={"type": "move", "to": other}, source="web",
                               now=start + timedelta(minutes=1))
    assert caught.value.code == "cooldown"
    paths = [p.path for p in caught.value.problems]
    assert "cooldown" in paths and len(paths) > 1
    assert me["at"] == first["to"]
    assert Action.objects.filter(match=tanks, kind="action").count() == 1


def played(match, rows: int) -> None:
    """Play ``match`` (three seats, cooldown 5 min) through the services until it has exactly
    ``rows`` logbook rows: moves, an hour's gameday at a time. Each step writes at most one
    row (a gameday's tick, or one move), and the count is read again after every step."""
    latest = Action.objects.filter(match=match).order_by("-seq").first()
    now = max(timezone.now(), latest.at if latest else timezone.now())
    seat = 0
    match.refresh_from_db()
    while match.logbook_seq < rows:
        now += timedelta(minutes=7)
        seat = seat % 3 + 1
        if match.deadline is not None and match.deadline <= now:
            services.gameday_tick(match_id=match.pk, now=now)
        else:
            legal = engine.get("tank-game").legal_actions(match.state, seat)
            move = next((a for a in legal if a["type"] == "move"), None)
            if move is not None:
                services.actions_apply(match_id=match.pk, seat_number=seat,
                                       user=match.players[seat], action=move, source="web",
                                       now=now)
        match.refresh_from_db()
    assert match.logbook_seq == rows


def test_the_match_page_shows_the_latest_entries_and_pages_back_through_older_ones(client,
                                                                                   tanks):
    from games.services.continuous import LOGBOOK_PAGE

    played(tanks, LOGBOOK_PAGE * 2 + 5)
    last = tanks.logbook_seq
    client.force_login(tanks.players[1])
    html = client.get(reverse("games:match", args=[tanks.pk])).content.decode()
    shown = [int(n) for n in re.findall(r'<li value="(\d+)"', html)]
    assert shown == list(range(last, last - LOGBOOK_PAGE, -1))  # the latest page, newest first
    entries = reverse("games:tank_logbook_entries", args=[tanks.pk])
    assert f'{entries}?before={last - LOGBOOK_PAGE + 1}"' in html  # "older entries"
    assert f'{entries}?after={last}"' in html  # the poll for newer ones

    older = client.get(entries, {"before": last - LOGBOOK_PAGE + 1}, HTTP_HX_REQUEST="true")
    page = older.content.decode()
    assert [int(n) for n in re.findall(r'<li value="(\d+)"', page)] == \
        list(range(last - LOGBOOK_PAGE, last - 2 * LOGBOOK_PAGE, -1))
    assert "?after=" not in page and f"?before={last - 2 * LOGBOOK_PAGE + 1}" in page
    oldest = client.get(entries, {"before": 6}).content.decode()
    assert [int(n) for n in re.findall(r'<li value="(\d+)"', oldest)] == [5, 4, 3, 2, 1]
    assert "?before=" not in oldest  # nothing older: no more button

    assert client.get(entries, {"after": last}).content.decode().count("<li value=") == 0
    played(tanks, last + 2)
    newer = client.get(entries, {"after": last}).content.decode()
    assert [int(n) for n in re.findall(r'<li value="(\d+)"', newer)] == [last + 2, last + 1]
    assert f"?after={last + 2}" in newer  # the poll goes on from the newest entry

    for bad in ({"before": "x"}, {"after": "-1"}, {"before": "3", "after": "1"}):
        assert client.get(entries, bad).status_code == 400
    book = client.get(reverse("games:tank_logbook", args=[tanks.pk]), {"before": 4})
    assert [int(n) for n in re.findall(r'<li value="(\d+)"', book.content.decode())] == [3, 2, 1]


def test_pages_and_polls_cost_the_same_queries_however_long_the_logbook(client, tanks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(tanks.players[1])
    match_url = reverse("games:match", args=[tanks.pk])
    entries = reverse("games:tank_logbook_entries", args=[tanks.pk])
    play_url = reverse("games:tank_play", args=[tanks.pk])
    book = reverse("games:tank_logbook", args=[tanks.pk])

    def queries() -> list[int]:
        tanks.refresh_from_db()
        counts = []
        for url, params in ((match_url, {}), (play_url, {}), (entries, {"before": 12}),
                            (entries, {"after": tanks.logbook_seq - 3}), (book, {}),
                            (book, {"upto": tanks.logbook_seq - 2})):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url, params).status_code == 200
            counts.append(len(captured.captured_queries))
        return counts

    played(tanks, 30)
    short = queries()
    played(tanks, 90)
    assert queries() == short


def test_no_page_shows_another_seats_vote_in_the_logbook_rows(client, tanks):
    from games.tank_game.views import logbook_rows

    vote = {"seq": 9, "at": "2026-01-05T10:00:00+00:00", "kind": "vote", "seat": 3, "dice": [],
            "action": {"type": "vote", "ballot": 1, "target": 2}, "text": "Council — voted"}
    row = {"seq": 4, "kind": "action", "seat": 3, "at": timezone.now(), "struck": False,
           "struck_reason": "", "events": [vote]}
    game = engine.get("tank-game")
    assert logbook_rows(game, [row], 3)[0]["texts"] == ["Council — voted"]
    assert game.public_entry(vote, 1)["action"] == {"type": "vote", "ballot": 1}
    assert game.public_entry(vote, 3)["action"]["target"] == 2
