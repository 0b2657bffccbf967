"""Ladders: one rating update per match and ladder, history, voids replayed, challenges."""

from datetime import timedelta

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from competitions import services
from competitions.models import (
    Challenge,
    LadderMatch,
    MatchVoid,
    Rating,
    RatingChange,
    RatingUpdate,
)
from competitions.selectors import ladder_leaderboard
from games import services as games
from games.services import ServiceError

pytestmark = pytest.mark.django_db


def duel(a, b):
    return games.match_create(creator=a, game="toy-duel", options={"target": 1},
                              seats=[{"kind": "human", "user": a}, {"kind": "human", "user": b}],
                              hours_per_phase=24)


def test_a_finished_match_is_rated_once_even_when_the_signal_comes_three_times(players, finish):
    alice, bob = players(2)
    match = finish(duel(alice, bob), winner_seat=1, times=3)
    ladder = services.site_ladder(game="toy-duel")
    assert RatingUpdate.objects.filter(ladder=ladder, match=match).count() == 1
    assert services.ladder_match_record(ladder_id=ladder.pk, match_id=match.pk) is None
    assert services.match_rate(match_id=match.pk) == 0
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    winner = Rating.objects.get(ladder=ladder, user=alice)
    loser = Rating.objects.get(ladder=ladder, user=bob)
    assert winner.mu == pytest.approx(expected[0][0].mu)
    assert loser.mu == pytest.approx(expected[1][0].mu)
    assert winner.games_played == loser.games_played == 1
    assert RatingChange.objects.filter(update__match=match).count() == 2


def test_bot_matches_are_not_rated(make_user, finish):
    alice = make_user("alice")
    match = games.match_create(creator=alice, game="toy-duel", options={"target": 1},
                               seats=[{"kind": "human", "user": alice},
                                      {"kind": "bot", "bot": "random"}], hours_per_phase=24)
    assert services.match_rate(match_id=match.pk) == 0  # not finished either
    assert not RatingUpdate.objects.exists()


def test_ties_and_many_seats_follow_the_engine_ranking(players):
    """A ranking with a tie among four players (as Final Strategy's could be) rates once."""
    from competitions.services.ladders import _apply

    users = players(4)
    ladder = services.site_ladder(game="toy-duel")
    match = duel(users[0], users[1])
    update = RatingUpdate.objects.create(
        ladder=ladder, match=match, ranking=[[users[0].pk], [users[1].pk, users[2].pk],
                                             [users[3].pk]], played_at=timezone.now())
    table: dict = {}
    _apply(ladder, update, table)
    mus = [table[u.pk]["mu"] for u in users]
    assert mus[0] > mus[1] > mus[3] and mus[1] == pytest.approx(mus[2])


def test_voiding_replays_the_ladder_from_the_remaining_results(players, finish, make_user):
    alice, bob, carol = players(3)
    admin = make_user("admin", is_staff=True)
    m1 = finish(duel(alice, bob), 1)
    m2 = finish(duel(bob, carol), 1)
    m3 = finish(duel(carol, alice), 1)
    ladder = services.site_ladder(game="toy-duel")
    with pytest.raises(ServiceError):
        services.ladder_match_void(ladder_id=ladder.pk, match_id=m2.pk, by=alice, reason="x")
    void = services.ladder_match_void(ladder_id=ladder.pk, match_id=m2.pk, by=admin,
                                      reason="cheating")
    assert void.updates_replayed == 2 and void.by == admin
    again = services.ladder_match_void(ladder_id=ladder.pk, match_id=m2.pk, by=admin,
                                       reason="twice")
    assert again.pk == void.pk and MatchVoid.objects.count() == 1
    # the same two results rated from scratch give the same ladder
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [a], [b] = model.rate([[a], [b]], ranks=[1, 2])
    [c], [a] = model.rate([[c], [a]], ranks=[1, 2])
    got = {r.user_id: r for r in Rating.objects.filter(ladder=ladder)}
    assert got[alice.pk].mu == pytest.approx(a.mu) and got[carol.pk].mu == pytest.approx(c.mu)
    assert got[bob.pk].mu == pytest.approx(b.mu) and got[bob.pk].games_played == 1
    assert not RatingChange.objects.filter(update__match=m2).exists()
    assert {m1.pk, m3.pk} == set(RatingChange.objects.values_list("update__match", flat=True))
    rows = ladder_leaderboard(ladder)
    assert [r["conservative"] for r in rows] == sorted((r["conservative"] for r in rows),
                                                       reverse=True)


def test_inactivity_decay_widens_sigma_on_the_leaderboard(players, finish):
    alice, bob = players(2)
    finish(duel(alice, bob), 1)
    ladder = services.site_ladder(game="toy-duel")
    fresh = {r["user"].pk: r["sigma"] for r in ladder_leaderboard(ladder)}
    ladder.decay_sigma_per_week = 1.0
    ladder.save()
    later = timezone.now() + timedelta(weeks=4)
    decayed = {r["user"].pk: r["sigma"] for r in ladder_leaderboard(ladder, now=later)}
    assert decayed[alice.pk] > fresh[alice.pk]


