"""Team matches between clubs and team leagues, through the services: the challenge and its
answer, rosters by rating or by the captain's order, alternates swapped in until a board's
match starts, the start (boards alternate seat 1, unfielded boards forfeited), each board's
result recorded once, the team match scored by ``team_match``, the result mailed; and a team
league of four clubs on three boards played to its end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from competitions import services
from competitions.models import (
    Membership,
    Rating,
    TeamBoard,
    TeamLeague,
    TeamMatch,
    TeamPlayer,
)
from competitions.selectors import team_league_standings
from competitions.services.ladders import site_ladder
from games.models import Match, Seat
from games.services import ServiceError
from portal.mail.models import OutgoingEmail
from tests.french import english_in, typography_in

pytestmark = pytest.mark.django_db
Status = TeamMatch.Status


@pytest.fixture
def club_of(players):
    """club_of(name, members=4) -> (club, owner, [members]) built through the services."""

    def make(name: str, members: int = 4):
        owner = players(1, f"{name}-owner")[0]
        club = services.club_create(by=owner, name=name)
        people = players(members, f"{name}-m")
        for user in people:
            services.club_join_by_token(token=club.invite_token, user=user)
        return club, owner, people

    return make


def challenge(club_a, owner_a, club_b, boards=3, **extra):
    return services.team_match_challenge(by=owner_a, club_id=club_a.pk, opponent_id=club_b.pk,
                                         game="toy-duel", boards=boards,
                                         options={"target": 1}, hours_per_phase=24, **extra)


def rate(user, mu):
    """A rating on the game's site ladder (sigma 1: the conservative rating is mu - 3)."""
    Rating.objects.create(ladder=site_ladder(game="toy-duel"), user=user, mu=mu, sigma=1)


def board_players(team_match, club):
    return {row.board: row.user for row in TeamPlayer.objects.filter(
        team_match=team_match, club=club, board__isnull=False)}


def alternates(team_match, club):
    return [row.user for row in TeamPlayer.objects.filter(
        team_match=team_match, club=club, board__isnull=True).order_by("position")]


@pytest.fixture
def two_clubs(club_of):
    a, owner_a, members_a = club_of("Alpha")
    b, owner_b, members_b = club_of("Bravo")
    return a, owner_a, members_a, b, owner_b, members_b


# --- the challenge --------------------------------------------------------------------------


def test_an_organiser_challenges_another_club_and_its_organiser_accepts(two_clubs):
    a, owner_a, members_a, b, owner_b, _members_b = two_clubs
    team_match = challenge(a, owner_a, b)
    assert (team_match.status, team_match.boards, team_match.game) == (Status.PROPOSED, 3,
                                                                        "toy-duel")
    with pytest.raises(ServiceError) as refused:
        services.team_match_accept(team_match_id=team_match.pk, by=owner_a)
    assert refused.value.code == "not_allowed"
    services.club_member_set_role(club_id=b.pk, by=owner_b, user_id=_members_b[0].pk,
                                  role=Membership.Role.ORGANISER)
    accepted = services.team_match_accept(team_match_id=team_match.pk, by=_members_b[0])
    assert accepted.status == Status.ACCEPTED and accepted.decided_by == _members_b[0]


@pytest.mark.parametrize("who", ["member", "other_owner", "outsider"])
def test_only_an_organiser_of_the_club_challenges_for_it(two_clubs, make_user, who):
    a, _owner_a, members_a, b, owner_b, _ = two_clubs
    by = {"member": members_a[0], "other_owner": owner_b, "outsider": make_user("nobody")}[who]
    with pytest.raises(ServiceError) as refused:
        challenge(a, by, b)
    assert refused.value.code == "not_allowed"
    assert not TeamMatch.objects.exists()


