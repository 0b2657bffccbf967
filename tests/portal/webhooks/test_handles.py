"""A player's chat handle is private (no page shows it): a webhook carries it only to the chat
it is an id of (a Discord id to Discord, ...), only if the player allowed mentions, and the
generic format never, whoever set the webhook up (issue 49, finding 3)."""

from __future__ import annotations

import pytest

from competitions.models import Membership
from competitions.services.clubs import club_create, club_join_by_token, club_match_create
from durable.models import OutboxEvent
from durable.outbox import outbox_dispatch
from games import services as games
from tests.portal.webhooks.flush import flush

pytestmark = pytest.mark.django_db
HANDLES = {"discord": "123456789012345678", "slack": "U024BE7LH",
           "matrix": "@bob3:matrix.example.org"}
FORMATS = ("generic", "discord", "slack", "matrix")


def _set_handle(user, handle: str, mentions: bool) -> None:
    user.profile.chat_handle, user.profile.chat_mentions = handle, mentions
    user.profile.save()


def _club_match(make_user):
    """A club match made by an organiser between two members; the club's owner and another
    organiser look on."""
    owner = make_user("owner")
    club = club_create(by=owner, name="Tankers")
    people = {"owner": owner}
    for name in ("maker", "organiser", "p1", "p2"):
        people[name] = make_user(name)
        club_join_by_token(token=club.invite_token, user=people[name])
    Membership.objects.filter(club=club, user__username__in=["maker", "organiser"]).update(
        role=Membership.Role.ORGANISER)
    match = club_match_create(club_id=club.pk, by=people["maker"], game="toy-duel",
                              options={"target": 1}, players=[people["p1"], people["p2"]],
                              hours_per_phase=24)
    return club, match, people


def dispatch() -> None:
    """Carry out the promised side effects, as the worker does after the commit (a few
    rounds: a receiver that keeps failing fails the test instead of looping)."""
    for _ in range(5):
        ids = list(OutboxEvent.objects.filter(done_at__isnull=True).values_list("pk",
                                                                               flat=True))
        if not ids:
            return
        outbox_dispatch(ids=ids)
    pytest.fail("the outbox's events were not all carried out")


def _play_to_the_end(match, first, second) -> None:
    """Your move (phase 1), then the result: the first seat wins."""
    dispatch()
    for seat, user, number in ((1, first, 4), (2, second, 2)):
        games.orders_submit(match_id=match.pk, seat_number=seat, user=user, source="web",
                            phase_number=1, data={"number": number})
    games.phase_resolve(match_id=match.pk, phase_number=1)
    dispatch()
    flush()


@pytest.mark.parametrize("kind", sorted(HANDLES))
@pytest.mark.parametrize("role", ["match creator", "club owner", "club organiser",
                                  "creator who plays"])
def test_the_generic_format_never_carries_a_handle_whoever_set_it_up(
        receiver, hook, make_user, toy_duel, role, kind):
    if role == "creator who plays":
        match = toy_duel(options={"target": 1})
        first, second, owner = match.alice, match.bob, {"match": match, "by": match.alice}
    else:
        club, match, people = _club_match(make_user)
        first, second = people["p1"], people["p2"]
        owner = ({"match": match, "by": people["maker"]} if role == "match creator" else
                 {"club": club, "by": people["owner" if role == "club owner" else "organiser"]})
    for user in (first, second):
        _set_handle(user, HANDLES[kind], mentions=True)  # even with the player's consent
    for format_ in FORMATS:
        hook(f"/{format_}", format=format_, **owner)
    _play_to_the_end(match, first, second)
    generic = receiver.to("/generic")
    assert [post.json["event"] for post in generic] == ["your_move", "phase_resolved",
                                                        "match_ended"]
    for post in generic:
        assert HANDLES[kind].encode() not in post.body
        assert b"chat_handle" not in post.body
        assert all(set(player) == {"name"} for player in post.json.get("players", []))
    # The handle reaches its own chat, and no other.
    for format_ in FORMATS[1:]:
        bodies = b"".join(post.body for post in receiver.to(f"/{format_}"))
        assert (HANDLES[kind].encode() in bodies) is (format_ == kind), format_


@pytest.mark.parametrize("kind", sorted(HANDLES))
def test_without_the_players_consent_no_chat_gets_the_handle(receiver, hook, toy_duel, kind):
    match = toy_duel(options={"target": 1})
    for user in (match.alice, match.bob):
        _set_handle(user, HANDLES[kind], mentions=False)
    for format_ in FORMATS:
        hook(f"/{format_}", format=format_, by=match.alice, match=match)
    _play_to_the_end(match, match.alice, match.bob)
    for format_ in FORMATS:
        posts = receiver.to(f"/{format_}")
        assert len(posts) == 3, format_
        assert all(HANDLES[kind].encode() not in post.body for post in posts), format_
        assert all(match.bob.username.encode() in post.body for post in posts[:1]), format_


def test_the_profile_asks_for_consent_and_takes_only_a_chats_id(client, make_user):
    user = make_user("alice")
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="chat_mentions"' in page and "Mention me in chats" in page
    form = {"time_zone": "UTC", "language": "", "reminder_hours": "24",
            "chat_handle": HANDLES["discord"], "chat_mentions": "on"}
    assert client.post("/accounts/profile/", form).status_code in (200, 302)
    user.profile.refresh_from_db()
    assert (user.profile.chat_handle, user.profile.chat_mentions) == (HANDLES["discord"], True)
    answer = client.post("/accounts/profile/", {**form, "chat_handle": "Bob the tanker"})
    assert "A chat handle is a Discord user id" in answer.content.decode()
    user.profile.refresh_from_db()
    assert user.profile.chat_handle == HANDLES["discord"]
    client.post("/accounts/profile/", {key: value for key, value in form.items()
                                       if key != "chat_mentions"})
    user.profile.refresh_from_db()
    assert user.profile.chat_mentions is False
