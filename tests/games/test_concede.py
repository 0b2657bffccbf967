"""A concession ends the seat as the game's rules treat a resigned seat (``Game.resign``),
through the lifecycle: at once, under the match lock, kept where a replay finds it (a phase's
settings, a continuous phase's logbook), so the match's record still replays and verifies.
One test per game."""

import pytest
from django.contrib.auth.models import Group

import engine
from engine.record import verify_record
from games import records, services
from games.endings import ending_of, ending_sentence
from games.models import Action, Match, MatchVote, Phase, Seat, Submission
from games.services import ServiceError
from tests.outbox import promised

pytestmark = pytest.mark.django_db


def create(make_user, game, names, **kwargs):
    users = [make_user(name) for name in names]
    match = services.match_create(creator=users[0], game=game, options=kwargs.pop("options", {}),
                                  hours_per_phase=24,
                                  seats=[{"kind": "human", "user": u} for u in users], **kwargs)
    match.users = users
    return match


def concede(match, user):
    return services.seat_concede(match_id=match.pk, user=user)


def signals(match):
    return [(name, payload.get("what")) for name, payload in promised(match.pk, kind="signal")]


def test_final_act_a_side_that_concedes_during_setup_loses_and_the_record_verifies(make_user):
    match = create(make_user, "final-act", ["alba", "dora"])
    alba, _dora = match.users
    game = engine.get("final-act")
    services.orders_submit(match_id=match.pk, seat_number=1, user=alba, phase_number=1,
                           data=game.default_submission(match.state, 1), source="web")
    concede(match, alba)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winners"] == [2] and match.result["ranking"] == [[2], [1]]
    assert match.result["reason"] == "Alpha conceded."
    assert Seat.objects.get(match=match, number=1).status == Seat.Status.CONCEDED
    phase = Phase.objects.get(match=match, number=1)
    assert phase.status == Phase.Status.CLOSED
    assert phase.settings[0]["kind"] == "resign" and phase.settings[0]["seat"] == 1
    assert not Submission.objects.filter(phase=phase, seat__number=1).exists()  # void
    assert ("match_ended", None) in signals(match)
    ending = ending_of(match)
    assert ending.how == "concession" and ending.seats == (1,)
    assert ending_sentence(match.game, ending) == "Conceded by Alpha."
    record = records.match_record(match)
    assert verify_record(record)["ok"]
    # The record says it was conceded, not that the rules ended it.
    assert record["end"] == {"by": "concession", "seats": [1]}
    assert "Result: Winner: Delta. Conceded by Alpha." in records.record_text(match, record)


def test_panzer_squadron_the_seat_not_to_move_concedes_and_the_other_wins(make_user):
    match = create(make_user, "panzer-squadron", ["sud", "nord"])
    to_move = next(iter(engine.get("panzer-squadron").prompts(match.state)))
    other = 3 - to_move
    concede(match, match.users[other - 1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winners"] == [to_move]
    assert verify_record(records.match_record(match))["ok"]


def test_final_strategy_the_seat_to_move_leaves_and_the_turn_passes_on(make_user):
    match = create(make_user, "final-strategy", ["red", "blue", "green"])
    red, _blue, green = match.users
    assert match.state["to_move"] == 1
    concede(match, red)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.state["removed"] == [1] and match.state["to_move"] == 2
    closed, current = Phase.objects.filter(match=match).order_by("number")
    assert closed.status == Phase.Status.CLOSED and current.status == Phase.Status.OPEN
    assert match.phase_number == 2 and match.deadline is not None
    assert ("phase_opened", None) in signals(match)  # blue's "your move"
    assert ("vote_changed", "conceded") in signals(match)
    with pytest.raises(ServiceError) as caught:
        services.orders_submit(match_id=match.pk, seat_number=1, user=red, phase_number=2,
                               data={"steps": []}, source="web")
    assert caught.value.code == "not_allowed"
    with pytest.raises(ServiceError) as caught:
        concede(match, red)
    assert caught.value.code == "seat_out"
    # Green (not to move) concedes: blue is the last one in and wins.
    concede(match, green)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"][0] == [2]
    assert set(match.result["ranking"][-1]) == {1, 3}
    assert ending_of(match).how == "concession" and ending_of(match).seats == (3,)
    checked = verify_record(records.match_record(match))
    assert checked["ok"], checked


def test_tank_game_a_concession_is_a_logbook_entry_and_the_last_tank_wins(make_user):
    match = create(make_user, "tank-game", ["corey", "dana", "eli"])
    _corey, dana, eli = match.users
    concede(match, dana)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    entry = Action.objects.get(match=match, kind=Action.Kind.RESIGN)
    assert (entry.seat, entry.seq) == (2, match.logbook_seq)
    assert "conceded" in entry.events[0]["text"]
    assert match.state["tanks"]["2"]["status"] == "resigned"
    assert 2 not in engine.get("tank-game").prompts(match.state)
    with pytest.raises(ServiceError) as caught:
        services.actions_submit(match_id=match.pk, seat_number=2, user=dana, source="api",
                                data={"type": "buy_ap"})
    assert caught.value.code == "not_allowed"
    concede(match, eli)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["winners"] == [1]
    assert match.result["ranking"] == [[1], [3], [2]]  # the latest to concede ranks higher
    assert Phase.objects.get(match=match).status == Phase.Status.RESOLVED
    checked = verify_record(records.match_record(match))
    assert checked["ok"], checked


def test_a_concession_is_refused_clearly(toy_duel, make_user):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        concede(match, make_user("outsider"))
    assert caught.value.code == "not_your_seat"
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderator"))
    services.match_pause(match_id=match.pk, by=moderator, reason="checking")
    with pytest.raises(ServiceError) as caught:
        concede(match, match.alice)
    assert caught.value.code == "paused"
    services.match_resume(match_id=match.pk, by=moderator, reason="done")
    concede(match, match.alice)
    with pytest.raises(ServiceError) as caught:
        concede(match, match.bob)
    assert caught.value.code == "not_active"
    assert MatchVote.objects.filter(kind="concede").count() == 1
