"""Whole tournaments through the real worker on PostgreSQL: eight players whose orders come
from the game's bot, a Celery worker (two processes) resolving the matches, and the
competitions' receiver in the worker recording results and pairing the next rounds."""

from __future__ import annotations

import contextlib
import random
import re
import time

import pytest

import engine
from competitions import services
from competitions.models import Pairing, RatingUpdate, Round, Tournament
from competitions.selectors import tournament_standings
from games import services as games
from games.models import Match, Phase, Seat, Submission
from games.services import ServiceError
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
RESOLVED = re.compile(r"Task games\.tasks\.resolve_phase\[[^\]]+\] succeeded in [\d.]+s: True")


def eight_player_tournament(make_user, fmt: str, **kwargs) -> Tournament:
    owner = make_user(f"{fmt}-owner")
    club = services.club_create(by=owner, name=f"{fmt} club")
    tournament = services.tournament_create(by=owner, club_id=club.pk, name=f"{fmt} cup",
                                            game="toy-duel", format=fmt,
                                            options={"target": 1}, **kwargs)
    for i in range(1, 9):
        user = make_user(f"{fmt}-{i}")
        services.club_join_by_token(token=club.invite_token, user=user)
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    return tournament


def bots_play(tournament: Tournament, rng: random.Random) -> None:
    """Every seat of the tournament's open phases submits the random bot's sheet, through
    the API channel (as a bot client does)."""
    game = engine.get("toy-duel")
    live = Match.objects.filter(tournament_pairing__round__tournament=tournament,
                                status=Match.Status.ACTIVE)
    for match in live:
        phase = Phase.objects.filter(match=match, number=match.phase_number,
                                     status="open").first()
        if phase is None:
            continue
        done = set(Submission.objects.filter(phase=phase).values_list("seat__number", flat=True))
        for seat in Seat.objects.filter(match=match).exclude(number__in=done):
            sheet = game.bot_submission(match.state, seat.number, "random", rng)
            # the phase may have moved on meanwhile: the next pass catches up
            with contextlib.suppress(ServiceError):
                games.orders_submit(match_id=match.pk, seat_number=seat.number, user=seat.user,
                                    phase_number=phase.number, data=sheet, source="api")


def play_out(tournament: Tournament, timeout: float) -> Tournament:
    rng = random.Random(tournament.pk)
    end = time.monotonic() + timeout
    while True:
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return tournament
        if time.monotonic() > end:
            raise AssertionError(f"{tournament} still in round {tournament.current_round}")
        bots_play(tournament, rng)
        time.sleep(0.3)


def assert_each_round_once(tournament: Tournament, rounds: int) -> list[Pairing]:
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)
                .order_by("number")) == list(range(1, rounds + 1))
    assert not Round.objects.filter(tournament=tournament, status="running").exists()
    pairings = list(Pairing.objects.filter(round__tournament=tournament))
    assert all(p.finished_at is not None for p in pairings)
    for p in pairings:
        if p.match_id:
            match = Match.objects.get(pk=p.match_id)
            assert match.status == "finished"
            winner_seat = match.result["ranking"][0][0]
            assert (p.score, p.second_score) == ((1, 0) if winner_seat == 1 else (0, 1))
    return pairings


def test_an_eight_player_swiss_is_played_through_by_bots_on_the_real_worker(stack, make_user):
    stack.worker(concurrency=2)
    tournament = eight_player_tournament(make_user, "swiss")
    play_out(tournament, timeout=240)
    pairings = assert_each_round_once(tournament, 3)
    assert len(pairings) == 12
    met = [frozenset((p.first_id, p.second_id)) for p in pairings]
    assert len(set(met)) == 12  # no rematch
    rows = tournament_standings(tournament=tournament)
    assert sum(r["points"] for r in rows) == 12
    assert rows[0]["points"] == 3  # a Swiss of 8 in 3 rounds has one 3/3
    match_ids = [p.match_id for p in pairings]
    site = services.site_ladder(game="toy-duel")
    for match_id in match_ids:  # the worker's receiver rated each match exactly once
        assert RatingUpdate.objects.filter(ladder=site, match_id=match_id).count() == 1


