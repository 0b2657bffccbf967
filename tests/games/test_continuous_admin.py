"""Admin: the logbook of continuous matches, and striking an entry out (replay + audit row)."""

from datetime import timedelta

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from games import services
from games.models import Action, LogbookStrike, ModerationEntry
from games.services import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def race(make_user):
    users = [make_user(f"adm{n}") for n in (1, 2)]
    match = services.match_create(
        creator=users[0], game="toy-race", hours_per_phase=24,
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": u} for u in users])
    start = match.deadline - timedelta(minutes=30)  # well inside one gameday
    for seat, user in enumerate(users, start=1):
        services.actions_apply(match_id=match.pk, seat_number=seat, user=user,
                               action={"type": "step"}, source="web",
                               now=start + timedelta(seconds=seat))
    return match


def test_the_logbook_admin_pages_open(admin_client, race):
    row = Action.objects.filter(match=race).first()
    for url in (reverse("admin:games_action_changelist"),
                reverse("admin:games_action_change", args=[row.pk]),
                reverse("admin:games_logbookstrike_changelist")):
        assert admin_client.get(url).status_code == 200, url


def test_striking_out_asks_for_a_reason_then_replays_and_audits(admin_client, race):
    first = Action.objects.get(match=race, seq=1)
    url = reverse("admin:games_action_changelist")
    ask = admin_client.post(url, {"action": "strike_out", ACTION_CHECKBOX_NAME: [first.pk]})
    assert ask.status_code == 200 and b"Strike out and replay" in ask.content
    assert not LogbookStrike.objects.exists()
    done = admin_client.post(url, {"action": "strike_out", ACTION_CHECKBOX_NAME: [first.pk],
                                   "apply": "1", "reason": "double click"})
    assert done.status_code == 302
    again = admin_client.post(url, {"action": "strike_out", ACTION_CHECKBOX_NAME: [first.pk],
                                    "apply": "1", "reason": "double click"}, follow=True)
    assert b"1 were struck already" in again.content
    audit = LogbookStrike.objects.get()
    assert audit.action == first and audit.reason == "double click"
    race.refresh_from_db()
    assert race.state["runners"]["1"]["at"] == 0  # replayed without seat 1's step
    assert race.state["runners"]["2"]["at"] > 0


def test_striking_a_tank_move_puts_the_tank_back_and_keeps_the_others(make_user):
    import engine
    import engine.tank_game  # noqa: F401  (registers "tank-game" if BUILTIN_GAMES does not yet)

    users = [make_user(f"tk{n}") for n in (1, 2)]
    match = services.match_create(
        creator=users[0], game="tank-game", hours_per_phase=24,
        options={"schedule": {"kind": "every", "minutes": 60, "open_minutes": 60}},
        seats=[{"kind": "human", "user": u} for u in users])
    game = engine.get("tank-game")
    services.gameday_tick(match_id=match.pk)
    match.refresh_from_db()
    spawn = {t["seat"]: t["at"] for t in game.view(match.state, None)["tanks"]}
    moved = {}
    for seat, user in enumerate(users, start=1):
        match.refresh_from_db()
        move = next(a for a in game.legal_actions(match.state, seat) if a["type"] == "move")
        services.actions_apply(match_id=match.pk, seat_number=seat, user=user, action=move,
                               source="web")
        moved[seat] = move["to"]
    first_move = Action.objects.get(match=match, kind="action", seat=1)
    assert services.logbook_strike(action_id=first_move.pk,
                                   by=make_user("mod", is_superuser=True), reason="misclick")
    match.refresh_from_db()
    where = {t["seat"]: t["at"] for t in game.view(match.state, None)["tanks"]}
    assert where == {1: spawn[1], 2: moved[2]}
    assert services.match_replay(match=match) == match.state


def test_extending_the_deadline_of_a_continuous_match_is_refused(admin_client, race,
                                                                  django_user_model):
    """Its next gameday begins at a scheduled time: not a deadline, and it never moves."""
    before = race.deadline
    with pytest.raises(services.ServiceError) as caught:
        services.match_deadline_extend(
            match_id=race.pk, hours=24, reason="a test",
            by=django_user_model.objects.filter(is_superuser=True).first())
    assert caught.value.code == "not_allowed" and "gameday" in caught.value.message
    response = admin_client.post(reverse("admin:games_match_changelist"), {
        "action": "extend_deadline_24h", ACTION_CHECKBOX_NAME: [race.pk], "apply": "1",
        "reason": "the server was down"}, follow=True)
    assert response.status_code == 200
    assert "gameday" in response.content.decode()
    race.refresh_from_db()
    assert race.deadline == before


def moderator_of(user):
    from django.contrib.auth.models import Group

    user.groups.add(Group.objects.get(name="Moderator"))
    return user


def test_staff_without_the_moderation_permission_cannot_strike_an_entry(race, make_user,
                                                                        client):
    from django.contrib.auth.models import Permission

    first = Action.objects.get(match=race, seq=1)
    race.refresh_from_db()
    before = race.state
    staff = make_user("staff", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_action"))
    with pytest.raises(ServiceError) as refused:
        services.logbook_strike(action_id=first.pk, by=staff, reason="looked wrong")
    assert refused.value.code == "not_allowed"
    client.force_login(staff)
    url = reverse("admin:games_action_changelist")
    assert b"Strike out the selected" not in client.get(url).content
    client.post(url, {"action": "strike_out", ACTION_CHECKBOX_NAME: [first.pk], "apply": "1",
                      "reason": "looked wrong"})
    first.refresh_from_db()
    race.refresh_from_db()
    assert not first.struck and race.state == before
    assert not LogbookStrike.objects.exists() and not ModerationEntry.objects.exists()


def test_a_moderator_strikes_an_entry_with_a_reason_and_one_audit_row(race, make_user, client):
    first, second = (Action.objects.get(match=race, seq=n) for n in (1, 2))
    moderator = moderator_of(make_user("mod", is_staff=True))
    with pytest.raises(ServiceError, match="Say why"):
        services.logbook_strike(action_id=first.pk, by=moderator, reason=" ")
    assert services.logbook_strike(action_id=first.pk, by=moderator, reason="double click")
    assert not services.logbook_strike(action_id=first.pk, by=moderator, reason="again")
    [entry] = ModerationEntry.objects.all()
    assert (entry.kind, entry.by, entry.reason, entry.match_id) == (
        "strike", moderator, "double click", race.pk)
    assert "struck out logbook entry #1" in entry.summary
    client.force_login(moderator)
    url = reverse("admin:games_action_changelist")
    done = client.post(url, {"action": "strike_out", ACTION_CHECKBOX_NAME: [second.pk],
                             "apply": "1", "reason": "cheating"})
    assert done.status_code == 302
    second.refresh_from_db()
    assert second.struck and second.struck_by == moderator
    assert list(ModerationEntry.objects.values_list("kind", "reason")) == [
        ("strike", "double click"), ("strike", "cheating")]