@pytest.fixture
def club_ladder(players):
    owner, bob, carol, dave = players(4, "m")
    club = services.club_create(by=owner, name="Ladder club")
    for user in (bob, carol, dave):
        services.club_join_by_token(token=club.invite_token, user=user)
    ladder = services.ladder_create(by=owner, club_id=club.pk, game="toy-duel",
                                    options={"target": 1}, hours_per_phase=24)
    return ladder, owner, bob, carol, dave


def test_an_accepted_challenge_starts_a_match_rated_on_the_club_ladder(club_ladder, finish,
                                                                       make_user):
    ladder, owner, bob, carol, dave = club_ladder
    challenge = services.challenge_create(ladder_id=ladder.pk, by=bob, opponent=carol)
    with pytest.raises(ServiceError):
        services.challenge_accept(challenge_id=challenge.pk, by=bob)
    with pytest.raises(ServiceError):
        services.challenge_create(ladder_id=ladder.pk, by=carol, opponent=bob)  # one open
    challenge = services.challenge_accept(challenge_id=challenge.pk, by=carol)
    assert challenge.status == "accepted" and challenge.match.status == "active"
    assert LadderMatch.objects.filter(ladder=ladder, match=challenge.match).exists()
    finish(challenge.match, 2)
    assert RatingUpdate.objects.filter(ladder=ladder).count() == 1
    assert RatingUpdate.objects.filter(ladder__club__isnull=True).count() == 1
    top = ladder_leaderboard(ladder)[0]
    assert top["user"] == carol and top["games"] == 1
    outsider = make_user("outsider")
    with pytest.raises(ServiceError) as error:
        services.challenge_create(ladder_id=ladder.pk, by=outsider, opponent=bob)
    assert error.value.code == "not_allowed"


def test_declined_withdrawn_and_expired_challenges_are_recorded(club_ladder):
    ladder, owner, bob, carol, dave = club_ladder
    declined = services.challenge_create(ladder_id=ladder.pk, by=bob, opponent=carol)
    services.challenge_decline(challenge_id=declined.pk, by=carol)
    withdrawn = services.challenge_create(ladder_id=ladder.pk, by=bob, opponent=carol)
    services.challenge_decline(challenge_id=withdrawn.pk, by=bob)
    expiring = services.challenge_create(ladder_id=ladder.pk, by=bob, opponent=dave)
    Challenge.objects.filter(pk=expiring.pk).update(expires_at=timezone.now())
    services.competitions_sweep()
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {declined.pk: "declined", withdrawn.pk: "withdrawn",
                        expiring.pk: "expired"}
    with pytest.raises(ServiceError):
        services.challenge_accept(challenge_id=expiring.pk, by=dave)
    with pytest.raises(ServiceError):
        services.challenge_create(ladder_id=ladder.pk, by=bob, opponent=bob)


def test_find_me_an_opponent_picks_the_nearest_rating(club_ladder, finish):
    ladder, owner, bob, carol, dave = club_ladder
    # carol beats dave twice: carol rises, dave falls; bob (unrated) is nearest the owner
    for _ in range(2):
        finish(services.challenge_accept(
            challenge_id=services.challenge_create(ladder_id=ladder.pk, by=carol,
                                                   opponent=dave).pk, by=dave).match, 1)
    challenge = services.challenge_create(ladder_id=ladder.pk, by=owner, nearest=True)
    assert challenge.challenged == bob
    second = services.challenge_create(ladder_id=ladder.pk, by=owner, nearest=True)
    assert second.challenged in (carol, dave)


def test_a_three_seat_match_is_rated_with_the_engine_s_tie_for_second(
        players, django_capture_on_commit_callbacks):
    from tests.competitions.conftest import run_signals

    ann, ben, cat = players(3, "seat")
    match = games.match_create(creator=ann, game="toy-count", options={"target": 3},
                               hours_per_phase=12,
                               seats=[{"kind": "human", "user": u} for u in (ann, ben, cat)])
    with django_capture_on_commit_callbacks() as callbacks:
        games.orders_submit(match_id=match.pk, seat_number=1, user=ann, phase_number=1,
                            data={"add": 3}, source="web")
    run_signals(callbacks)
    run_signals(callbacks)  # delivered twice
    ladder = services.site_ladder(game="toy-count")
    (update,) = RatingUpdate.objects.filter(ladder=ladder, match=match)
    assert update.ranking == [[ann.pk], sorted([ben.pk, cat.pk])]
    mu = {r.user_id: r.mu for r in Rating.objects.filter(ladder=ladder)}
    assert mu[ann.pk] > mu[ben.pk] and mu[ben.pk] == pytest.approx(mu[cat.pk])
