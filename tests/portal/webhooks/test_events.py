"""The events reach the webhooks through the one events table: the lifecycle's signals
(carried out by its outbox, as the worker does) and a club tournament's round starting."""

from __future__ import annotations

import pytest

from competitions.services import tournaments
from competitions.services.clubs import club_create, club_join_by_token
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games import services as games
from portal.webhooks.models import WebhookDelivery
from tests.portal.webhooks.flush import flush

pytestmark = pytest.mark.django_db


def dispatch() -> None:
    """Carry out every promised side effect, as the worker does after the commit."""
    while ids := list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk",
                                                                                 flat=True)):
        outbox_dispatch(ids=ids)


def test_a_phase_resolved_and_the_next_opened_reach_the_match_webhook(receiver, hook,
                                                                      toy_duel):
    match = toy_duel(title="Signals")
    hook("/g", by=match.alice, match=match, format="generic")
    dispatch()  # the first phase's "your move"
    for seat, user, number in ((1, match.alice, 4), (2, match.bob, 2)):
        games.orders_submit(match_id=match.pk, seat_number=seat, user=user, source="web",
                            phase_number=1, data={"number": number})
    games.phase_resolve(match_id=match.pk, phase_number=1)
    dispatch()
    dispatch()  # a second delivery of the same events posts nothing more
    flush()
    events = [(post.json["event"], post.json.get("phase")) for post in receiver.to("/g")]
    assert events == [("your_move", 1), ("phase_resolved", 1), ("your_move", 2)]
    assert all(post.verified for post in receiver.to("/g"))


def test_a_club_tournament_round_reaches_the_club_webhook(receiver, hook, make_user):
    owner, member = make_user("owner"), make_user("member")
    club = club_create(by=owner, name="Cup club")
    club_join_by_token(token=club.invite_token, user=member)
    hook("/club", by=owner, club=club, format="slack", language="fr")
    cup = tournaments.tournament_create(by=owner, name="Winter cup", game="toy-duel",
                                        format="round_robin", club_id=club.pk)
    tournaments.tournament_bot_enter(tournament_id=cup.pk, by=owner, bot="random")
    tournaments.tournament_register(tournament_id=cup.pk, user=member)
    tournaments.tournament_start(tournament_id=cup.pk, by=owner)
    flush()
    texts = [post.json["text"] for post in receiver.to("/club")]
    assert any(text.startswith("Winter cup : la ronde 1 a commencé") for text in texts)
    assert WebhookDelivery.objects.filter(event="round_started").count() == 1


def test_the_result_names_the_winner_by_handle_and_the_game_by_its_name(receiver, hook, toy_duel):
    match = toy_duel(options={"target": 1})
    match.alice.profile.chat_handle = "@alice:matrix.example.org"
    match.alice.profile.chat_mentions = True
    match.alice.profile.save()
    hook("/m", by=match.alice, match=match, format="matrix")
    for seat, user, number in ((1, match.alice, 4), (2, match.bob, 2)):
        games.orders_submit(match_id=match.pk, seat_number=seat, user=user, source="web",
                            phase_number=1, data={"number": number})
    games.phase_resolve(match_id=match.pk, phase_number=1)
    dispatch()
    flush()
    [result] = [post.json for post in receiver.to("/m") if "Winner" in post.json["text"]]
    assert f"#{match.pk} is over" in result["text"] and "toy-duel" not in result["text"]
    assert "Winner: alice" in result["text"] and "bob" not in result["text"].split("Winner")[1]
    assert 'href="https://matrix.to/#/@alice:matrix.example.org"' in result["html"]
