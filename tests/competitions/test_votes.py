"""A draw the players agreed to is a shared result that ladders rate and tournaments score as a
draw, through the competitions' own code (the ``match_ended`` receiver, the ladder's rating,
the tournament's scoring and standings); a cancel is unrated; a tournament board cannot be
cancelled."""

import pytest
from openskill.models import PlackettLuce

from competitions import services
from competitions.models import Pairing, Rating, RatingUpdate
from competitions.selectors import tournament_standings
from games import services as games
from games.models import Match
from games.services import ServiceError
from tests.competitions.conftest import run_signals
from tests.competitions.test_tournaments import club, create, current_pairings, register_all  # noqa: F401

pytestmark = pytest.mark.django_db


def duel(a, b):
    return games.match_create(creator=a, game="toy-duel", options={"target": 1},
                              seats=[{"kind": "human", "user": a}, {"kind": "human", "user": b}],
                              hours_per_phase=24)


@pytest.fixture
def agree(django_capture_on_commit_callbacks):
    """agree(match, kind): every seat still in votes for ``kind``; the promised signals are
    delivered as the worker would."""

    def vote(match, kind="draw"):
        users = [seat.user for seat in match.seats.filter(status="taken").order_by("number")]
        with django_capture_on_commit_callbacks() as callbacks:
            proposal = games.vote_propose(match_id=match.pk, user=users[0], kind=kind)
            for user in users[1:]:
                games.vote_cast(match_id=match.pk, vote_id=proposal.pk, user=user, yes=True)
        run_signals(callbacks)
        match.refresh_from_db()
        return match

    return vote


def test_a_ladder_rates_an_agreed_draw_as_a_tie(players, agree):
    alice, bob = players(2)
    match = agree(duel(alice, bob))
    assert match.status == Match.Status.FINISHED
    ladder = services.site_ladder(game="toy-duel")
    update = RatingUpdate.objects.get(ladder=ladder, match=match)
    assert update.ranking == [sorted([alice.pk, bob.pk])]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    for user in (alice, bob):
        rating = Rating.objects.get(ladder=ladder, user=user)
        assert rating.mu == pytest.approx(expected[0][0].mu)
        assert rating.games_played == 1


def test_a_cancelled_match_is_not_rated(players, agree):
    alice, bob = players(2)
    match = agree(duel(alice, bob), "cancel")
    assert match.status == Match.Status.ABORTED
    assert services.match_rate(match_id=match.pk) == 0
    assert not RatingUpdate.objects.filter(match=match).exists()


def test_a_tournament_board_scores_an_agreed_draw_half_a_point_each(club, agree):  # noqa: F811
    club_, owner, members = club(2)
    tournament = create(club_, owner, rounds_planned=1)
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    (pairing,) = current_pairings(tournament)
    match = Match.objects.get(pk=pairing.match_id)
    with pytest.raises(ServiceError) as caught:
        games.vote_propose(match_id=match.pk, user=pairing.first.user, kind="cancel")
    assert caught.value.code == "not_allowed" and "tournament" in caught.value.message
    agree(match)
    pairing = Pairing.objects.get(pk=pairing.pk)
    assert (pairing.score, pairing.second_score) == (0.5, 0.5)
    assert pairing.adjudicated == "" and not pairing.forfeit
    rows = tournament_standings(tournament=tournament)
    assert [float(row["points"]) for row in rows] == [0.5, 0.5]
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_a_pod_shares_the_points_of_an_agreed_draw_and_ranks_the_seat_that_conceded_last(
        club, agree, django_capture_on_commit_callbacks):  # noqa: F811
    club_, owner, members = club(3)
    tournament = create(club_, owner, game="final-strategy", format="pods", seats_per_match=3,
                        options={}, rounds_planned=1)
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    (pairing,) = current_pairings(tournament)
    match = Match.objects.get(pk=pairing.match_id)
    third = match.seats.get(number=3).user
    with django_capture_on_commit_callbacks() as callbacks:
        games.seat_concede(match_id=match.pk, user=third)
    run_signals(callbacks)
    agree(match)
    assert match.result["ranking"] == [[1, 2], [3]]
    pairing = Pairing.objects.get(pk=pairing.pk)
    entry = {seat.number: seat.user_id for seat in match.seats.all()}
    by_entry = {row["entry_id"]: row for row in tournament_standings(tournament=tournament)}
    points = {number: float(by_entry[_entry_of(pairing, user)]["points"])
              for number, user in entry.items()}
    # A pod of three gives 2, 1, 0 points by place; the two who drew share 2 and 1.
    assert points == {1: 1.5, 2: 1.5, 3: 0.0}


def _entry_of(pairing, user_id):
    from competitions.models import Entry

    return Entry.objects.get(pk__in=pairing.pod, user_id=user_id).pk
