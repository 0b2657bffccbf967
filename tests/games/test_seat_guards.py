"""Who may hand on and take a seat of a match in play (issue 49, findings 5 and 6):

- a seat out of the match (conceded, forfeited, out by the rules) is nobody's to leave, hand
  on, offer or take;
- a player who held a seat of the match knows its secrets (Final Strategy's hidden bunker), so
  never takes another seat of it: not by its link page, the API, an invitation to a seat a
  moderator opened, nor a moderator's hand-over, and the lobby does not offer it to them
  (their own seat they may take back)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Match, Seat
from games.services import ServiceError
from portal.api.services import api_token_create
from tests.helpers import client_for

pytestmark = pytest.mark.django_db

HELD = "You held a seat of this match before: you cannot take another seat in it."
HELD_FR = ("Vous avez déjà tenu une place dans cette partie : vous ne pouvez pas en prendre "
           "une autre.")


def strategy(make_user, names=("ann", "ben", "cat"), **kwargs) -> Match:
    """A Final Strategy match in play between new players ``names`` (seats 1, 2, 3...)."""
    users = [make_user(name) for name in names]
    match = services.match_create(creator=users[0], game="final-strategy", options={},
                                  hours_per_phase=24, title="Bunkers",
                                  seats=[{"kind": "human", "user": u} for u in users], **kwargs)
    match.users = users
    return match


def seat(match, number) -> Seat:
    return Seat.objects.get(match=match, number=number)


# -- finding 5: a conceded seat stays out ------------------------------------------------------

def test_a_conceded_seat_is_not_left_offered_handed_on_or_taken(make_user, moderator):
    match = strategy(make_user)
    _ann, _ben, cat = match.users
    services.seat_concede(match_id=match.pk, user=cat)
    assert seat(match, 3).status == Seat.Status.CONCEDED
    page = client_for(cat).get(reverse("games:match", args=[match.pk])).content.decode()
    assert reverse("games:leave", args=[match.pk]) not in page

    with pytest.raises(ServiceError) as refused:
        services.seat_leave(match_id=match.pk, user=cat)
    assert refused.value.code == "seat_out"
    assert refused.value.message == ("This seat conceded the match: it is out of the game and "
                                     "cannot be handed on.")
    answer = client_for(cat).post(reverse("games:leave", args=[match.pk]), {"confirm": "on"})
    assert answer.status_code == 409
    api = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=cat, name='t').token}")
    answer = api.post(f"/api/v1/matches/{match.pk}/leave", {"confirm": True},
                      content_type="application/json")
    assert answer.status_code == 409 and "conceded the match" in answer.json()["message"]
    assert seat(match, 3).offer_token is None and seat(match, 3).user_id == cat.pk
    assert seat(match, 3).status == Seat.Status.CONCEDED

    mod, dan = moderator, make_user("dan")
    with pytest.raises(ServiceError) as refused:
        services.seat_kick(match_id=match.pk, seat_number=3, by=mod, reason="abuse")
    assert refused.value.code == "seat_out"
    with pytest.raises(ServiceError) as refused:
        services.seat_moderate_replace(match_id=match.pk, seat_number=3, by=mod,
                                       reason="a new player", user=dan)
    assert refused.value.code == "seat_out"
    assert seat(match, 3).offer_token is None and seat(match, 3).user_id == cat.pk
    lobby = client_for(dan).get(reverse("games:lobby")).content.decode()
    assert "Seeking a commander" not in lobby

    # A conceded seat that was offered all the same (before this rule) is not taken.
    Seat.objects.filter(match=match, number=3).update(offer_token="x" * 32, user=None)
    with pytest.raises(ServiceError) as refused:
        services.seat_take(token="x" * 32, user=dan)
    assert refused.value.code == "seat_out"
    assert seat(match, 3).user_id is None and seat(match, 3).status == Seat.Status.CONCEDED


# -- finding 6: one seat per player per match, ever ---------------------------------------------

def test_a_player_who_left_a_seat_takes_no_other_seat_of_the_match(make_user):
    match = strategy(make_user, names=("ann", "ben", "cat", "eve"))
    _ann, ben, cat, _eve = match.users
    services.seat_leave(match_id=match.pk, user=ben)
    services.seat_leave(match_id=match.pk, user=cat)
    token2, token3 = seat(match, 2).offer_token, seat(match, 3).offer_token

    # The service, for the other seat (his own he may take back: see the end).
    with pytest.raises(ServiceError) as refused:
        services.seat_take(token=token3, user=ben)
    assert refused.value.code == "held_before" and refused.value.message == HELD
    # The link page says so instead of offering the form; a post is refused with the sentence.
    offer = client_for(ben).get(reverse("games:seat_offer", args=[token3])).content.decode()
    assert HELD in offer and reverse("games:seat_take", args=[token3]) not in offer
    answer = client_for(ben).post(reverse("games:seat_take", args=[token3]), {"confirm": "on"})
    assert answer.status_code == 403 and HELD in answer.content.decode()
    french = client_for(ben, HTTP_ACCEPT_LANGUAGE="fr")
    answer = french.post(reverse("games:seat_take", args=[token3]), {"confirm": "on"})
    assert answer.status_code == 403 and HELD_FR in answer.content.decode()
    assert HELD_FR in french.get(reverse("games:seat_offer", args=[token3])).content.decode()
    # The API.
    api = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=ben, name='t').token}")
    answer = api.post("/api/v1/seeking/take", {"token": token3, "confirm": True},
                      content_type="application/json")
    assert answer.status_code == 403 and answer.json()["code"] == "held_before"
    assert {row["token"] for row in api.get("/api/v1/lobby/seeking").json()} == {token2}
    # The lobby offers the other seat to others, not to him.
    lobby = client_for(ben).get(reverse("games:lobby")).content.decode()
    assert token3 not in lobby and token2 in lobby
    dan = make_user("dan")
    lobby = client_for(dan).get(reverse("games:lobby")).content.decode()
    assert token2 in lobby and token3 in lobby
    api = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user=dan, name='t').token}")
    assert {row["token"] for row in api.get("/api/v1/lobby/seeking").json()} == {token2, token3}
    assert seat(match, 3).user_id is None

    # Someone new takes it; ben takes his own seat back.
    services.seat_take(token=token3, user=dan)
    assert seat(match, 3).user_id == dan.pk
    services.seat_take(token=token2, user=ben)
    assert seat(match, 2).user_id == ben.pk


def test_a_former_player_is_not_handed_nor_invited_to_another_seat(make_user, moderator):
    match = strategy(make_user, names=("ann", "ben", "cat", "eve"))
    _ann, ben, cat, _eve = match.users
    mod = moderator
    services.seat_leave(match_id=match.pk, user=ben)
    # A moderator's hand-over of another seat to him is refused...
    with pytest.raises(ServiceError) as refused:
        services.seat_moderate_replace(match_id=match.pk, seat_number=3, by=mod,
                                       reason="swap", user=ben)
    assert refused.value.code == "held_before"
    with translation.override("fr"):
        with pytest.raises(ServiceError) as refused:
            services.seat_moderate_replace(match_id=match.pk, seat_number=3, by=mod,
                                           reason="swap", user=ben)
        assert "a déjà tenu une autre place" in refused.value.message
    assert seat(match, 3).user_id == cat.pk
    # ...his own seat back is not.
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=mod, reason="back",
                                   user=ben)
    assert seat(match, 2).user_id == ben.pk

    # A seat a moderator opened for whoever has the invitation: not for a former player.
    services.seat_leave(match_id=match.pk, user=ben)
    services.seat_moderate_replace(match_id=match.pk, seat_number=3, by=mod, reason="open",
                                   open_seat=True)
    match.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        services.seat_join(match_id=match.pk, user=ben, seat_number=3,
                           invite_token=match.invite_token)
    assert refused.value.code == "held_before"
    with pytest.raises(ServiceError) as refused:  # nor for cat, whose seat it was
        services.seat_join(match_id=match.pk, user=cat, seat_number=2,
                           invite_token=match.invite_token)
    assert refused.value.code in ("held_before", "seat_taken")
    dan = make_user("dan")
    services.seat_join(match_id=match.pk, user=dan, seat_number=3,
                       invite_token=match.invite_token)
    assert seat(match, 3).user_id == dan.pk