@pytest.mark.parametrize(("changes", "message"), [
    ({"boards": 0}, "number of boards"),
    ({"boards": 33}, "number of boards"),
    ({"boards": "two"}, "number of boards"),
    ({"game": "no-such-game"}, "no game"),
    ({"options": {"target": 99}}, "options"),
    ({"hours_per_phase": "soon"}, "Hours per phase"),
    ({"starts_at": "past"}, "future"),
])
def test_a_bad_challenge_is_refused_with_what_is_wrong(two_clubs, changes, message):
    a, owner_a, _, b, _, _ = two_clubs
    args = {"by": owner_a, "club_id": a.pk, "opponent_id": b.pk, "game": "toy-duel",
            "boards": 3, "options": {"target": 1}, "hours_per_phase": 24}
    if changes.get("starts_at") == "past":
        changes = {"starts_at": timezone.now() - timedelta(hours=1)}
    args.update(changes)
    with pytest.raises(ServiceError, match=message):
        services.team_match_challenge(**args)
    assert not TeamMatch.objects.exists()


def test_a_club_cannot_challenge_itself_nor_a_club_that_does_not_exist(two_clubs):
    a, owner_a, _, _b, _, _ = two_clubs
    with pytest.raises(ServiceError, match="itself"):
        challenge(a, owner_a, a)
    with pytest.raises(ServiceError) as refused:
        services.team_match_challenge(by=owner_a, club_id=a.pk, opponent_id="999999",
                                      game="toy-duel", boards=2)
    assert refused.value.code == "not_found"


def test_the_challenged_club_declines_or_the_challenger_withdraws_and_it_stays_declined(
        two_clubs):
    a, owner_a, members_a, b, owner_b, _ = two_clubs
    first = challenge(a, owner_a, b)
    with pytest.raises(ServiceError):
        services.team_match_decline(team_match_id=first.pk, by=members_a[0])
    assert services.team_match_decline(team_match_id=first.pk, by=owner_b).status \
        == Status.DECLINED
    with pytest.raises(ServiceError) as refused:
        services.team_match_accept(team_match_id=first.pk, by=owner_b)
    assert refused.value.code == "not_open"
    second = challenge(a, owner_a, b)
    assert services.team_match_decline(team_match_id=second.pk, by=owner_a).status \
        == Status.DECLINED


# --- rosters and alternates -----------------------------------------------------------------


def test_a_roster_goes_on_the_boards_by_rating_strongest_on_board_one(two_clubs):
    a, owner_a, members_a, b, _, _ = two_clubs
    team_match = challenge(a, owner_a, b)
    m1, m2, m3, m4 = members_a
    rate(m1, 20)
    rate(m2, 30)
    rate(m3, 25)  # m4 is unrated: the default rating, below them all
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m4.pk, m1.pk, m2.pk], alternates=[m3.pk])
    assert board_players(team_match, a) == {1: m2, 2: m1, 3: m4}
    assert alternates(team_match, a) == [m3]


def test_a_captain_may_order_the_boards_instead(two_clubs):
    a, owner_a, members_a, b, _, _ = two_clubs
    team_match = challenge(a, owner_a, b)
    m1, m2, m3, m4 = members_a
    rate(m2, 30)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m1.pk, m2.pk], alternates=[m4.pk, m3.pk],
                             by_rating=False)
    assert board_players(team_match, a) == {1: m1, 2: m2}
    assert alternates(team_match, a) == [m4, m3]
    # Named again, the roster replaces the last one.
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m3.pk], by_rating=False)
    assert board_players(team_match, a) == {1: m3}
    assert alternates(team_match, a) == []


@pytest.mark.parametrize("problem", ["outsider", "twice", "too_many", "other_side",
                                     "no_such_player", "not_a_list"])
def test_a_bad_roster_is_refused_and_the_old_one_kept(two_clubs, make_user, problem):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=2)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[members_a[0].pk])
    both = members_b[0]
    services.club_join_by_token(token=a.invite_token, user=both)  # a member of both clubs
    services.team_roster_set(team_match_id=team_match.pk, club_id=b.pk, by=owner_b,
                             players=[both.pk])
    players = {"outsider": [make_user("stranger").pk],
               "twice": [members_a[1].pk, members_a[1].pk],
               "too_many": [m.pk for m in members_a[:3]],
               "other_side": [both.pk],
               "no_such_player": [987654],
               "not_a_list": "m1"}[problem]
    with pytest.raises(ServiceError):
        services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                                 players=players)
    assert board_players(team_match, a) == {1: members_a[0]}


