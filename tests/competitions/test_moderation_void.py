"""A moderator voids a rated match (games.services.match_void): the ladder is replayed without
it, once, with an audit row naming the moderator and the reason."""

import pytest
from django.contrib.auth.models import Group

from competitions import services
from competitions.models import MatchVoid, Rating, RatingUpdate
from games import services as games
from tests.competitions.conftest import run_signals
from tests.portal.builders import duel


def test_voiding_a_rated_match_replays_the_ladder(players, finish, make_user,
                                                  django_capture_on_commit_callbacks):
    alice, bob = players(2)
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    first = finish(duel(alice, bob, options={"target": 1}), 1)
    second = finish(duel(bob, alice, options={"target": 1}), 1)
    ladder = services.site_ladder(game="toy-duel")
    assert Rating.objects.get(ladder=ladder, user=alice).games_played == 2

    for _ in range(2):  # a re-delivered signal changes nothing more
        with django_capture_on_commit_callbacks() as callbacks:
            if not RatingUpdate.objects.filter(match=second, voided=True).exists():
                games.match_void(match_id=second.pk, by=moderator, reason="collusion")
        run_signals(callbacks)
    update = RatingUpdate.objects.get(match=second)
    assert update.voided
    assert Rating.objects.get(ladder=ladder, user=alice).games_played == 1
    (void,) = MatchVoid.objects.filter(match=second)
    assert void.by == moderator and void.reason == "collusion"
    assert not RatingUpdate.objects.get(match=first).voided
    with pytest.raises(games.ServiceError):
        games.match_void(match_id=second.pk, by=moderator, reason="again")
