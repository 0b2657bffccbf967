"""Organisers enter the game's bots in a tournament: bot seats in its matches, the bots play
their games through the lifecycle's outbox, and nobody mails or rates a bot."""

import pytest

from competitions import services
from competitions.models import Entry, Pairing, RatingUpdate, Tournament
from competitions.selectors import tournament_bracket, tournament_crosstable, tournament_standings
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games.models import Match, Seat, Submission
from games.services import ServiceError, orders_submit, phase_resolve
from portal.mail.models import OutgoingEmail

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(players):
    """A club's round robin of Toy Duel taking entries, its owner and a member (m1)."""
    owner = players(1, "owner")[0]
    club = services.club_create(by=owner, name="Bot club")
    (member,) = players(1, "m")
    services.club_join_by_token(token=club.invite_token, user=member)
    tournament = services.tournament_create(
        by=owner, club_id=club.pk, name="Try-out", game="toy-duel", format="round_robin",
        options={"target": 1}, round_hours=48, hours_per_phase=24)
    return tournament, owner, member


def enter_bot(tournament, by, bot="random"):
    return services.tournament_bot_enter(tournament_id=tournament.pk, by=by, bot=bot)


def work() -> None:
    """What the worker does after each commit: carry out every promised signal and task (the
    bots' sheets, the "match ended" signal that records a board and opens the next round) and
    resolve each phase whose sheets are all in, until nothing is left."""
    while True:
        ids = list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk", flat=True))
        complete = list(Match.objects.filter(status=Match.Status.ACTIVE)
                        .exclude(complete_at=None).values_list("pk", "phase_number"))
        if not ids and not complete:
            return
        if ids:
            assert outbox_dispatch(ids=ids), "an outbox row failed: " + str(
                OutboxEvent.objects.filter(pk__in=ids).values_list("last_error", flat=True)[0])
        for match_id, phase_number in complete:
            assert phase_resolve(match_id=match_id, phase_number=phase_number)


def play_out(tournament, human) -> None:
    """The human plays 5 every phase; the bots play by themselves, round after round."""
    for _ in range(60):
        work()
        tournament.refresh_from_db()
        if tournament.status == Tournament.Status.FINISHED:
            return
        for seat in Seat.objects.filter(user=human, match__status=Match.Status.ACTIVE,
                                        match__tournament_pairing__round__tournament=tournament):
            match = seat.match
            if not Submission.objects.filter(seat=seat, phase__number=match.phase_number).exists():
                orders_submit(match_id=match.pk, seat_number=seat.number, user=human,
                              phase_number=match.phase_number, data={"number": 5},
                              source="web")
    raise AssertionError("the tournament did not finish")


def test_bots_and_a_member_play_a_round_robin_to_the_end(cup):
    tournament, owner, member = cup
    first, second = enter_bot(tournament, owner), enter_bot(tournament, owner)
    assert (first.name, second.name) == ("random bot 1", "random bot 2")
    services.tournament_register(tournament_id=tournament.pk, user=member)
    services.tournament_start(tournament_id=tournament.pk, by=owner)

    (board,) = Pairing.objects.filter(round__tournament=tournament, round__number=1) \
        .exclude(match=None)
    seats = {(s.user_id, s.bot) for s in Seat.objects.filter(match_id=board.match_id)}
    expected = {(e.user_id, e.bot) for e in (board.first, board.second)}
    assert seats == expected
    assert any(bot == "random" for _, bot in seats)

    play_out(tournament, member)
    assert Pairing.objects.filter(round__tournament=tournament).exclude(match=None).count() == 3
    bot_game = Pairing.objects.get(round__tournament=tournament, first__bot="random",
                                   second__bot="random")
    assert Match.objects.get(pk=bot_game.match_id).status == Match.Status.FINISHED
    assert Submission.objects.filter(seat__match_id=bot_game.match_id, source="bot").exists()
    rows = tournament_standings(tournament=tournament)
    assert sorted(row["name"] for row in rows) == ["m1", "random bot 1", "random bot 2"]
    assert sum(row["points"] for row in rows) == 6  # three games and three byes of 1 point
    assert sum(row["is_bot"] for row in rows) == 2
    cross = tournament_crosstable(tournament=tournament)
    assert all(all(cell for cell in row["cells"]) for row in cross["rows"])
    # Games against a bot are not rated: the ladder compares people.
    assert not RatingUpdate.objects.exists()
    finished = OutgoingEmail.objects.filter(dedupe_key__contains=":finished:")
    assert [mail.user_id for mail in finished] == [member.pk]


