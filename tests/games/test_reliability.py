"""Reliability records: misses written by the resolution (through its outbox), each ended match
counted exactly once, abandonments (forfeit, replacement), excused misses, the score, the
minimum on matches and tournaments, and the pages that show it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from durable import outbox
from durable.models import OutboxEvent
from games import services
from games.models import (
    DeadlineMiss,
    Match,
    ModerationEntry,
    Phase,
    Reliability,
    ReliabilityUpdate,
)
from games.services.reliability import reliability_score
from tests.helpers import submit

pytestmark = pytest.mark.django_db


def dispatch() -> None:
    """Carry out every promised side effect, as the worker does after the commit."""
    while ids := list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk",
                                                                                 flat=True)):
        outbox.outbox_dispatch(ids=ids)


def duel(alice, bob, **kwargs):
    args = {"options": {"target": 2}, "hours_per_phase": 24}
    args.update(kwargs)
    return services.match_create(
        creator=alice, game="toy-duel", title="Reliable duel",
        seats=[{"kind": "human", "user": alice}, {"kind": "human", "user": bob}], **args)


def resolve(match):
    """Resolve the complete phase (the task queued on commit, run here)."""
    match.refresh_from_db()
    assert services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)


def pass_deadline(match):
    match.refresh_from_db()
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match.pk).update(deadline=past)
    Phase.objects.filter(match=match, number=match.phase_number).update(deadline=past)
    assert services.phase_resolve(match_id=match.pk, phase_number=match.phase_number)


def record(user) -> Reliability:
    return Reliability.objects.get(user=user)


def test_a_miss_is_recorded_for_the_player_and_the_match_counted_once(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    submit(match, alice, 1, 4)
    pass_deadline(match)  # bob misses phase 1: his default is played
    dispatch()
    [miss] = DeadlineMiss.objects.all()
    assert (miss.user, miss.phase_number, miss.seat_number, miss.excused) == (bob, 1, 2, False)
    assert not Reliability.objects.exists()  # records change when a match is counted
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    resolve(match)
    dispatch()
    match.refresh_from_db()
    assert match.status == "finished"
    assert ReliabilityUpdate.objects.filter(match=match).count() == 1
    assert (record(alice).matches_finished, record(alice).deadlines,
            record(alice).deadlines_missed, record(alice).score) == (1, 2, 0, 100)
    assert (record(bob).matches_finished, record(bob).deadlines,
            record(bob).deadlines_missed, record(bob).score) == (1, 2, 1, 50)
    # Counted once: a re-delivered task, the sweeper, a second call change nothing.
    assert services.match_reliability_record(match_id=match.pk) is None
    assert services.reliability_sweep() == 0
    assert record(bob).matches_finished == 1


def test_a_forfeited_seat_is_an_abandoned_match(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, miss_policy="forfeit", miss_limit=1)
    submit(match, alice, 1, 3)
    pass_deadline(match)
    dispatch()
    match.refresh_from_db()
    assert match.status == "finished"
    bob_record = record(bob)
    assert (bob_record.matches_finished, bob_record.matches_abandoned,
            bob_record.deadlines_missed, bob_record.score) == (0, 1, 1, 0)
    assert record(alice).score == 100


def test_a_replaced_player_abandoned_and_the_new_one_finished(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    match = duel(alice, bob, miss_limit=1)
    submit(match, alice, 1, 3)
    pass_deadline(match)  # bob misses and is flagged for replacement
    dispatch()
    services.seat_moderate_replace(match_id=match.pk, seat_number=2, user=carol, by=moderator,
                                   reason="bob stopped playing")
    submit(match, alice, 1, 3)
    submit(match, carol, 2, 5)
    resolve(match)
    submit(match, alice, 1, 3)
    submit(match, carol, 2, 1)
    resolve(match)
    dispatch()
    match.refresh_from_db()
    assert match.status == "finished"
    assert (record(bob).matches_abandoned, record(bob).deadlines,
            record(bob).deadlines_missed) == (1, 1, 1)
    assert (record(carol).matches_finished, record(carol).deadlines,
            record(carol).deadlines_missed, record(carol).score) == (1, 2, 0, 100)


def test_an_excused_miss_does_not_count(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    match = duel(alice, bob, options={"target": 1})
    submit(match, alice, 1, 1)
    pass_deadline(match)  # a tie on defaults: the match goes on
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    resolve(match)
    dispatch()
    assert record(bob).score == 50
    miss = DeadlineMiss.objects.get(user=bob)
    with pytest.raises(services.ServiceError, match="Only a moderator"):
        services.deadline_miss_excuse(miss_id=miss.pk, by=alice, reason="ill")
    with pytest.raises(services.ServiceError, match="Say why"):
        services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason=" ")
    services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="server trouble")
    assert (record(bob).score, record(bob).deadlines_missed, record(bob).misses_excused) == (
        100, 0, 1)
    services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="wrong miss",
                                  excused=False)
    assert record(bob).score == 50


def test_the_sweeper_counts_a_match_whose_task_was_lost(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, options={"target": 1})
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    resolve(match)
    OutboxEvent.objects.filter(name="games.tasks.reliability_record").update(
        done_at=timezone.now())  # as if it never ran
    dispatch()
    assert not ReliabilityUpdate.objects.exists()
    assert services.reliability_sweep() == 1
    assert record(alice).matches_finished == 1
    assert services.reliability_sweep() == 0


def test_an_aborted_match_counts_neither_finished_nor_abandoned(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob)
    services.match_abort(match_id=match.pk, by=make_user("mod", is_staff=True), note="test")
    dispatch()
    assert ReliabilityUpdate.objects.filter(match=match).exists()
    assert record(alice).score is None and record(alice).matches_finished == 0


def give_record(user, *, finished, abandoned=0, deadlines=10, missed=0):
    Reliability.objects.update_or_create(user=user, defaults={
        "matches_finished": finished, "matches_abandoned": abandoned, "deadlines": deadlines,
        "deadlines_missed": missed, "score": reliability_score(
            finished=finished, abandoned=abandoned, deadlines=deadlines, missed=missed)})


def test_a_match_with_a_minimum_refuses_players_below_it_with_the_reason(make_user, client):
    alice, newcomer, flaky, steady = (make_user(n) for n in ("alice", "new", "flaky", "steady"))
    give_record(flaky, finished=3, abandoned=1, deadlines=20, missed=4)  # 0.8 × 0.75 = 60 %
    give_record(steady, finished=5, deadlines=20, missed=1)  # 95 %
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, min_reliability=80,
        seats=[{"kind": "human", "user": alice}, {"kind": "human"}])
    with pytest.raises(services.ServiceError) as refused:
        services.seat_join(match_id=match.pk, user=flaky)
    assert refused.value.code == "unreliable"
    assert refused.value.message == (
        "This match asks for a reliability of at least 80 %; you have 60 % (4 of 20 deadlines "
        "missed, 1 of 4 matches abandoned).")
    client.force_login(newcomer)
    answer = client.post(f"/invite/{match.invite_token}/accept/", {"seat_number": ""})
    assert answer.status_code == 403
    assert "you have no reliability record yet" in answer.content.decode()
    services.seat_join(match_id=match.pk, user=steady)
    match.refresh_from_db()
    assert match.status == "active"


def test_the_minimum_is_a_percentage(make_user):
    alice = make_user("alice")
    with pytest.raises(services.ServiceError, match="percentage, 0 to 100"):
        services.match_create(creator=alice, game="toy-duel", options={}, hours_per_phase=24,
                              min_reliability=101,
                              seats=[{"kind": "human", "user": alice}, {"kind": "human"}])


def test_the_create_form_takes_a_minimum(make_user, client):
    alice = make_user("alice")
    client.force_login(alice)
    answer = client.post("/matches/new/", {
        "game": "toy-duel", "seat_count": 2, "options": "{}", "options_game": "toy-duel",
        "hours_per_phase": "24", "miss_policy": "replace", "miss_limit": 3, "is_public": "on",
        "seat_1": "me", "seat_2": "open", "min_reliability": "75", "title": "Picky"})
    assert answer.status_code in (302, 200), answer.content.decode()[:2000]
    assert Match.objects.get(title="Picky").min_reliability == 75
    answer = client.post("/matches/new/", {
        "game": "toy-duel", "seat_count": 2, "options": "{}", "hours_per_phase": "24",
        "miss_policy": "replace", "miss_limit": 3, "seat_1": "me", "seat_2": "open",
        "min_reliability": "150", "title": "Too picky"})
    assert answer.status_code == 400
    assert "less than or equal to 100" in answer.content.decode()


def test_a_tournament_with_a_minimum_refuses_registration(make_user, client):
    from competitions import services as competitions
    from competitions.models import Entry

    staff, flaky, steady = make_user("org", is_staff=True), make_user("flaky"), make_user("ok")
    give_record(flaky, finished=1, abandoned=1)
    give_record(steady, finished=2)
    tournament = competitions.tournament_create(by=staff, name="Reliable cup", game="toy-duel",
                                                format="round_robin", min_reliability=90)
    assert tournament.min_reliability == 90
    client.force_login(flaky)
    answer = client.post(f"/tournaments/{tournament.pk}/register/")
    assert answer.status_code == 403
    assert "This tournament asks for a reliability of at least 90 %; you have 50 %" in (
        answer.content.decode())
    competitions.tournament_register(tournament_id=tournament.pk, user=steady)
    assert list(Entry.objects.values_list("user__username", flat=True)) == ["ok"]


def test_the_profile_and_the_lobby_show_the_record(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    give_record(alice, finished=4, deadlines=10, missed=1)
    match = services.match_create(
        creator=alice, game="toy-duel", options={}, hours_per_phase=24, min_reliability=50,
        title="Open duel", seats=[{"kind": "human", "user": alice}, {"kind": "human"}])
    client.force_login(alice)
    profile = client.get("/accounts/profile/").content.decode()
    assert "<strong>90 %</strong> reliability" in profile
    assert "Matches played to the end</dt><dd>4" in profile
    client.force_login(bob)
    profile = client.get("/accounts/profile/").content.decode()
    assert "No record yet" in profile
    lobby = client.get("/").content.decode()
    assert "reliability 50 % or more to join" in lobby
    assert 'alice <span class="reliability" title="Reliability: 90 % (1 of 10 deadlines ' \
           'missed, 0 of 4 matches abandoned)">(90 %)</span>' in lobby
    invite = client.get(f"/invite/{match.invite_token}/").content.decode()
    assert "reliability 50 % or more to join" in invite and "alice <span" in invite
    assert "reliability 50 % or more to join" in client.get(
        f"/matches/{match.pk}/").content.decode()


@given(finished=st.integers(0, 50), abandoned=st.integers(0, 50),
       deadlines=st.integers(0, 500), missed=st.integers(0, 500), more=st.integers(1, 10))
def test_the_score_is_a_percentage_that_misses_and_abandonments_only_lower(
        finished, abandoned, deadlines, missed, more):
    missed = min(missed, deadlines)
    score = reliability_score(finished=finished, abandoned=abandoned, deadlines=deadlines,
                              missed=missed)
    if finished + abandoned == 0:
        assert score is None
        return
    assert 0 <= score <= 100
    assert reliability_score(finished=finished, abandoned=abandoned + more, deadlines=deadlines,
                             missed=missed) <= score
    assert reliability_score(finished=finished, abandoned=abandoned, deadlines=deadlines + more,
                             missed=min(missed + more, deadlines + more)) <= score


def test_a_moderator_excuses_a_miss_in_the_admin(make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    match = duel(alice, bob, options={"target": 1})
    submit(match, alice, 1, 1)
    pass_deadline(match)
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    resolve(match)
    dispatch()
    miss = DeadlineMiss.objects.get(user=bob)
    client.force_login(moderator)
    answer = client.post("/admin/games/deadlinemiss/", {
        "action": "excuse", "_selected_action": [miss.pk], "apply": "1", "reason": "ill"})
    assert answer.status_code == 302
    miss.refresh_from_db()
    assert miss.excused and miss.excused_by == moderator
    assert record(bob).score == 100
    assert client.get("/admin/games/reliability/").status_code == 200


# -- excusing needs the moderation permission, a reason, and leaves an audit row ---------------

@pytest.fixture
def missed(make_user):
    """A finished duel in which bob missed phase 1's deadline: (bob's miss, bob)."""
    alice, bob = make_user("alice"), make_user("bob")
    match = duel(alice, bob, options={"target": 1})
    submit(match, alice, 1, 1)
    pass_deadline(match)
    submit(match, alice, 1, 4)
    submit(match, bob, 2, 2)
    resolve(match)
    dispatch()
    return DeadlineMiss.objects.get(user=bob), bob


def as_moderator(user):
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get(name="Moderator"))
    return user


def test_staff_without_the_moderation_permission_cannot_excuse_a_miss(missed, make_user):
    miss, bob = missed
    staff = make_user("staff", is_staff=True)
    with pytest.raises(services.ServiceError) as refused:
        services.deadline_miss_excuse(miss_id=miss.pk, by=staff, reason="looked ill")
    assert refused.value.code == "not_allowed"
    with pytest.raises(services.ServiceError):
        services.deadline_miss_excuse(miss_id=miss.pk, by=None, reason="a script")
    miss.refresh_from_db()
    assert not miss.excused and record(bob).deadlines_missed == 1
    assert not ModerationEntry.objects.exists()


def test_a_moderator_excuses_with_a_reason_and_each_change_writes_one_audit_row(missed,
                                                                                make_user):
    miss, bob = missed
    moderator = as_moderator(make_user("mod", is_staff=True))
    with pytest.raises(services.ServiceError, match="Say why"):
        services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="  ")
    assert not ModerationEntry.objects.exists()
    services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="server trouble")
    services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="twice")  # no-op
    [entry] = ModerationEntry.objects.all()
    assert (entry.kind, entry.by, entry.reason, entry.match_id, entry.phase_number) == (
        "excuse", moderator, "server trouble", miss.match_id, 1)
    assert "excused the missed deadline of seat 2 in phase 1" in entry.summary
    assert record(bob).deadlines_missed == 0
    with pytest.raises(services.ServiceError, match="Say why"):
        services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="", excused=False)
    services.deadline_miss_excuse(miss_id=miss.pk, by=moderator, reason="he was not ill",
                                  excused=False)
    assert list(ModerationEntry.objects.values_list("kind", "reason")) == [
        ("excuse", "server trouble"), ("unexcuse", "he was not ill")]
    assert record(bob).deadlines_missed == 1


def test_the_admin_refuses_excusing_to_staff_without_the_moderation_permission(
        missed, client, make_user):
    from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
    from django.contrib.auth.models import Permission
    from django.urls import reverse

    miss, _bob = missed
    url = reverse("admin:games_deadlinemiss_changelist")
    post = {"action": "excuse", ACTION_CHECKBOX_NAME: [miss.pk], "apply": "1",
            "reason": "looked ill"}
    staff = make_user("staff", is_staff=True)
    client.force_login(staff)
    assert client.post(url, post).status_code == 403
    viewer = make_user("viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_deadlinemiss"))
    client.force_login(viewer)
    assert client.get(url).status_code == 200
    assert b"Excuse the selected" not in client.get(url).content
    client.post(url, post)
    miss.refresh_from_db()
    assert not miss.excused and not ModerationEntry.objects.exists()


def test_a_moderator_excuses_in_the_admin_after_giving_a_reason(missed, client, make_user):
    from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
    from django.urls import reverse

    miss, bob = missed
    client.force_login(as_moderator(make_user("mod", is_staff=True)))
    url = reverse("admin:games_deadlinemiss_changelist")
    asked = client.post(url, {"action": "excuse", ACTION_CHECKBOX_NAME: [miss.pk]})
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    miss.refresh_from_db()
    assert not miss.excused
    done = client.post(url, {"action": "excuse", ACTION_CHECKBOX_NAME: [miss.pk],
                             "apply": "1", "reason": "the mail server was down"}, follow=True)
    assert b"1 miss excused." in done.content
    miss.refresh_from_db()
    assert miss.excused and miss.excused_reason == "the mail server was down"
    [entry] = ModerationEntry.objects.all()
    assert (entry.kind, entry.reason) == ("excuse", "the mail server was down")
    client.post(url, {"action": "unexcuse", ACTION_CHECKBOX_NAME: [miss.pk], "apply": "1",
                      "reason": "my mistake"})
    miss.refresh_from_db()
    assert not miss.excused and ModerationEntry.objects.count() == 2
    assert record(bob).deadlines_missed == 1