def test_only_the_club_s_own_captains_name_its_roster(two_clubs):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b)
    for by, club, players in ((owner_b, a, members_a), (members_a[0], a, members_a),
                              (owner_a, b, members_b)):
        with pytest.raises(ServiceError) as refused:
            services.team_roster_set(team_match_id=team_match.pk, club_id=club.pk, by=by,
                                     players=[players[0].pk])
        assert refused.value.code == "not_allowed"
    assert not TeamPlayer.objects.exists()


def test_an_alternate_swaps_in_and_the_player_becomes_an_alternate(two_clubs):
    a, owner_a, members_a, b, _, _ = two_clubs
    team_match = challenge(a, owner_a, b, boards=2)
    m1, m2, m3, m4 = members_a
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m1.pk, m2.pk], alternates=[m3.pk, m4.pk],
                             by_rating=False)
    services.team_board_swap(team_match_id=team_match.pk, club_id=a.pk, by=owner_a, board=2,
                             alternate=m4.pk)
    assert board_players(team_match, a) == {1: m1, 2: m4}
    assert alternates(team_match, a) == [m3, m2]
    with pytest.raises(ServiceError, match="alternates"):  # m1 plays: not an alternate
        services.team_board_swap(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                                 board=2, alternate=m1.pk)
    with pytest.raises(ServiceError, match="board"):
        services.team_board_swap(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                                 board=3, alternate=m3.pk)


def test_no_swap_once_the_board_s_match_has_started(two_clubs):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=1)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[members_a[0].pk], alternates=[members_a[1].pk])
    services.team_roster_set(team_match_id=team_match.pk, club_id=b.pk, by=owner_b,
                             players=[members_b[0].pk])
    services.team_match_start(team_match_id=team_match.pk, by=owner_b)
    with pytest.raises(ServiceError, match="has started") as refused:
        services.team_board_swap(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                                 board=1, alternate=members_a[1].pk)
    assert refused.value.code == "not_open"
    with pytest.raises(ServiceError) as refused:
        services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                                 players=[members_a[1].pk])
    assert refused.value.code == "not_open"


# --- starting and scoring -------------------------------------------------------------------


def test_an_early_start_needs_both_rosters_complete_and_the_sweeper_starts_it_when_due(
        two_clubs):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=2)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m.pk for m in members_a[:2]])
    with pytest.raises(ServiceError, match="every board"):
        services.team_match_start(team_match_id=team_match.pk, by=owner_a)
    assert services.competitions_sweep()["team_matches_started"] == 0
    team_match.refresh_from_db()
    counts = services.competitions_sweep(now=team_match.starts_at + timedelta(minutes=1))
    assert counts["team_matches_started"] == 1
    team_match.refresh_from_db()
    # Bravo named nobody: both boards are forfeits Alpha wins, and the match is over at once.
    assert team_match.status == Status.FINISHED
    assert (team_match.points_a, team_match.points_b, team_match.winner) == (2, 0, a)
    assert not TeamBoard.objects.filter(team_match=team_match, match__isnull=False).exists()


def test_boards_alternate_seat_one_and_unfielded_boards_are_forfeited(two_clubs, club_of):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=4)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m.pk for m in members_a[:2]], by_rating=False)
    services.team_roster_set(team_match_id=team_match.pk, club_id=b.pk, by=owner_b,
                             players=[m.pk for m in members_b[:3]], by_rating=False)
    team_match.refresh_from_db()
    services.team_match_start(team_match_id=team_match.pk,
                              now=team_match.starts_at + timedelta(seconds=1))
    boards = {row.number: row for row in TeamBoard.objects.filter(team_match=team_match)}
    seats = {n: dict(Seat.objects.filter(match=boards[n].match).values_list("number",
                                                                           "user_id"))
             for n in (1, 2)}
    assert seats[1] == {1: members_a[0].pk, 2: members_b[0].pk}  # club A has seat 1
    assert seats[2] == {1: members_b[1].pk, 2: members_a[1].pk}  # club B has seat 1
    # Board 3: only club B fielded a player: a forfeit it wins; board 4: nobody.
    assert (boards[3].match, boards[3].unfielded, boards[3].score) == (None, "a", 0)
    assert (boards[4].match, boards[4].unfielded, boards[4].score) == (None, "both", None)
    assert boards[3].done and boards[4].done and not boards[1].done


