"""Leagues through the services: a season of 30 players in divisions of 8 (two of them bots)
played to its end, adjudication at the end date, leavers and newcomers, and the next season
built by promotion and relegation and shown on its pages."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competitions import services
from competitions.models import (
    Division,
    DivisionPlace,
    League,
    LeagueMatch,
    LeagueMember,
    RatingUpdate,
    Season,
)
from competitions.pairing import round_robin
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games.models import Match, Seat, Submission
from games.services import ServiceError, orders_submit, phase_resolve
from portal.mail.models import OutgoingEmail
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(players):
    def make(n):
        owner = players(1, "owner")[0]
        club = services.club_create(by=owner, name="League club")
        members = players(n, "m")
        for user in members:
            services.club_join_by_token(token=club.invite_token, user=user)
        return club, owner, members

    return make


def create(club, owner, **kwargs):
    args = {"name": "Winter league", "game": "toy-duel", "options": {"target": 1},
            "division_size": 8, "season_days": 42, "hours_per_phase": 24,
            "bots_allowed": True}
    args.update(kwargs)
    return services.league_create(by=owner, club_id=club.pk, **args)


def work() -> None:
    """What the worker does after each commit: the bots' sheets and the "match ended" signals
    (which score a league match), each phase whose sheets are all in resolved."""
    while True:
        ids = list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk", flat=True))
        complete = list(Match.objects.filter(status=Match.Status.ACTIVE)
                        .exclude(complete_at=None).values_list("pk", "phase_number"))
        if not ids and not complete:
            return
        if ids:
            assert outbox_dispatch(ids=ids)
        for match_id, phase_number in complete:
            assert phase_resolve(match_id=match_id, phase_number=phase_number)


def play(lm: LeagueMatch, winner_member: int, finish) -> None:
    """Finish a league match: ``winner_member`` wins (against a bot a person plays 5 each
    round, which a random bot can only tie)."""
    match = Match.objects.get(pk=lm.match_id)
    seats = {s.number: s for s in match.seats.all()}
    if all(s.user_id for s in seats.values()):
        finish(match, lm.seats.index(winner_member) + 1)
        return
    for _ in range(50):
        work()
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        for seat in seats.values():
            if seat.user_id and not Submission.objects.filter(
                    seat=seat, phase__number=match.phase_number).exists():
                orders_submit(match_id=match.pk, seat_number=seat.number, user=seat.user,
                              phase_number=match.phase_number, data={"number": 5},
                              source="web")
    raise AssertionError(f"match {match.pk} did not finish")


def divisions_of(season):
    return [list(DivisionPlace.objects.filter(division=d).order_by("position")
                 .values_list("member_id", flat=True))
            for d in Division.objects.filter(season=season).order_by("number")]


@pytest.mark.long
def test_a_season_of_thirty_in_divisions_of_eight_played_to_its_end(club, finish, make_user):
    club_, owner, members = club(29)
    league = create(club_, owner, relegate_forfeits=3)
    start = timezone.now()
    humans = members[:28]
    for user in humans:
        services.league_join(league_id=league.pk, user=user, now=start)
    bots = [services.league_bot_enter(league_id=league.pk, by=owner, bot="random", now=start)
            for _ in range(2)]
    assert [b.name for b in bots] == ["random bot 1", "random bot 2"]

    season = services.season_start(league_id=league.pk, by=owner, now=start)
    ids = [m.pk for m in LeagueMember.objects.filter(league=league).order_by("pk")]
    # Everyone has the start rating: by id, the earliest to join first; bots joined last.
    assert divisions_of(season) == [ids[0:8], ids[8:16], ids[16:23], ids[23:30]]
    # Every division's round robin at once: 28 + 28 + 21 + 21 matches, none with a bye.
    assert LeagueMatch.objects.filter(division__season=season).count() == 98
    first_division = Division.objects.get(season=season, number=1)
    pairs = {tuple(lm.seats) for lm in LeagueMatch.objects.filter(division=first_division,
                                                                  round_number=1)}
    assert pairs == {(ids[a - 1], ids[b - 1]) for a, b in round_robin(8)[0]}
    started = OutgoingEmail.objects.filter(dedupe_key__startswith=f"season:{season.pk}:started")
    assert started.count() == 28  # every person, no bot
    mail = started.get(user=humans[0])
    assert "division 1" in mail.body_text and "m8" in mail.body_text

    # A player of division 3 leaves during the season; m29 joins (a newcomer).
    leaver = ids[19]
    services.league_leave(league_id=league.pk, user=LeagueMember.objects.get(pk=leaver).user,
                          now=start + timedelta(days=3))
    newcomer = services.league_join(league_id=league.pk, user=members[28],
                                    now=start + timedelta(days=3))
    with pytest.raises(ServiceError) as refused:
        services.season_start(league_id=league.pk, by=owner)
    assert refused.value.code == "not_open"

    # Every match is played, the better placed winning, but one of division 2 (its 3rd
    # against its 4th), left to the end date: the 3rd has sent a sheet, the 4th has not.
    division_two = Division.objects.get(season=season, number=2)
    unplayed = next(lm for lm in LeagueMatch.objects.filter(division=division_two)
                    if set(lm.seats) == {ids[10], ids[11]})
    position = {pid: n for n, pid in enumerate(ids)}
    for lm in LeagueMatch.objects.filter(division__season=season).exclude(pk=unplayed.pk) \
            .order_by("pk"):
        play(lm, min(lm.seats, key=position.get), finish)
    match = Match.objects.get(pk=unplayed.match_id)
    third = Seat.objects.get(match=match, number=unplayed.seats.index(ids[10]) + 1)
    orders_submit(match_id=match.pk, seat_number=third.number, user=third.user,
                  phase_number=match.phase_number, data={"number": 3}, source="web")
    assert LeagueMatch.objects.filter(division__season=season, finished_at=None).count() == 1

    # The last week: noticed once by the sweeper.
    services.competitions_sweep(now=season.ends_at - timedelta(days=6))
    services.competitions_sweep(now=season.ends_at - timedelta(days=5))
    assert OutgoingEmail.objects.filter(
        dedupe_key__startswith=f"season:{season.pk}:last-week").count() == 27  # not the leaver
    season.refresh_from_db()
    assert season.status == "running" and season.last_week_noticed

    # The end date: the unfinished match is scored by the time used, and the next season is
    # built and started.
    end = season.ends_at + timedelta(minutes=1)
    counts = services.competitions_sweep(now=end)
    assert counts["seasons_ended"] == 1
    season.refresh_from_db()
    assert season.status == "finished"
    unplayed.refresh_from_db()
    assert unplayed.adjudicated and unplayed.ranking == [[ids[10]], [ids[11]]]
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # it goes on

    places = {p.member_id: p for p in DivisionPlace.objects.filter(division__season=season)}
    for division in divisions_of(season)[:3]:
        assert [places[pid].rank for pid in division] == list(range(1, len(division) + 1))
    assert places[ids[0]].points == 7 and places[ids[0]].move == "stay"
    assert places[leaver].move == "left"
    bot_ranks = sorted(places[b.pk].rank for b in bots)
    assert bot_ranks == [6, 7]  # the people of division 4 beat both bots
    better_bot, worse_bot = sorted((b.pk for b in bots), key=lambda pk: places[pk].rank)

    following = Season.objects.get(league=league, status="running")
    assert following.number == 2 and following.starts_at == end
    assert divisions_of(following) == [
        ids[0:6] + ids[8:10],
        ids[6:8] + ids[10:14] + ids[16:18],
        ids[14:16] + [ids[18], ids[20]] + ids[23:25],
        ids[21:23] + ids[25:28] + [better_bot, worse_bot, newcomer.pk],
    ]
    assert LeagueMatch.objects.filter(division__season=following).count() == 28 + 28 + 15 + 28
    ended = OutgoingEmail.objects.get(dedupe_key=f"season:{season.pk}:ended:member:{ids[9]}")
    assert "division 1" in ended.body_text  # ids[9] went up from division 2

    # The adjudicated match goes on, and its own result is not rated.
    finish(match, unplayed.seats.index(ids[11]) + 1)
    assert not RatingUpdate.objects.filter(match=match).exists()
    assert services.competitions_sweep(now=end + timedelta(hours=1))["rated"] == 0  # no retry
    assert not RatingUpdate.objects.filter(match=match).exists()
    unplayed.refresh_from_db()
    assert unplayed.ranking == [[ids[10]], [ids[11]]]  # the standings keep the season's score

    # The pages show the new season, the old one in the archive.
    client = client_for(members[0])
    page = client.get(f"/leagues/{league.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Season 2" in text and "Division 4" in text and members[28].username in text
    division = client.get(f"/leagues/{league.pk}/seasons/2/divisions/1/").content.decode()
    names = [members[n].username for n in range(6)] + [members[8].username,
                                                         members[9].username]
    assert all(name in division for name in names)
    assert "Relegation place" not in division  # nothing has been played in season 2 yet
    old = client.get(f"/leagues/{league.pk}/seasons/1/divisions/1/").content.decode()
    assert old.count("Relegated") == 2 and "went up and who went down" in old
    archive = client.get(f"/leagues/{league.pk}/archive/").content.decode()
    assert "Champion" in archive and "Promoted" in archive and "Relegated" in archive
    assert "Promotion place" not in text  # nothing has been played in season 2 yet
    ladder = services.site_ladder(game="toy-duel")
    player = client.get(f"/ladders/{ladder.pk}/players/{members[9].pk}/").content.decode()
    assert "League seasons" in player and "Promoted" in player  # m10 went up after season 1


# --- the rules around the season ----------------------------------------------------------


def test_only_organisers_create_a_club_league_and_only_admins_a_site_wide_one(club, make_user):
    club_, owner, members = club(1)
    with pytest.raises(ServiceError) as refused:
        create(club_, members[0])
    assert refused.value.code == "not_allowed"
    with pytest.raises(ServiceError) as refused:
        services.league_create(by=owner, name="Site", game="toy-duel")
    assert refused.value.code == "not_allowed"
    admin = make_user("admin", is_staff=True)
    site = services.league_create(by=admin, name="Site", game="toy-duel")
    assert site.club is None and site.division_size == 8


@pytest.mark.parametrize(("field", "value"), [
    ("division_size", 1), ("division_size", "eight"), ("season_days", 0), ("name", " "),
    ("seats_per_match", 3), ("game", "no-such-game"), ("relegate_forfeits", 0),
    ("options", {"target": 99}), ("hours_per_phase", "-1")])
def test_a_league_with_a_bad_setting_is_refused_with_a_reason(club, field, value):
    club_, owner, _ = club(0)
    with pytest.raises(ServiceError) as refused:
        create(club_, owner, **{field: value})
    assert refused.value.code in ("invalid", "unknown_game", "invalid_options")
    assert refused.value.message
    assert not League.objects.exists()


def test_joining_is_for_the_clubs_members_once_and_leaving_before_a_season_removes(
        club, make_user):
    club_, owner, members = club(2)
    league = create(club_, owner)
    with pytest.raises(ServiceError) as refused:
        services.league_join(league_id=league.pk, user=make_user("outsider"))
    assert refused.value.code == "not_allowed"
    services.league_join(league_id=league.pk, user=members[0])
    with pytest.raises(ServiceError):
        services.league_join(league_id=league.pk, user=members[0])
    services.league_leave(league_id=league.pk, user=members[0])
    assert not LeagueMember.objects.filter(league=league).exists()
    with pytest.raises(ServiceError) as refused:
        services.league_leave(league_id=league.pk, user=members[0])
    assert refused.value.code == "not_found"


def test_bots_only_where_allowed_and_by_organisers(club):
    club_, owner, members = club(1)
    league = create(club_, owner, bots_allowed=False)
    with pytest.raises(ServiceError) as refused:
        services.league_bot_enter(league_id=league.pk, by=owner, bot="random")
    assert refused.value.code == "not_allowed"
    open_league = create(club_, owner, name="With bots")
    with pytest.raises(ServiceError) as refused:
        services.league_bot_enter(league_id=open_league.pk, by=members[0], bot="nobody")
    assert refused.value.code == "not_allowed"  # refused as a member before the bot is read
    with pytest.raises(ServiceError) as refused:
        services.league_bot_enter(league_id=open_league.pk, by=owner, bot="nobody")
    assert "random" in refused.value.message


def test_a_season_needs_two_players_and_an_organiser(club):
    club_, owner, members = club(2)
    league = create(club_, owner)
    services.league_join(league_id=league.pk, user=members[0])
    with pytest.raises(ServiceError) as refused:
        services.season_start(league_id=league.pk, by=owner)
    assert refused.value.code == "invalid"
    services.league_join(league_id=league.pk, user=members[1])
    with pytest.raises(ServiceError) as refused:
        services.season_start(league_id=league.pk, by=members[0])
    assert refused.value.code == "not_allowed"
    assert not Season.objects.exists()
    season = services.season_start(league_id=league.pk, by=owner)
    assert divisions_of(season) == [[m.pk for m in LeagueMember.objects.order_by("pk")]]


def test_a_season_that_waits_ends_when_its_last_match_does(club, finish):
    club_, owner, members = club(3)
    league = create(club_, owner, waits_for_last_match=True)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    season = services.season_start(league_id=league.pk, by=owner)
    matches = list(LeagueMatch.objects.filter(division__season=season).order_by("pk"))
    assert len(matches) == 3  # three players: a round robin of three rounds, a bye in each
    for lm in matches[:-1]:
        play(lm, lm.seats[0], finish)
    late = season.ends_at + timedelta(days=2)
    assert services.competitions_sweep(now=late)["adjudicated"] == 0
    season.refresh_from_db()
    assert season.status == "running"  # it waits
    play(matches[-1], matches[-1].seats[1], finish)
    services.competitions_sweep(now=late + timedelta(minutes=1))  # (the result came "late")
    season.refresh_from_db()
    assert season.status == "finished"
    assert not matches[-1].__class__.objects.get(pk=matches[-1].pk).adjudicated
    assert Season.objects.get(league=league, number=2).status == "running"


def test_the_standings_update_as_matches_end_and_mark_the_places(club, finish):
    club_, owner, members = club(8)
    league = create(club_, owner, division_size=4)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    season = services.season_start(league_id=league.pk, by=owner)
    top = Division.objects.get(season=season, number=1)
    lm = LeagueMatch.objects.filter(division=top).order_by("pk").first()
    play(lm, lm.seats[1], finish)
    from competitions.selectors import division_table

    rows = division_table(top)
    assert rows[0]["member_id"] == lm.seats[1] and rows[0]["points"] == "1"
    # Division 1 of 4: nobody goes up from it, the last one (ceil(4 / 4)) goes down.
    assert [r["zone"] for r in rows].count("Relegation place") == 1
    assert "Promotion place" not in [r["zone"] for r in rows]
    lower = Division.objects.get(season=season, number=2)
    assert [r["zone"] for r in division_table(lower)] == [""] * 4  # nothing played there yet
    other = LeagueMatch.objects.filter(division=lower).order_by("pk").first()
    play(other, other.seats[0], finish)
    second = division_table(lower)
    assert [r["zone"] for r in second].count("Promotion place") == 1
    assert second[0]["member_id"] == other.seats[0] and second[0]["zone"] == "Promotion place"
    page = client_for(members[0]).get(f"/leagues/{league.pk}/seasons/1/divisions/1/")
    assert page.status_code == 200 and "Relegation place" in page.content.decode()


def test_a_league_of_a_three_seat_game_plays_pods(club):
    club_, owner, members = club(7)
    league = create(club_, owner, game="toy-count", options={}, seats_per_match=3)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    season = services.season_start(league_id=league.pk, by=owner)
    matches = LeagueMatch.objects.filter(division__season=season)
    assert matches.count() == 9  # three rounds of pods of 3, 2 and 2
    assert sorted(len(lm.seats) for lm in matches) == [2] * 6 + [3] * 3
    for lm in matches:
        assert Seat.objects.filter(match_id=lm.match_id).count() == len(lm.seats)


def test_pages_refuse_strangers_of_a_private_club_and_bad_actions(club, make_user):
    club_, owner, members = club(2)
    club_.is_public = False
    club_.save()
    league = create(club_, owner)
    stranger = client_for(make_user("stranger"))
    assert stranger.get(f"/leagues/{league.pk}/").status_code == 404
    assert stranger.get(f"/leagues/{league.pk}/archive/").status_code == 404
    member = client_for(members[0])
    assert member.get(f"/leagues/{league.pk}/").status_code == 200
    assert member.post(f"/leagues/{league.pk}/start/").status_code == 403
    assert member.post(f"/leagues/{league.pk}/explode/").status_code == 404
    assert member.get(f"/leagues/{league.pk}/seasons/1/divisions/1/").status_code == 404
    assert member.get(f"/clubs/{club_.slug}/leagues/new/").status_code == 403
    owner_client = client_for(owner)
    assert owner_client.get(f"/clubs/{club_.slug}/leagues/new/").status_code == 200
    bad = owner_client.post(f"/clubs/{club_.slug}/leagues/new/", {"name": "", "game": "x"})
    assert bad.status_code == 400


# --- in French ------------------------------------------------------------------------------


def test_the_league_pages_and_mails_read_in_french(club, finish):
    from portal.accounts.services import profile_update
    from tests.french import english_in, text_of, typography_in

    club_, owner, members = club(5)
    for user in (owner, members[0]):
        profile_update(user=user, language="fr")
    league = create(club_, owner, name="Ligue du jeudi", division_size=2)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    services.league_bot_enter(league_id=league.pk, by=owner, bot="random")
    season = services.season_start(league_id=league.pk, by=owner)
    lm = LeagueMatch.objects.filter(division__season=season).exclude(
        match__seats__bot="random").order_by("pk").first()
    play(lm, lm.seats[0], finish)
    services.competitions_sweep(now=season.ends_at + timedelta(minutes=1))
    names = [m.username for m in members] + [owner.username, "Ligue du jeudi",
                                             "League club", "random"]
    for who in (owner, members[0]):
        client = client_for(who)
        for url in (f"/leagues/{league.pk}/", f"/leagues/{league.pk}/archive/",
                    f"/leagues/{league.pk}/seasons/1/divisions/1/",
                    f"/leagues/{league.pk}/seasons/2/divisions/2/",
                    f"/clubs/{club_.slug}/", "/clubs/", f"/clubs/{club_.slug}/leagues/new/"):
            response = client.get(url)
            if who != owner and url.endswith("/new/"):
                assert response.status_code == 403
                continue
            html = response.content.decode()
            assert response.status_code == 200 and '<html lang="fr">' in html, url
            main = html[html.index("<main"):html.index("</main>")]
            assert not english_in(text_of(main), names=names), (url, english_in(
                text_of(main), names=names))
            assert not typography_in(main, names=names), (url, typography_in(main, names=names))
    mails = OutgoingEmail.objects.filter(user=members[0], dedupe_key__startswith="season:")
    assert {m.dedupe_key.split(":")[2] for m in mails} == {"started", "ended"}
    for mail in mails:
        assert not english_in(mail.subject + "\n" + mail.body_text, names=names), mail.body_text
    assert "saison 1" in mails.get(dedupe_key__contains=":ended:").subject


# --- the API (read-only) ----------------------------------------------------------------------


def test_the_api_lists_leagues_seasons_and_divisions_to_those_who_may_see_them(club, finish,
                                                                               make_user):
    import json

    from django.test import Client

    from portal.api.services import api_token_create

    club_, owner, members = club(4)
    club_.is_public = False
    club_.save()
    league = create(club_, owner, division_size=2)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    season = services.season_start(league_id=league.pk, by=owner)
    lm = LeagueMatch.objects.filter(division__season=season, division__number=1).first()
    play(lm, lm.seats[1], finish)

    def get(user, path):
        token = api_token_create(user=user, name="t").token
        response = Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/v1" + path)
        return response.status_code, json.loads(response.content)

    status, listed = get(members[0], "/leagues")
    assert status == 200 and [row["id"] for row in listed] == [league.pk]
    assert listed[0]["players"] == 4 and listed[0]["current_season"] == 1
    status, detail = get(members[0], f"/leagues/{league.pk}")
    assert status == 200 and detail["seasons"][0]["divisions"] == 2
    status, one = get(members[0], f"/leagues/{league.pk}/seasons/1")
    assert status == 200 and [d["number"] for d in one["divisions"]] == [1, 2]
    top = one["divisions"][0]["standings"]
    winner = LeagueMember.objects.get(pk=lm.seats[1]).user.username
    assert top[0]["player"] == winner and top[0]["points"] == 1 and top[0]["played"] == 1
    assert top[1]["move"] == "down"  # in the relegation place now
    outsider = make_user("outsider")
    assert get(outsider, "/leagues")[1] == []
    assert get(outsider, f"/leagues/{league.pk}")[0] == 404
    assert get(outsider, f"/leagues/{league.pk}/seasons/1")[0] == 404
    assert get(members[0], f"/leagues/{league.pk}/seasons/9")[0] == 404


def test_a_pod_bye_scores_the_average_of_a_full_pod(club):
    from competitions.selectors import division_table

    club_, owner, members = club(5)
    league = create(club_, owner, game="toy-race", options={}, seats_per_match=4)
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    season = services.season_start(league_id=league.pk, by=owner)
    # Five cannot be split into pods of 4 and 3: each round one pod of 4 and one bye.
    assert sorted(len(lm.seats) for lm in LeagueMatch.objects.filter(
        division__season=season)) == [4, 4]
    rows = division_table(Division.objects.get(season=season))
    assert sorted(r["points"] for r in rows) == ["0", "0", "0", "1.5", "1.5"]


def test_a_player_who_forfeits_goes_down_whatever_their_rank(club, finish):
    """A player of division 1 misses three deadlines in a row (the match's miss limit): the
    lifecycle takes the seat from them, which the league counts as a forfeit; with one
    forfeit relegating, they go down although they are not last."""
    from games.models import Phase, SeatTenure

    club_, owner, members = club(8)
    league = create(club_, owner, division_size=4, relegate_forfeits=1,
                    options={"target": 9})
    for user in members:
        services.league_join(league_id=league.pk, user=user)
    season = services.season_start(league_id=league.pk, by=owner)
    top = Division.objects.get(season=season, number=1)
    ids = divisions_of(season)[0]
    absent = ids[0]  # the best seed: they would stay without the forfeit
    lm = next(lm for lm in LeagueMatch.objects.filter(division=top) if absent in lm.seats)
    match = Match.objects.get(pk=lm.match_id)
    present = next(s for s in match.seats.all() if s.number != lm.seats.index(absent) + 1)
    for _ in range(3):
        match.refresh_from_db()
        orders_submit(match_id=match.pk, seat_number=present.number, user=present.user,
                      phase_number=match.phase_number, data={"number": 1}, source="web")
        past = timezone.now() - timedelta(seconds=1)
        Match.objects.filter(pk=match.pk).update(deadline=past)
        Phase.objects.filter(match=match, number=match.phase_number).update(deadline=past)
        assert phase_resolve(match_id=match.pk, phase_number=match.phase_number)
        work()
    assert SeatTenure.objects.filter(match=match, ending__in=["missed", "forfeited"]).exists()
    # Every other match of the season: the better seed wins (the absent player wins theirs).
    position = {pid: n for n, pid in enumerate(divisions_of(season)[0] + divisions_of(season)[1])}
    for other in LeagueMatch.objects.filter(division__season=season).exclude(pk=lm.pk):
        play(other, min(other.seats, key=position.get), finish)
    services.competitions_sweep(now=season.ends_at + timedelta(minutes=1))
    place = DivisionPlace.objects.get(division=top, member_id=absent)
    assert place.forfeits == 1 and place.move == "down" and place.rank <= 2
    following = Season.objects.get(league=league, number=2)
    assert absent in divisions_of(following)[1] and absent not in divisions_of(following)[0]
