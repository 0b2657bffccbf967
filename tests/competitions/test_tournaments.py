"""Tournaments through the services: registration, rounds at correspondence pace, results
recorded once, adjudication at a round's end, withdrawal, late entry, every format."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competitions import services
from competitions.models import Entry, Pairing, Round, Tournament
from competitions.selectors import tournament_bracket, tournament_crosstable, tournament_standings
from games.models import Match, Seat
from games.services import ServiceError
from portal.mail.models import OutgoingEmail

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(players):
    """A club with an owner and eight members (m1..m8)."""

    def make(n=8):
        owner = players(1, "owner")[0]
        club = services.club_create(by=owner, name="Tourney club")
        members = players(n, "m")
        for user in members:
            services.club_join_by_token(token=club.invite_token, user=user)
        return club, owner, members

    return make


def create(club, owner, **kwargs):
    args = {"name": "Cup", "game": "toy-duel", "format": "swiss", "options": {"target": 1},
            "round_hours": 48, "hours_per_phase": 24}
    args.update(kwargs)
    return services.tournament_create(by=owner, club_id=club.pk, **args)


def register_all(tournament, users):
    for user in users:
        services.tournament_register(tournament_id=tournament.pk, user=user)


def current_pairings(tournament):
    tournament.refresh_from_db()
    return list(Pairing.objects.filter(round__tournament=tournament,
                                       round__number=tournament.current_round)
                .select_related("first", "second"))


def finish_tournament_round(tournament, finish, better_seed_wins=True):
    """Finish every open board of the current round: the better start number wins."""
    for pairing in current_pairings(tournament):
        if pairing.match_id is None or pairing.finished_at is not None:
            continue
        first_better = pairing.first.start_number < pairing.second.start_number
        winner_seat = 1 if first_better == better_seed_wins else 2
        finish(Match.objects.get(pk=pairing.match_id), winner_seat)


def test_a_swiss_runs_round_after_round_and_finishes(club, finish):
    club_, owner, members = club(6)
    tournament = create(club_, owner, rounds_planned=3)
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.current_round == 1
    assert len(current_pairings(tournament)) == 3
    assert OutgoingEmail.objects.filter(dedupe_key__startswith=f"tournament:{tournament.pk}:"
                                        "round:1:").count() == 6
    first, *rest = current_pairings(tournament)
    finish(Match.objects.get(pk=first.match_id), 1, times=2)
    assert services.pairing_result_record(match_id=first.match_id) is False  # once
    tournament.refresh_from_db()
    assert tournament.current_round == 1  # the round waits for its other boards
    for _ in range(3):
        finish_tournament_round(tournament, finish)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert Round.objects.filter(tournament=tournament).count() == 3
    assert not Round.objects.filter(tournament=tournament, status="running").exists()
    rows = tournament_standings(tournament=tournament)
    assert rows[0]["points"] == 3 and rows[0]["start_number"] == 1
    met = [frozenset((p.first_id, p.second_id)) for p in
           Pairing.objects.filter(round__tournament=tournament)]
    assert len(met) == len(set(met)) == 9  # no rematch
    assert OutgoingEmail.objects.filter(dedupe_key__contains=":finished:").count() == 6
    cross = tournament_crosstable(tournament=tournament)
    assert len(cross["rows"]) == 6 and all(all(cell for cell in row["cells"])
                                           for row in cross["rows"])


def test_registration_rules(club, make_user):
    club_, owner, members = club(3)
    tournament = create(club_, owner, max_players=2, rating_floor=-5)
    register_all(tournament, members[:2])
    with pytest.raises(ServiceError) as error:
        services.tournament_register(tournament_id=tournament.pk, user=members[2])
    assert "full" in error.value.message
    with pytest.raises(ServiceError):
        services.tournament_register(tournament_id=tournament.pk, user=members[0])
    with pytest.raises(ServiceError) as error:
        services.tournament_register(tournament_id=tournament.pk, user=make_user("outsider"))
    assert error.value.code == "not_allowed"
    high_floor = create(club_, owner, name="Masters", rating_floor=10)
    with pytest.raises(ServiceError) as error:
        services.tournament_register(tournament_id=high_floor.pk, user=members[0])
    assert "floor" in error.value.message
    services.tournament_registration_set(tournament_id=high_floor.pk, by=owner, is_open=False)
    with pytest.raises(ServiceError) as error:
        services.tournament_register(tournament_id=high_floor.pk, user=members[1])
    assert error.value.code == "not_open"
    services.tournament_withdraw(tournament_id=tournament.pk, user=members[0])
    assert not Entry.objects.filter(tournament=tournament, user=members[0]).exists()
    with pytest.raises(ServiceError):
        services.tournament_start(tournament_id=tournament.pk, by=members[1])
    with pytest.raises(ServiceError):  # one player left
        services.tournament_start(tournament_id=tournament.pk, by=owner)


@pytest.mark.parametrize("bad", [
    {"format": "knockout"}, {"game": "chess"}, {"options": {"target": 99}},
    {"round_hours": "soon"}, {"format": "pods", "seats_per_match": 3},
    {"adjudication": "coin"}, {"name": ""},
])
def test_bad_tournament_settings_are_refused_and_nothing_is_written(club, bad):
    club_, owner, _ = club(1)
    with pytest.raises(ServiceError):
        create(club_, owner, **bad)
    assert not Tournament.objects.exists()


def test_withdrawal_drops_future_pairings_and_keeps_results(club, finish):
    club_, owner, members = club(4)
    tournament = create(club_, owner, rounds_planned=3)
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    leaver = members[3]
    finish_tournament_round(tournament, finish)  # round 1 over: round 2 is paired, the leaver in it
    services.tournament_withdraw(tournament_id=tournament.pk, user=leaver)
    entry = Entry.objects.get(tournament=tournament, user=leaver)
    assert entry.status == "withdrawn"
    finish_tournament_round(tournament, finish)  # the leaver's round-2 match is played out
    later = Pairing.objects.filter(round__tournament=tournament, round__number=3)
    assert later.exists()
    assert not later.filter(first=entry).exists() and not later.filter(second=entry).exists()
    assert later.filter(second=None).exists()  # three players left: a bye
    earlier = Pairing.objects.filter(round__tournament=tournament, round__number__lte=2)
    assert earlier.filter(first=entry).count() + earlier.filter(second=entry).count() == 2
    assert all(p.finished_at for p in earlier)
    rows = {r["entry_id"]: r for r in tournament_standings(tournament=tournament)}
    assert rows[entry.pk]["withdrawn"]


def test_late_entry_in_a_swiss_joins_the_next_round(club, finish):
    club_, owner, members = club(5)
    tournament = create(club_, owner, rounds_planned=2, late_entry=True)
    register_all(tournament, members[:4])
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    late = services.tournament_register(tournament_id=tournament.pk, user=members[4])
    assert late.late and late.start_number == 5
    finish_tournament_round(tournament, finish)
    seated = {p.first_id for p in current_pairings(tournament)} | {
        p.second_id for p in current_pairings(tournament)}
    assert late.pk in seated


def _end_round(tournament):
    Round.objects.filter(tournament=tournament, status="running").update(
        ends_at=timezone.now() - timedelta(seconds=1))
    return services.competitions_sweep()


def test_at_the_round_end_the_seat_with_most_missed_deadlines_forfeits(club, finish):
    club_, owner, members = club(4)
    tournament = create(club_, owner, rounds_planned=2, adjudication="forfeit")
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    board1, board2 = current_pairings(tournament)
    Seat.objects.filter(match_id=board1.match_id, number=1).update(missed_total=2)
    counts = _end_round(tournament)
    assert counts["adjudicated"] == 2
    board1.refresh_from_db()
    board2.refresh_from_db()
    assert (board1.score, board1.second_score, board1.forfeit) == (0, 1, True)
    assert (board2.score, board2.second_score, board2.adjudicated) == (0.5, 0.5, "draw")
    assert Match.objects.get(pk=board1.match_id).status == "aborted"
    tournament.refresh_from_db()
    assert tournament.current_round == 2  # the next round was paired once
    assert services.competitions_sweep()["adjudicated"] == 0
    rows = {r["entry_id"]: r for r in tournament_standings(tournament=tournament)}
    assert rows[board1.second_id]["points"] == 1 and rows[board1.second_id]["buchholz"] == 0


def test_the_engine_rule_takes_the_current_result_or_a_draw(club):
    club_, owner, members = club(2)
    tournament = create(club_, owner, rounds_planned=1, adjudication="engine")
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    _end_round(tournament)
    (board,) = current_pairings(tournament)
    assert (board.score, board.second_score, board.adjudicated) == (0.5, 0.5, "engine")
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_round_robin_with_an_odd_field_gives_everyone_one_bye(club, finish):
    club_, owner, members = club(5)
    tournament = create(club_, owner, format="round_robin")
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    for _ in range(5):
        finish_tournament_round(tournament, finish)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    byes = Pairing.objects.filter(round__tournament=tournament, second=None)
    assert sorted(byes.values_list("first__start_number", flat=True)) == [1, 2, 3, 4, 5]
    rows = tournament_standings(tournament=tournament)
    assert [r["points"] for r in rows] == [5, 4, 3, 2, 1]  # 4 wins + the bye, ...


@pytest.mark.parametrize("fmt, rounds", [("single_elim", 3), ("double_elim", 6)])
def test_elimination_brackets_play_out(club, finish, fmt, rounds):
    club_, owner, members = club(8)
    tournament = create(club_, owner, format=fmt)
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    for _ in range(rounds):
        finish_tournament_round(tournament, finish, better_seed_wins=False)  # upsets everywhere
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert tournament.rounds.count() == rounds
    rows = tournament_standings(tournament=tournament)
    assert rows[0]["rank"] == 1
    columns = tournament_bracket(tournament=tournament)
    assert columns[-1]["matches"][0]["winner"] == rows[0]["start_number"]


def test_pods_of_three_for_a_multi_seat_game(club):
    club_, owner, members = club(5)
    tournament = create(club_, owner, format="pods", game="toy-count", options={},
                        seats_per_match=3, rounds_planned=2, adjudication="draw")
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    pods = current_pairings(tournament)
    assert sorted(len(p.pod) for p in pods) == [2, 3]
    assert all(Match.objects.get(pk=p.match_id).seats.count() == len(p.pod) for p in pods)
    _end_round(tournament)
    _end_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = tournament_standings(tournament=tournament)
    assert len(rows) == 5 and all("points" in r for r in rows)


def test_the_sweeper_starts_a_due_tournament_or_cancels_an_empty_one(club):
    club_, owner, members = club(2)
    due = create(club_, owner, starts_at=timezone.now() - timedelta(minutes=1))
    register_all(due, members)
    empty = create(club_, owner, name="Empty", starts_at=timezone.now() - timedelta(minutes=1))
    counts = services.competitions_sweep()
    assert counts["started"] == 1
    due.refresh_from_db()
    empty.refresh_from_db()
    assert due.status == "running" and empty.status == "cancelled"
    assert services.competitions_sweep()["started"] == 0


def test_pods_score_places_from_the_engine_ranking(club, django_capture_on_commit_callbacks):
    from tests.competitions.conftest import run_signals

    club_, owner, members = club(5)
    tournament = create(club_, owner, format="pods", game="toy-count", options={"target": 3},
                        seats_per_match=3, rounds_planned=1)
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    for pod in current_pairings(tournament):
        seat1 = Seat.objects.get(match_id=pod.match_id, number=1)
        with django_capture_on_commit_callbacks() as callbacks:
            from games.services import orders_submit

            orders_submit(match_id=pod.match_id, seat_number=1, user=seat1.user,
                          phase_number=1, data={"add": 3}, source="web")
        run_signals(callbacks)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    points = sorted(r["points"] for r in tournament_standings(tournament=tournament))
    # a pod of 3: 2 to the winner, the two others tied share (1 + 0) / 2; a pod of 2: 1 and 0
    assert points == [0, 0.5, 0.5, 1, 2]


def test_one_failing_item_does_not_stop_the_sweep(club, players):
    """A finished match of a game that is no longer installed cannot be rated; the sweeper
    logs it and still ends the due round."""
    from games import services as games

    club_, owner, members = club(2)
    tournament = create(club_, owner, rounds_planned=1, adjudication="draw")
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    a, b = players(2, "gone")
    orphan = games.match_create(creator=a, game="toy-duel", options={"target": 1},
                                seats=[{"kind": "human", "user": a},
                                       {"kind": "human", "user": b}], hours_per_phase=24)
    Match.objects.filter(pk=orphan.pk).update(status="finished", game="uninstalled",
                                              finished_at=timezone.now(),
                                              result={"ranking": [[1], [2]]})
    counts = _end_round(tournament)
    tournament.refresh_from_db()
    assert counts["adjudicated"] == 1 and tournament.status == "finished"


def _night_at_the_deadline(users, hours_per_phase):
    """Give ``users`` active hours that open two hours after a deadline set now."""
    from clocks.services import active_hours_set

    deadline = timezone.now() + timedelta(hours=hours_per_phase)
    start = (deadline + timedelta(hours=2)).time().replace(second=0, microsecond=0)
    end = (deadline + timedelta(hours=10)).time().replace(second=0, microsecond=0)
    for user in users:
        active_hours_set(user=user, start=start, end=end, time_zone="UTC")


@pytest.mark.parametrize("fixed", [False, True])
def test_a_tournament_with_fixed_deadlines_forbids_its_matches_to_move_one(club, fixed):
    """Its boards keep the deadline their hours per phase give, out of a player's night or
    on leave; without the option they move (out of the night, then for leave)."""
    from games import services as games_services

    club_, owner, members = club(2)
    tournament = create(club_, owner, rounds_planned=1, fixed_deadlines=fixed)
    assert tournament.fixed_deadlines is fixed
    register_all(tournament, members)
    _night_at_the_deadline(members, 24)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    (board,) = current_pairings(tournament)
    match = Match.objects.get(pk=board.match_id)
    assert (match.max_shift_hours == 0, match.allow_vacations) == (fixed, not fixed)
    opened = match.phases.get(number=1).opened_at
    night = timedelta(hours=2)  # to the window's start (a whole minute)
    moved = match.deadline - (opened + timedelta(hours=24))
    assert moved == timedelta(0) if fixed else night - timedelta(minutes=1) < moved <= night
    assert ("moved" in (match.timing or {})) is not fixed
    games_services.leave_take(user=board.first.user, days=2)
    match.refresh_from_db()
    on_leave = match.deadline - (opened + timedelta(hours=24)) - moved
    assert on_leave == timedelta(0) if fixed else on_leave == pytest.approx(
        timedelta(days=2), abs=timedelta(seconds=5))


def test_round_mails_can_be_unsubscribed_from_like_the_match_mails(club):
    from portal.mail.unsubscribe import NOTIFICATIONS, mail_opt_out, unsubscribe_headers

    club_, owner, members = club(4)
    tournament = create(club_, owner, rounds_planned=2)
    register_all(tournament, members)
    assert mail_opt_out(user_id=members[0].pk, target="round_started")
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    mails = OutgoingEmail.objects.filter(dedupe_key__startswith=f"tournament:{tournament.pk}:")
    assert sorted(mail.user_id for mail in mails) == sorted(user.pk for user in members[1:])
    assert "competition" in NOTIFICATIONS
    for mail in mails:
        assert mail.kind == OutgoingEmail.Kind.COMPETITION
        assert mail.get_kind_display().startswith("Clubs and tournaments")
        assert "List-Unsubscribe" in unsubscribe_headers(mail)


def test_a_board_that_ended_with_nobody_left_to_act_is_no_result_and_is_adjudicated(club):
    """No result is not a draw (docs/lifecycle.md, how a match ended): the board is scored by
    the round's adjudication rule, as a voided one is, and no ladder rates the match."""
    from competitions.services.ladders import match_ranking_users
    from engine.ending import by_nobody
    from games.services.match import match_set_status

    club_, owner, members = club(2)
    tournament = create(club_, owner, rounds_planned=1, adjudication="forfeit")
    register_all(tournament, members)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    [board] = current_pairings(tournament)
    match = Match.objects.get(pk=board.match_id)
    Seat.objects.filter(match=match, number=1).update(missed_total=2)
    match.result = by_nobody().as_json()  # as the lifecycle ends it (games.services.resolve)
    match_set_status(match=match, new_status=Match.Status.FINISHED, note="no prompts left",
                     events=[], save=False)
    match.save()
    assert services.pairing_result_record(match_id=match.pk)
    board.refresh_from_db()
    assert (board.score, board.second_score, board.forfeit) == (0, 1, True)  # not ½–½
    assert match_ranking_users(match) is None
