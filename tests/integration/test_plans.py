"""Plans with the real workers (docs/conditional-orders.md): a turn played by default when its
deadline passes (beat's sweep, a worker's resolution) sets off the next seat's plan through
the outbox, a bot's move played by a worker sets off a player's plan at once, and a Final Act
sheet entered ahead is submitted by a worker as the round resolves, before its mails."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import engine
from engine import rng_for
from games import services
from games.models import Match, Phase, Submission
from tests.integration.conftest import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def planned(match: Match, number: int) -> bool:
    return Submission.objects.filter(phase__match=match, phase__number=number,
                                     source="conditional").exists()


def test_a_default_turn_at_the_deadline_sets_off_the_next_plan(stack, make_user):
    stack.worker()
    stack.beat()
    ann, ben = make_user("plan-a"), make_user("plan-b")
    match = services.match_create(creator=ann, game="final-strategy", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    default = engine.get("final-strategy").default_submission(match.state, 1)
    services.plan_set(match_id=match.pk, seat_number=2, user=ben, tree=[
        {"when": [{"seat": 1, "move": default}], "play": {"steps": [{"barrier": "c3-c4"}]},
         "then": []}])
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match).update(deadline=past)
    wait_until(lambda: planned(match, 2), 60, "the sweep, then the plan's move")
    match.refresh_from_db()
    assert match.phase_number == 3 and match.state["to_move"] == 1
    assert Submission.objects.get(phase__match=match, phase__number=1).source == "default"


def test_a_bots_move_played_by_a_worker_sets_off_a_players_plan(stack, make_user):
    ann = make_user("plan-bot")
    match = services.match_create(creator=ann, game="final-strategy", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "bot", "bot": "greedy"},
                                         {"kind": "human", "user": ann}])
    # No worker yet: the bot's task waits in the broker while the plan answers its move
    # (what the bot will play is known: its dice are the match's).
    game = engine.get("final-strategy")
    bots_move = game.bot_submission(match.state, 1, "greedy",
                                    rng_for(f"{match.seed}:bot:1", match.phase_number))
    services.plan_set(match_id=match.pk, seat_number=2, user=ann, tree=[
        {"when": [{"seat": 1, "move": bots_move}],
         "play": {"steps": [{"barrier": "a9-b9"}]}, "then": []}])
    stack.worker()
    wait_until(lambda: planned(match, 2), 60, "the bot's move, then the plan's")
    match.refresh_from_db()
    assert match.phase_number >= 3
    assert Submission.objects.get(phase__match=match, phase__number=1).source == "bot"


def test_a_sheet_entered_ahead_is_submitted_by_a_worker_after_the_round(stack, make_user):
    stack.worker()
    ann, ben = make_user("ahead-a"), make_user("ahead-b")
    match = services.match_create(creator=ann, game="final-act", options={},
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in (ann, ben)])
    game = engine.get("final-act")

    def both_send(number: int) -> None:
        match.refresh_from_db()
        for seat, user in ((1, ann), (2, ben)):
            services.orders_submit(match_id=match.pk, seat_number=seat, user=user,
                                   phase_number=number, source="web",
                                   data=game.default_submission(match.state, seat))

    both_send(1)  # the setups
    wait_until(lambda: Phase.objects.filter(match=match, number=2).exists(), 60, "round 1")
    services.sheet_ahead_set(match_id=match.pk, seat_number=1, user=ann, text="C stay",
                             conditions=[{"kind": "unit_on_board", "unit": "C"}])
    both_send(2)
    wait_until(lambda: planned(match, 3), 60, "round 1's resolution, then the sheet ahead")
    assert not Match.objects.get(pk=match.pk).sheets_ahead
    # Carried out in the resolution's own transaction: the "your move" mail of round 2,
    # made after its commit, always says so (to its seat alone).
    from portal.mail.models import OutgoingEmail

    def your_move(user):
        return OutgoingEmail.objects.filter(user=user, kind="phase_opened",
                                            phase_number=3).first()

    wait_until(lambda: your_move(ann) and your_move(ben), 60, "round 2's your-move mails")
    assert ("Your sheet entered ahead was submitted for phase 3"
            in " ".join(your_move(ann).body_text.split()))
    assert "entered ahead" not in your_move(ben).body_text