def test_each_board_is_recorded_once_and_the_last_scores_the_team_match(two_clubs, finish):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=3)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[m.pk for m in members_a[:3]], by_rating=False)
    services.team_roster_set(team_match_id=team_match.pk, club_id=b.pk, by=owner_b,
                             players=[m.pk for m in members_b[:3]], by_rating=False)
    services.team_match_start(team_match_id=team_match.pk, by=owner_a)
    boards = {row.number: row for row in TeamBoard.objects.filter(team_match=team_match)}
    finish(boards[1].match, 1, times=2)  # club A (seat 1) wins board 1; delivered twice
    finish(boards[2].match, 1)           # club B (seat 1) wins board 2
    team_match.refresh_from_db()
    assert team_match.status == Status.PLAYING
    assert [b.score for b in TeamBoard.objects.filter(team_match=team_match)
            .order_by("number")] == [1, 0, None]
    finish(boards[3].match, 1)           # club A (seat 1) wins board 3
    team_match.refresh_from_db()
    assert team_match.status == Status.FINISHED
    assert (team_match.points_a, team_match.points_b, team_match.winner) == (2, 1, a)
    # Recorded once: the sweeper and a second call change nothing.
    assert services.team_board_result_record(match_id=boards[3].match_id) is False
    assert services.competitions_sweep()["recorded"] == 0
    # Every member of both clubs (owners included) hears the result once.
    mails = OutgoingEmail.objects.filter(dedupe_key__startswith=f"team-match:{team_match.pk}:")
    assert mails.count() == 10
    mail = mails.get(to=members_b[0].email)
    assert "Alpha 2 – 1 Bravo: Alpha wins." in mail.body_text
    assert f"/team-matches/{team_match.pk}/" in mail.body_text


def test_the_result_mail_is_in_each_member_s_language(two_clubs, finish):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    profile = members_b[1].profile
    profile.language = "fr"
    profile.save()
    team_match = challenge(a, owner_a, b, boards=1)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[members_a[0].pk])
    services.team_roster_set(team_match_id=team_match.pk, club_id=b.pk, by=owner_b,
                             players=[members_b[0].pk])
    services.team_match_start(team_match_id=team_match.pk, by=owner_a)
    finish(TeamBoard.objects.get(team_match=team_match).match, 2)  # club B wins
    french = OutgoingEmail.objects.get(to=members_b[1].email,
                                       dedupe_key__startswith="team-match:")
    assert "Bravo l’emporte" in french.body_text
    assert french.subject == "Résultat de la rencontre par équipes : Alpha contre Bravo"
    assert not english_in(french.body_text, names=["Alpha", "Bravo"])
    assert not typography_in(french.body_text, names=["Alpha", "Bravo"])


def test_a_board_aborted_without_a_result_goes_against_the_seat_that_missed_more(
        two_clubs):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=1)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    services.team_roster_set(team_match_id=team_match.pk, club_id=a.pk, by=owner_a,
                             players=[members_a[0].pk])
    services.team_roster_set(team_match_id=team_match.pk, club_id=b.pk, by=owner_b,
                             players=[members_b[0].pk])
    services.team_match_start(team_match_id=team_match.pk, by=owner_a)
    board = TeamBoard.objects.get(team_match=team_match)
    Seat.objects.filter(match=board.match, number=2).update(missed_total=2)
    from games.services import match_set_status

    match_set_status(match=Match.objects.get(pk=board.match_id),
                     new_status=Match.Status.ABORTED, note="test: aborted")
    assert services.competitions_sweep()["recorded"] == 1
    board.refresh_from_db()
    assert (board.score, board.adjudicated) == (1, "forfeit")


