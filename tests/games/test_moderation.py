"""Moderators' services: each takes the match lock, needs a reason, writes one audit row, and
shows its short form in the match's public history; none reveals a sealed sheet."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.models import Match, ModerationEntry, Phase, Seat, Submission
from games.services import ServiceError
from tests.helpers import play_round, submit
from tests.outbox import promised


def entries(match):
    return list(ModerationEntry.objects.filter(match=match).order_by("pk"))


def test_every_action_needs_a_moderator_and_a_reason(toy_duel, moderator):
    match = toy_duel()
    with pytest.raises(ServiceError) as caught:
        services.match_pause(match_id=match.pk, by=match.alice, reason="I want to")
    assert caught.value.code == "not_allowed"
    for reason in ("", "   ", None):
        with pytest.raises(ServiceError) as caught:
            services.match_pause(match_id=match.pk, by=moderator, reason=reason)
        assert caught.value.code == "invalid"
    assert entries(match) == []


def test_pause_stops_the_deadline_and_resume_gives_back_the_time_left(toy_duel, moderator):
    match = toy_duel(hours_per_phase=10)
    left_before = match.deadline - timezone.now()
    services.match_pause(match_id=match.pk, by=moderator, reason="dispute")
    match.refresh_from_db()
    assert match.paused_at is not None and match.deadline is None
    assert Phase.objects.get(match=match, number=1).deadline is None
    # The sweeper does not see it; orders are refused with a clear message.
    assert services.deadlines_sweep(now=timezone.now() + timedelta(days=30)) == 0
    with pytest.raises(ServiceError) as caught:
        submit(match, match.alice, 1, 3, 1)
    assert caught.value.code == "paused"
    # A resolution queued before the pause does nothing.
    assert services.phase_resolve(match_id=match.pk, phase_number=1) is False
    with pytest.raises(ServiceError):
        services.match_pause(match_id=match.pk, by=moderator, reason="twice")

    services.match_resume(match_id=match.pk, by=moderator, reason="settled")
    match.refresh_from_db()
    left_after = match.deadline - timezone.now()
    assert abs((left_after - left_before).total_seconds()) < 60
    assert Phase.objects.get(match=match, number=1).deadline == match.deadline
    kinds = [e.kind for e in entries(match)]
    assert kinds == ["pause", "resume"]
    assert entries(match)[0].summary.startswith(
        "a moderator paused the match (9 hours, 59 minutes left")
    assert entries(match)[0].by == moderator and entries(match)[0].reason == "dispute"


def test_resuming_a_phase_whose_sheets_are_all_in_queues_its_resolution(toy_duel, moderator):
    match = toy_duel()
    submit(match, match.alice, 1, 3, 1)
    submit(match, match.bob, 2, 2, 1)  # complete: resolution queued (the task is not run here)
    services.match_pause(match_id=match.pk, by=moderator, reason="check")
    services.match_resume(match_id=match.pk, by=moderator, reason="ok")
    match.refresh_from_db()
    assert match.complete_at is not None
    assert services.phase_resolve(match_id=match.pk, phase_number=1)


def test_extend_is_capped_per_phase_and_per_match(toy_duel, moderator, settings):
    settings.MODERATION_EXTEND_MAX_PHASE_HOURS = 48
    settings.MODERATION_EXTEND_MAX_MATCH_HOURS = 60
    match = toy_duel(hours_per_phase=1)
    extend = services.match_deadline_extend
    assert extend(match_id=match.pk, hours=24, by=moderator, reason="travel")
    assert extend(match_id=match.pk, hours=24, by=moderator, reason="again") is False
    assert extend(match_id=match.pk, hours=48, by=moderator, reason="more")
    with pytest.raises(ServiceError) as caught:  # the phase has had 47 h: 48 h cap
        extend(match_id=match.pk, hours=48 + 0.5, by=moderator, reason="more")
    assert caught.value.code == "capped"
    phase = Phase.objects.get(match=match, number=1)
    assert timedelta(hours=46) < phase.extended <= timedelta(hours=48)
    (first, second) = entries(match)
    assert first.summary == "a moderator extended the deadline by 23 hours"
    assert second.kind == "extend"
    # The next phase starts a fresh phase cap but the match's total stays counted.
    play_round(match, {1: 4, 2: 2})  # phase 1
    with pytest.raises(ServiceError) as caught:
        extend(match_id=match.pk, hours=20, by=moderator, reason="long")
    assert caught.value.code == "capped" and "per match" in caught.value.message
    assert extend(match_id=match.pk, hours=10, by=moderator, reason="short")


def test_force_resolve_gives_missing_seats_their_defaults(toy_duel, moderator):
    match = toy_duel()
    submit(match, match.alice, 1, 5, 1)
    assert services.phase_force_resolve(match_id=match.pk, by=moderator, reason="bob gone") == 1
    phase = Phase.objects.get(match=match, number=1)
    assert phase.status == "resolved"
    sheet = Submission.objects.get(phase=phase, seat__number=2)
    assert sheet.source == "default"
    match.refresh_from_db()
    assert match.phase_number == 2
    (entry,) = entries(match)
    assert entry.kind == "force_resolve" and "defaults for seat 2" in entry.summary
    assert entry.phase_number == 1


def test_roll_back_replays_and_keeps_later_phases_as_voided_history(toy_duel, moderator):
    match = toy_duel(options={"target": 9})
    play_round(match, {1: 4, 2: 2})  # phase 1
    play_round(match, {1: 1, 2: 5})  # phase 2
    submit(match, match.alice, 1, 3, 3)  # sealed, never revealed
    match.refresh_from_db()
    state_at_2 = Phase.objects.get(match=match, number=2).state_before

    services.match_rollback(match_id=match.pk, to_phase=2, by=moderator, reason="bug")
    match.refresh_from_db()
    assert match.phase_number == 2 and match.state == state_at_2
    voided = Phase.all_objects.filter(match=match, status="voided").order_by("number")
    assert [p.number for p in voided] == [2, 3]
    assert Submission.objects.filter(phase__in=voided).count() == 3  # nothing deleted
    reopened = Phase.objects.get(match=match, number=2)
    assert reopened.status == "open" and reopened.pk not in [p.pk for p in voided]
    (entry,) = entries(match)
    assert entry.summary == "a moderator rolled the match back to phase 2 (phases 2–3 voided)"
    # The replayed phase is played again from the same position.
    play_round(match, {1: 5, 2: 1})  # phase 2
    match.refresh_from_db()
    assert match.phase_number == 3
    # Public history: resolved phases only (phase 1 and the new phase 2).
    assert [p.number for p in selectors.match_history(match)] == [1, 2]


def test_roll_back_refuses_a_replay_that_does_not_match(toy_duel, moderator):
    match = toy_duel(options={"target": 9})
    play_round(match, {1: 4, 2: 2})  # phase 1
    play_round(match, {1: 4, 2: 2})  # phase 2
    Phase.objects.filter(match=match, number=2).update(
        state_before={"round": 2, "scores": {"1": 0, "2": 7}, "target": 9, "poison_round": 0,
                      "last": None})
    with pytest.raises(ServiceError) as caught:
        services.match_rollback(match_id=match.pk, to_phase=2, by=moderator, reason="x")
    assert caught.value.code == "replay_mismatch"
    assert not Phase.all_objects.filter(match=match, status="voided").exists()
    for bad in (0, 4, "two"):
        with pytest.raises(ServiceError):
            services.match_rollback(match_id=match.pk, to_phase=bad, by=moderator, reason="x")
    assert entries(match) == []


def test_replace_a_player_by_a_user(toy_duel, moderator, make_user):
    match = toy_duel()
    carol = make_user("carol")
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="bob asked", user=carol)
    seat = Seat.objects.get(match=match, number=2)
    assert seat.user == carol and seat.status == "taken"
    with pytest.raises(ServiceError) as caught:  # one seat per player
        services.seat_moderate_replace(match_id=match.pk, seat_number=1, by=moderator,
                                       reason="x", user=carol)
    assert caught.value.code == "already_seated"
    submit(match, carol, 2, 3, 1)
    (entry,) = entries(match)
    assert entry.summary.endswith(f"handed seat 2 from {match.bob.username} to carol")


def test_replace_a_player_by_a_bot_that_plays_at_once(toy_duel, moderator):
    match = toy_duel()
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="gone", bot="random")
    assert ("games.tasks.bot_submit", {"match_id": match.pk, "seat_number": 2,
                                       "phase_number": 1}) in promised(match.pk, kind="task")
    services.bot_submit(match_id=match.pk, seat_number=2, phase_number=1)
    assert Submission.objects.filter(phase__match=match, seat__number=2, source="bot").exists()
    with pytest.raises(ServiceError):
        services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                       reason="x", bot="no-such-bot")


def test_open_a_seat_for_anyone_with_the_invite_link(toy_duel, moderator, make_user):
    match = toy_duel()
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="bob left", open_seat=True)
    seat = Seat.objects.get(match=match, number=2)
    assert seat.user is None and seat.status == "open"
    dave = make_user("dave")
    with pytest.raises(ServiceError):  # a match in play is joined with the link only
        services.seat_join(match_id=match.pk, user=dave)
    services.seat_join(match_id=match.pk, user=dave, invite_token=match.invite_token)
    seat.refresh_from_db()
    assert seat.user == dave and seat.status == "taken"
    match.refresh_from_db()
    assert match.status == "active"
    assert "opened seat 2 for a new player" in entries(match)[0].summary


def test_an_open_seat_plays_defaults_and_is_not_forfeited(toy_duel, moderator):
    match = toy_duel(miss_limit=1, miss_policy="forfeit", options={"target": 9})
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="bob left", open_seat=True)
    submit(match, match.alice, 1, 3, 1)
    services.phase_force_resolve(match_id=match.pk, by=moderator, reason="nobody yet")
    match.refresh_from_db()
    assert match.status == "active" and match.phase_number == 2


def test_kick_for_abuse_removes_the_player(toy_duel, moderator):
    match = toy_duel()
    services.seat_kick(match_id=match.pk, seat_number=2, by=moderator, reason="insults")
    seat = Seat.objects.get(match=match, number=2)
    assert seat.user is None and seat.status == "flagged"
    with pytest.raises(ServiceError):
        submit(match, match.bob, 2, 3, 1)
    (entry,) = entries(match)
    assert entry.kind == "kick" and entry.details["user"] == match.bob.username
    assert match.bob.username not in entry.summary  # the public line names no one
    # The seat opened for anyone with the invite link: anyone but the kicked player.
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="find a new player", open_seat=True)
    with pytest.raises(ServiceError) as caught:
        services.seat_join(match_id=match.pk, user=match.bob, invite_token=match.invite_token)
    assert caught.value.code == "kicked"
    assert Seat.objects.get(match=match, number=2).user is None


def test_void_leaves_no_result(toy_duel, moderator):
    match = toy_duel(options={"target": 1})
    play_round(match, {1: 4, 2: 2})  # phase 1
    match.refresh_from_db()
    assert match.status == "finished" and match.result
    services.match_void(match_id=match.pk, by=moderator, reason="cheating")
    match.refresh_from_db()
    assert match.status == Match.Status.VOIDED and match.result is None
    assert ("match_ended", {"match_id": match.pk, "status": "voided"}) in promised(match.pk)
    with pytest.raises(ServiceError):
        services.match_void(match_id=match.pk, by=moderator, reason="again")
    assert [e.kind for e in entries(match)] == ["void"]


def test_the_public_log_is_short_and_reveals_no_sheet(toy_duel, moderator):
    match = toy_duel()
    submit(match, match.alice, 1, 5, 1)  # sealed
    services.match_deadline_extend(match_id=match.pk, hours=48, by=moderator,
                                   reason="secret moderator note")
    services.match_pause(match_id=match.pk, by=moderator, reason="x")
    log = selectors.match_moderation_log(match)
    assert [e["summary"] for e in log][0].startswith("a moderator extended the deadline by")
    assert all(set(e) == {"at", "summary", "phase"} for e in log)
    for entry in entries(match):
        assert '"number"' not in str(entry.details) and "5" not in entry.summary


def test_the_public_log_is_told_in_each_readers_language(toy_duel, moderator):
    """A line is kept as words, not as the moderator's language: the same row reads in English
    for one reader and in French for another, its spans of time in words in each."""
    from django.utils import translation

    match = toy_duel()
    with translation.override("fr"):  # the moderator's own language does not stick
        services.match_pause(match_id=match.pk, by=moderator, reason="dispute")
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="bob left", bot="random")
    (pause, replace) = entries(match)
    assert pause.summary.startswith("a moderator paused the match (")
    with translation.override("en-gb"):
        english = [e["summary"] for e in selectors.match_moderation_log(match)]
    with translation.override("fr"):
        french = [e["summary"] for e in selectors.match_moderation_log(match)]
    assert english == [pause.summary, replace.summary]
    assert english[1] == f"a moderator handed seat 2 from {match.bob} to the bot random"
    assert french[0].startswith("un modérateur a mis la partie en pause (il restait ")
    assert "heures" in french[0] or "jour" in french[0]
    assert french[1] == f"un modérateur a remplacé {match.bob} par le robot random à la place 2"


def test_an_opened_seat_is_taken_through_the_invite_page(client, toy_duel, moderator,
                                                         make_user):
    from django.urls import reverse

    match = toy_duel()
    invite = reverse("games:invite", args=[match.invite_token])
    client.force_login(make_user("erin"))
    assert "Take an open seat" not in client.get(invite).content.decode()  # all seats taken
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, by=moderator,
                                   reason="bob left", open_seat=True)
    assert "Take an open seat" in client.get(invite).content.decode()
    response = client.post(reverse("games:invite_accept", args=[match.invite_token]), {})
    assert response.status_code == 302
    assert Seat.objects.get(match=match, number=2).user.username == "erin"
