"""A team match's result is pushed to the members of both clubs who take results by push,
end to end (tasks eager, the local push service), once, in each reader's language."""

from __future__ import annotations

import pytest

from competitions import services
from competitions.models import TeamBoard
from games import services as games_services
from portal.accounts.services import profile_update

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_team_match_result_reaches_the_members_devices(eager, push_service, subscribe,
                                                          make_user):
    alice, bob, carol, dave, eve = (make_user(n) for n in ("alice", "bob", "carol", "dave",
                                                           "eve"))
    alpha = services.club_create(by=alice, name="Alpha")
    bravo = services.club_create(by=bob, name="Bravo")
    for user, club in ((carol, alpha), (dave, bravo)):
        services.club_join_by_token(token=club.invite_token, user=user)
    profile_update(user=dave, language="fr")
    subscribe(carol, "carol-phone")
    subscribe(dave, "dave-phone")
    subscribe(bob, "bob-phone", results=False)
    subscribe(eve, "eve-phone")  # in neither club
    team_match = services.team_match_challenge(by=alice, club_id=alpha.pk,
                                               opponent_id=bravo.pk, game="toy-duel",
                                               boards=1, options={"target": 1})
    services.team_match_accept(team_match_id=team_match.pk, by=bob)
    services.team_roster_set(team_match_id=team_match.pk, club_id=alpha.pk, by=alice,
                             players=[alice.pk])
    services.team_roster_set(team_match_id=team_match.pk, club_id=bravo.pk, by=bob,
                             players=[bob.pk])
    services.team_match_start(team_match_id=team_match.pk, by=alice)
    match = TeamBoard.objects.get(team_match=team_match).match
    for user, seat, number in ((alice, 1, 5), (bob, 2, 1)):  # alice (Alpha, seat 1) wins
        games_services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                     phase_number=match.phase_number, source="web",
                                     text=str(number))
    team_match.refresh_from_db()
    assert team_match.status == "finished"
    [english] = push_service.to("carol-phone")
    assert english.payload["title"] == "Team match result: Alpha against Bravo"
    assert english.payload["body"] == "Alpha 1 – 0 Bravo: Alpha wins."
    assert english.payload["url"] == f"https://tanks.example.test/team-matches/{team_match.pk}/"
    [french] = push_service.to("dave-phone")
    assert french.payload["title"] == "Résultat de la rencontre par équipes : Alpha contre Bravo"
    assert french.payload["body"] == "Alpha 1 – 0 Bravo : Alpha l’emporte."
    # Bob turned results off on his phone: his board's "your move", no result of any kind.
    assert [r.payload["kind"] for r in push_service.to("bob-phone")] == ["your_move"]
    assert push_service.to("eve-phone") == []
    # Recorded again (a duplicate signal, the sweeper): nothing more is pushed.
    assert services.team_board_result_record(match_id=match.pk) is False
    assert len(push_service.to("carol-phone")) == 1