# --- a team league --------------------------------------------------------------------------


def winner_seat(board: TeamBoard, team_match: TeamMatch, club) -> int:
    club_a_wins = club.pk == team_match.club_a_id
    return 1 if club_a_wins == board.a_first else 2


def test_a_team_league_of_four_clubs_on_three_boards_played_to_its_end(club_of, finish):
    """Four clubs, three boards, a single round robin: six team matches in three rounds.
    On boards 1 and 2 the club that joined earlier wins, except that the third club beats the
    second on board 1; board 3 goes to the club that joined later; the fourth club names only
    two players, so it forfeits board 3 of each of its team matches. Expected: the first club
    6 match points (7 board points), the third 4 (6), the second 2 (5), the fourth 0 (0)."""
    clubs = [club_of(name, members=4) for name in ("One", "Two", "Three", "Four")]
    (one, host, _), *_others = clubs
    league = services.team_league_create(by=host, club_id=one.pk, name="Winter league",
                                         game="toy-duel", boards=3, options={"target": 1},
                                         clubs=[c.pk for c, _o, _m in clubs[1:]],
                                         hours_per_phase=24, round_days=7)
    for club, owner, _members in clubs[1:]:
        services.team_league_join(league_id=league.pk, club_id=club.pk, by=owner)
    first_round = timezone.now() + timedelta(days=2)
    services.team_league_start(league_id=league.pk, by=host, first_round_at=first_round)
    league.refresh_from_db()
    assert league.status == TeamLeague.Status.RUNNING
    matches = list(TeamMatch.objects.filter(league=league).order_by("round", "pk"))
    assert [m.round for m in matches] == [1, 1, 2, 2, 3, 3]
    pairs = {frozenset((m.club_a_id, m.club_b_id)) for m in matches}
    assert len(pairs) == 6  # everyone meets everyone once
    strength = {club.pk: index for index, (club, _o, _m) in enumerate(clubs)}
    four = clubs[3][0]
    for team_match in matches:
        for club, owner, members in clubs:
            if club.pk in (team_match.club_a_id, team_match.club_b_id):
                named = members[:2] if club == four else members[:3]
                services.team_roster_set(team_match_id=team_match.pk, club_id=club.pk,
                                         by=owner, players=[m.pk for m in named],
                                         alternates=[members[3].pk], by_rating=False)
    # One's captain puts the alternate on board 2 for round 1.
    one_round1 = next(m for m in matches if m.round == 1 and one.pk in (m.club_a_id,
                                                                       m.club_b_id))
    services.team_board_swap(team_match_id=one_round1.pk, club_id=one.pk, by=host, board=2,
                             alternate=clubs[0][2][3].pk)
    for round_number in (1, 2, 3):
        due = first_round + timedelta(days=7 * (round_number - 1), seconds=1)
        assert services.competitions_sweep(now=due)["team_matches_started"] == 2
        for team_match in TeamMatch.objects.filter(league=league, round=round_number):
            assert team_match.status == Status.PLAYING
            for board in TeamBoard.objects.filter(team_match=team_match).exclude(match=None):
                a, b = team_match.club_a_id, team_match.club_b_id
                earlier, later = sorted((a, b), key=strength.get)
                won = later if board.number == 3 else earlier
                if board.number == 1 and {strength[a], strength[b]} == {1, 2}:
                    won = later  # the third club's upset on board 1
                finish(board.match, winner_seat(board, team_match,
                                                type(one).objects.get(pk=won)))
            team_match.refresh_from_db()
            assert team_match.status == Status.FINISHED
    # The swapped alternate played board 2 of round 1 for One.
    board2 = TeamBoard.objects.get(team_match=one_round1, number=2)
    assert clubs[0][2][3].pk in (board2.player_a_id, board2.player_b_id)
    # Four never fielded board 3: each of its boards 3 is a forfeit, no match made.
    fours = TeamBoard.objects.filter(team_match__league=league, number=3).filter(
        team_match__club_a=four) | TeamBoard.objects.filter(
        team_match__league=league, number=3, team_match__club_b=four)
    assert fours.count() == 3 and all(row.match_id is None for row in fours)
    league.refresh_from_db()
    assert league.status == TeamLeague.Status.FINISHED
    table = [(row["club"].name, row["match_points"], row["board_points"], row["rank"],
              row["played"]) for row in team_league_standings(league)]
    assert table == [("One", 6, 7, 1, 3), ("Three", 4, 6, 2, 3), ("Two", 2, 5, 3, 3),
                     ("Four", 0, 0, 4, 3)]


