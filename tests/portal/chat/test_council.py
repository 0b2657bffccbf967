"""Tank Game's plug-in declares the Council's channel: the dead and destroyed tanks talk there,
decided from the game's state; the living tanks and spectators never read it."""

from __future__ import annotations

import pytest
from django.test import Client

import engine.tank_game  # noqa: F401  (registers "tank-game")
from games import services
from games.models import Match
from games.services.errors import ServiceError
from tests.portal.builders import PASSWORD, make_user
from tests.portal.chat.builders import post

pytestmark = pytest.mark.django_db
ALWAYS_OPEN = {"kind": "every", "minutes": 60, "open_minutes": 60}


def test_the_council_channel_is_the_dead_tanks():
    users = [make_user(f"tank{n}") for n in (1, 2, 3, 4)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"map": "classic", "schedule": ALWAYS_OPEN},
        seats=[{"kind": "human", "user": u} for u in users])
    services.gameday_tick(match_id=match.pk)
    with pytest.raises(ServiceError) as caught:  # nobody sits on the Council yet
        post(match, users[2], "council", "hello?")
    assert caught.value.code == "not_allowed"
    state = Match.objects.get(pk=match.pk).state
    for seat in ("3", "4"):  # seats 3 and 4 fell (as the engine's own tests set it)
        state["tanks"][seat].update(lives=0, ap=0, gold=0, bounty=0, status="dead",
                                    durability=3)
        state["deaths"].append(int(seat))
    Match.objects.filter(pk=match.pk).update(state=state)
    match.refresh_from_db()
    post(match, users[2], "council", "COUNCIL-WORDS: vote for a stimulus")
    with pytest.raises(ServiceError):
        post(match, users[0], "council", "let the living in")

    def panel(user, language="en") -> str:
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        if user is not None:
            client.login(username=user.username, password=PASSWORD)
        return client.get(f"/matches/{match.pk}/messages/?channel=council",
                          HTTP_HX_REQUEST="true").content.decode()

    body = panel(users[3])
    assert "COUNCIL-WORDS" in body and ">Council<" in body.replace("\n", "")
    assert ">Conseil<" in panel(users[3], "fr").replace("\n", "")
    for outsider in (users[0], users[1], make_user("watcher"), None):
        assert "COUNCIL-WORDS" not in panel(outsider)
