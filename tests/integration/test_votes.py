"""Votes to end a match with the real stack: PostgreSQL, Redis, Celery worker and beat
processes (beat's ``games.tasks.votes_expire``, the lifecycle's outbox relay, the delivery
pipeline) and a real SMTP server."""

from __future__ import annotations

import time

import pytest

from games import services
from games.models import Match, MatchVote
from portal.mail.models import OutgoingEmail
from tests.integration.conftest import wait_until
from tests.integration.test_mail import mail_env, smtp  # noqa: F401  (the SMTP fixture)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def subjects(boxes, user) -> list[str]:
    return [str(d.message["Subject"]) for d in boxes.to(user.email)]


@pytest.mark.long
def test_an_expired_vote_mails_every_player_once(stack, smtp, make_user, settings,  # noqa: F811
                                                 monkeypatch):
    controller, boxes = smtp
    monkeypatch.setenv("VOTE_SWEEP_SECONDS", "1")  # beat's sweep, every second here
    settings.VOTE_EXPIRY_HOURS = 4 / 3600  # proposals made here expire after 4 s
    stack.worker(**mail_env(controller))
    stack.beat()
    alice, bob = make_user("vote-alice"), make_user("vote-bob")
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, title="Vote duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    vote = services.vote_propose(match_id=match.pk, user=alice, kind="draw")

    wait_until(lambda: any("asks for your vote" in s for s in subjects(boxes, bob)), 30,
               "the 'vote opened' mail to bob")
    opened = next(d for d in boxes.to(bob.email) if "asks for your vote" in
                  str(d.message["Subject"]))
    assert "North (vote-alice) proposes a draw in Vote duel." in opened.text
    wait_until(lambda: all(any("expired" in s for s in subjects(boxes, user))
                           for user in (alice, bob)), 60, "the expiry mailed to both players")
    vote.refresh_from_db()
    assert vote.status == MatchVote.Status.EXPIRED
    expired = next(d for d in boxes.to(alice.email) if "expired" in str(d.message["Subject"]))
    assert "expired before every seat still in the match had voted" in expired.text
    assert "No vote from: South (vote-bob)" in expired.text
    time.sleep(4)  # beat sweeps four more times: nothing is expired, nor mailed, again
    for user in (alice, bob):
        assert sum("expired" in s for s in subjects(boxes, user)) == 1
    assert OutgoingEmail.objects.filter(kind=OutgoingEmail.Kind.VOTE,
                                        dedupe_key__contains=":expired:").count() == 2
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_a_draw_agreed_by_both_is_the_result_mailed_to_both(stack, smtp, make_user):  # noqa: F811
    controller, boxes = smtp
    stack.worker(**mail_env(controller))
    alice, bob = make_user("draw-alice"), make_user("draw-bob")
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, title="Draw duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}])
    vote = services.vote_propose(match_id=match.pk, user=alice, kind="draw")
    services.vote_cast(match_id=match.pk, vote_id=vote.pk, user=bob, yes=True)
    for user in (alice, bob):
        wait_until(lambda u=user: any(s.startswith("Result") for s in subjects(boxes, u)), 30,
                   f"the result mailed to {user.username}")
        result = next(d for d in boxes.to(user.email)
                      if str(d.message["Subject"]).startswith("Result"))
        assert "Drawn by agreement of North, South." in result.text