def test_a_team_league_starts_only_with_clubs_that_joined(club_of):
    (one, host, _), (two, owner_two, _), (three, _o3, _) = (club_of(n, 1) for n in "ABC")
    league = services.team_league_create(by=host, club_id=one.pk, name="L", game="toy-duel",
                                         boards=1, clubs=[two.pk, three.pk])
    with pytest.raises(ServiceError, match="two clubs"):
        services.team_league_start(league_id=league.pk, by=host)
    with pytest.raises(ServiceError) as refused:
        services.team_league_join(league_id=league.pk, club_id=two.pk, by=host)
    assert refused.value.code == "not_allowed"
    services.team_league_join(league_id=league.pk, club_id=two.pk, by=owner_two)
    with pytest.raises(ServiceError) as refused:
        services.team_league_start(league_id=league.pk, by=owner_two)
    assert refused.value.code == "not_allowed"
    services.team_league_start(league_id=league.pk, by=host)
    assert [(m.club_a_id, m.club_b_id) for m in TeamMatch.objects.filter(league=league)] \
        in ([(one.pk, two.pk)], [(two.pk, one.pk)])
    with pytest.raises(ServiceError, match="cannot be declined"):
        services.team_match_decline(team_match_id=TeamMatch.objects.get(league=league).pk,
                                    by=owner_two)


def test_with_three_clubs_each_rests_one_round(club_of):
    (one, host, _), (two, owner_two, _), (three, owner_three, _) = (club_of(n, 1)
                                                                    for n in "XYZ")
    league = services.team_league_create(by=host, club_id=one.pk, name="Trio", game="toy-duel",
                                         boards=1, clubs=[two.pk, three.pk], round_days=7)
    for club, owner in ((two, owner_two), (three, owner_three)):
        services.team_league_join(league_id=league.pk, club_id=club.pk, by=owner)
    first = timezone.now() + timedelta(days=1)
    services.team_league_start(league_id=league.pk, by=host, first_round_at=first)
    matches = list(TeamMatch.objects.filter(league=league).order_by("round"))
    assert [m.round for m in matches] == [1, 2, 3]
    assert [m.starts_at for m in matches] == [first + timedelta(days=7 * r) for r in range(3)]
    resting = [({one.pk, two.pk, three.pk} - {m.club_a_id, m.club_b_id}).pop()
               for m in matches]
    assert sorted(resting) == sorted([one.pk, two.pk, three.pk])


def test_a_player_who_left_the_club_after_being_named_does_not_play(two_clubs):
    a, owner_a, members_a, b, owner_b, members_b = two_clubs
    team_match = challenge(a, owner_a, b, boards=2)
    services.team_match_accept(team_match_id=team_match.pk, by=owner_b)
    for club, owner, members in ((a, owner_a, members_a), (b, owner_b, members_b)):
        services.team_roster_set(team_match_id=team_match.pk, club_id=club.pk, by=owner,
                                 players=[m.pk for m in members[:2]], by_rating=False)
    services.club_leave(club_id=a.pk, user=members_a[1])
    services.team_match_start(team_match_id=team_match.pk, by=owner_b)
    board2 = TeamBoard.objects.get(team_match=team_match, number=2)
    assert (board2.player_a, board2.match, board2.unfielded, board2.score) == (
        None, None, "a", 0)