def test_a_round_mail_goes_to_the_human_only(cup):
    tournament, owner, member = cup
    enter_bot(tournament, owner)
    services.tournament_register(tournament_id=tournament.pk, user=member)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    mails = OutgoingEmail.objects.filter(dedupe_key__startswith=f"tournament:{tournament.pk}:")
    assert [(mail.user_id, mail.to) for mail in mails] == [(member.pk, member.email)]
    assert "random bot 1" in mails[0].body_text


def test_a_non_organiser_is_refused_before_anything_is_done(cup, make_user):
    tournament, owner, member = cup
    bot = enter_bot(tournament, owner)
    services.tournament_registration_set(tournament_id=tournament.pk, by=owner, is_open=False)
    for who in (member, make_user("outsider")):
        # Refused as not allowed, not as "registration is closed" nor "no such bot".
        with pytest.raises(ServiceError) as error:
            enter_bot(tournament, who, bot="no-such-bot")
        assert error.value.code == "not_allowed"
        with pytest.raises(ServiceError) as error:
            services.tournament_bot_remove(tournament_id=tournament.pk, by=who,
                                           entry_id=bot.pk)
        assert error.value.code == "not_allowed"
    assert list(Entry.objects.filter(tournament=tournament)) == [bot]


def test_a_bot_cannot_be_entered_after_registration_closed(cup):
    tournament, owner, member = cup
    services.tournament_registration_set(tournament_id=tournament.pk, by=owner, is_open=False)
    with pytest.raises(ServiceError) as error:
        enter_bot(tournament, owner)
    assert error.value.code == "not_open" and "Registration is closed" in error.value.message
    services.tournament_registration_set(tournament_id=tournament.pk, by=owner, is_open=True)
    enter_bot(tournament, owner)
    services.tournament_register(tournament_id=tournament.pk, user=member)
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    with pytest.raises(ServiceError) as error:
        enter_bot(tournament, owner)
    assert error.value.code == "not_open" and "started" in error.value.message
    assert Entry.objects.filter(tournament=tournament, user=None).count() == 1


def test_only_the_games_bots_and_only_while_there_is_room(cup):
    tournament, owner, member = cup
    with pytest.raises(ServiceError) as error:
        enter_bot(tournament, owner, bot="grandmaster")
    assert error.value.code == "invalid"
    assert error.value.message == \
        "Toy Duel has no bot called “grandmaster”; its bots are: random."
    Tournament.objects.filter(pk=tournament.pk).update(max_players=2)
    enter_bot(tournament, owner)
    services.tournament_register(tournament_id=tournament.pk, user=member)
    with pytest.raises(ServiceError) as error:
        enter_bot(tournament, owner)
    assert "full" in error.value.message


def test_removing_a_bot_before_the_start_deletes_it_and_later_withdraws_it(cup):
    tournament, owner, member = cup
    first, second, third = (enter_bot(tournament, owner) for _ in range(3))
    services.tournament_bot_remove(tournament_id=tournament.pk, by=owner, entry_id=second.pk)
    assert not Entry.objects.filter(pk=second.pk).exists()
    assert enter_bot(tournament, owner).name == "random bot 4"  # numbered on from the highest
    services.tournament_register(tournament_id=tournament.pk, user=member)
    with pytest.raises(ServiceError) as error:  # a person is not removed as a bot
        services.tournament_bot_remove(
            tournament_id=tournament.pk, by=owner,
            entry_id=Entry.objects.get(tournament=tournament, user=member).pk)
    assert error.value.code == "not_found"
    services.tournament_start(tournament_id=tournament.pk, by=owner)
    services.tournament_bot_remove(tournament_id=tournament.pk, by=owner, entry_id=third.pk)
    third.refresh_from_db()
    assert third.status == Entry.Status.WITHDRAWN
    with pytest.raises(ServiceError):
        services.tournament_bot_remove(tournament_id=tournament.pk, by=owner, entry_id=third.pk)


def test_an_entry_is_a_person_or_a_bot_never_both_nor_neither(cup):
    from django.db import IntegrityError, transaction

    tournament, owner, member = cup
    for fields in ({}, {"user": member, "bot": "random", "bot_number": 1},
                   {"bot": "random"}, {"user": member, "bot_number": 1}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.create(tournament=tournament, **fields)


def test_bots_in_an_elimination_bracket_are_named(players):
    staff = players(1, "admin")[0]
    staff.is_staff = True
    staff.save()
    tournament = services.tournament_create(by=staff, name="Site cup", game="toy-duel",
                                            format="single_elim", options={"target": 1})
    for _ in range(3):
        enter_bot(tournament, staff)  # site-wide tournaments: staff organise them
    services.tournament_start(tournament_id=tournament.pk, by=staff)
    labels = {side["label"] for column in tournament_bracket(tournament=tournament)
              for match in column["matches"] for side in (match["first"], match["second"])}
    assert {"random bot 1", "random bot 2", "random bot 3"} <= labels