def test_an_eight_player_double_elimination_is_played_through_by_bots(stack, make_user):
    stack.worker(concurrency=2)
    tournament = eight_player_tournament(make_user, "double_elim")
    play_out(tournament, timeout=300)
    pairings = assert_each_round_once(tournament, 6)
    assert len(pairings) == 14
    assert sorted(p.bracket_match for p in pairings)[-1] == "W3-1"
    rows = tournament_standings(tournament=tournament)
    champion = rows[0]
    assert champion["rank"] == 1
    final = next(p for p in pairings if p.bracket_match == "F")
    winner = final.first if final.score == 1 else final.second
    assert winner.start_number == champion["start_number"]
    losses: dict[int, int] = {}
    for p in pairings:
        loser = p.second_id if p.score == 1 else p.first_id
        losses[loser] = losses.get(loser, 0) + 1
    assert losses.get(winner.pk, 0) <= 1
    assert sum(1 for count in losses.values() if count == 2) >= 6  # out after two losses


def test_two_boards_finishing_at_once_on_two_workers_pair_the_next_round_once(stack,
                                                                              make_user):
    """Both boards of round 1 resolve at the same moment in two worker processes (each
    resolution holds its match for a second, so they overlap); both receivers then race for
    the tournament: round 2 is paired exactly once, and re-delivering the signals changes
    nothing."""
    workers = [stack.worker(concurrency=1, TOY_DUEL_RESOLVE_SLEEP="1") for _ in range(2)]
    owner = make_user("race-owner")
    club = services.club_create(by=owner, name="Race club")
    tournament = services.tournament_create(by=owner, club_id=club.pk, name="Race",
                                            game="toy-duel", format="swiss",
                                            options={"target": 1}, rounds_planned=2)
    for i in range(4):
        user = make_user(f"race-{i}")
        services.club_join_by_token(token=club.invite_token, user=user)
        services.tournament_register(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    boards = list(Pairing.objects.filter(round__tournament=tournament))
    for board in boards:  # seat 1 wins every board at once: one resolution each
        for seat, number in ((1, 5), (2, 1)):
            user = Seat.objects.get(match_id=board.match_id, number=seat).user
            games.orders_submit(match_id=board.match_id, seat_number=seat, user=user,
                                phase_number=1, data={"number": number}, source="web")
    wait_until(lambda: Round.objects.filter(tournament=tournament, number=2).exists(), 60,
               "round 2 to be paired")
    for worker in workers:  # each worker resolved one of the two boards
        wait_until(lambda w=worker: RESOLVED.search(w.log()), 30, "both workers to resolve")
    time.sleep(1)
    for board in boards:
        services.match_ended_record(match_id=board.match_id)  # a re-delivered signal
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Pairing.objects.filter(round__tournament=tournament, round__number=2).count() == 2
    assert Round.objects.get(tournament=tournament, number=1).status == "finished"
    site = services.site_ladder(game="toy-duel")
    assert RatingUpdate.objects.filter(ladder=site,
                                       match_id__in=[b.match_id for b in boards]).count() == 2


def test_a_swiss_of_bots_entered_by_the_organiser_plays_itself_on_the_real_worker(stack,
                                                                                   make_user):
    """Nobody submits anything: the bot seats' tasks, the resolutions and the pairing of the
    next rounds all run on the worker; no mail, no rating."""
    from portal.mail.models import OutgoingEmail

    stack.worker(concurrency=2)
    owner = make_user("bot-owner")
    club = services.club_create(by=owner, name="Bot club")
    tournament = services.tournament_create(by=owner, club_id=club.pk, name="Bot cup",
                                            game="toy-duel", format="swiss",
                                            options={"target": 1}, rounds_planned=2)
    for _ in range(4):
        services.tournament_bot_enter(tournament_id=tournament.pk, by=owner, bot="random")
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    wait_until(lambda: Tournament.objects.get(pk=tournament.pk).status == "finished",
               timeout=180, what="the bots' tournament to finish")
    pairings = assert_each_round_once(tournament, 2)
    assert len(pairings) == 4
    assert Submission.objects.filter(seat__match_id__in=[p.match_id for p in pairings]) \
        .exclude(source="bot").count() == 0
    assert not RatingUpdate.objects.filter(match_id__in=[p.match_id for p in pairings]).exists()
    assert not OutgoingEmail.objects.filter(
        dedupe_key__startswith=f"tournament:{tournament.pk}:").exists()
    assert sorted(r["name"] for r in tournament_standings(tournament=tournament)) == [
        f"random bot {n}" for n in range(1, 5)]
