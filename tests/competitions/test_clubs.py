"""Clubs: roles, invitations by link and e-mail, join requests, leaving and removal."""

import pytest

from competitions import services
from competitions.models import JoinRequest, Membership
from games.services import ServiceError
from portal.mail.models import OutgoingEmail

pytestmark = pytest.mark.django_db


def test_the_founder_owns_the_club_and_the_slug_is_unique(make_user):
    alice = make_user("alice")
    club = services.club_create(by=alice, name="Panzer Club", description="d")
    assert club.slug == "panzer-club"
    assert Membership.objects.get(club=club, user=alice).role == "owner"
    with pytest.raises(ServiceError) as error:
        services.club_create(by=alice, name="Panzer  club!")
    assert error.value.code == "invalid"


def test_joining_by_the_club_link_and_by_an_emailed_invitation(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    club = services.club_create(by=alice, name="Private", is_public=False)
    services.club_join_by_token(token=club.invite_token, user=bob)
    assert Membership.objects.get(club=club, user=bob).role == "member"
    invitation = services.club_invite_email(club_id=club.pk, by=alice, email="carol@x.test")
    mail = OutgoingEmail.objects.get(dedupe_key=f"club-invite:{invitation.pk}")
    assert invitation.token in mail.body_text and mail.to == "carol@x.test"
    services.club_join_by_token(token=invitation.token, user=carol)
    dave = make_user("dave")
    with pytest.raises(ServiceError) as error:
        services.club_join_by_token(token=invitation.token, user=dave)
    assert error.value.code == "bad_invite"
    with pytest.raises(ServiceError):
        services.club_join_by_token(token="nonsense", user=dave)


def test_only_organisers_invite_and_the_address_must_be_valid(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    club = services.club_create(by=alice, name="C")
    services.club_join_by_token(token=club.invite_token, user=bob)
    with pytest.raises(ServiceError) as error:
        services.club_invite_email(club_id=club.pk, by=bob, email="x@y.test")
    assert error.value.code == "not_allowed"
    with pytest.raises(ServiceError) as error:
        services.club_invite_email(club_id=club.pk, by=alice, email="not an address")
    assert error.value.code == "invalid"


def test_public_clubs_take_join_requests_that_an_organiser_decides(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    public = services.club_create(by=alice, name="Public")
    request = services.club_request_join(club_id=public.pk, user=bob, message="hi")
    assert services.club_request_join(club_id=public.pk, user=bob) == request  # once
    services.club_request_decide(request_id=request.pk, by=alice, approve=True)
    assert Membership.objects.filter(club=public, user=bob).exists()
    declined = services.club_request_join(club_id=public.pk, user=carol)
    with pytest.raises(ServiceError):
        services.club_request_decide(request_id=declined.pk, by=bob, approve=True)
    services.club_request_decide(request_id=declined.pk, by=alice, approve=False)
    assert JoinRequest.objects.get(pk=declined.pk).status == "declined"
    private = services.club_create(by=alice, name="Private", is_public=False)
    with pytest.raises(ServiceError) as error:
        services.club_request_join(club_id=private.pk, user=carol)
    assert error.value.code == "not_allowed"


def test_leaving_and_removal_keep_an_owner(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    club = services.club_create(by=alice, name="C")
    for user in (bob, carol):
        services.club_join_by_token(token=club.invite_token, user=user)
    with pytest.raises(ServiceError):
        services.club_leave(club_id=club.pk, user=alice)  # the only owner
    services.club_member_set_role(club_id=club.pk, by=alice, user_id=bob.pk, role="organiser")
    with pytest.raises(ServiceError) as error:
        services.club_member_remove(club_id=club.pk, by=bob, user_id=alice.pk)
    assert error.value.code == "not_allowed"
    services.club_member_remove(club_id=club.pk, by=bob, user_id=carol.pk)
    assert not Membership.objects.filter(club=club, user=carol).exists()
    services.club_leave(club_id=club.pk, user=bob)
    with pytest.raises(ServiceError):
        services.club_member_set_role(club_id=club.pk, by=alice, user_id=alice.pk,
                                      role="member")
    with pytest.raises(ServiceError):
        services.club_member_set_role(club_id=club.pk, by=alice, user_id="x", role="member")


def test_organisers_create_club_only_matches_between_members(make_user):
    alice, bob, stranger = make_user("alice"), make_user("bob"), make_user("stranger")
    club = services.club_create(by=alice, name="C")
    services.club_join_by_token(token=club.invite_token, user=bob)
    match = services.club_match_create(club_id=club.pk, by=alice, game="toy-duel", options={},
                                       players=[alice, bob], hours_per_phase=24)
    assert match.status == "active" and not match.is_public
    assert match.club_link.club == club
    with pytest.raises(ServiceError):
        services.club_match_create(club_id=club.pk, by=alice, game="toy-duel", options={},
                                   players=[alice, stranger], hours_per_phase=24)
    with pytest.raises(ServiceError):
        services.club_match_create(club_id=club.pk, by=bob, game="toy-duel", options={},
                                   players=[alice, bob], hours_per_phase=24)


def test_a_removed_member_cannot_rejoin_by_any_way_until_an_organiser_lets_them_back(
        make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    club = services.club_create(by=alice, name="Public")
    services.club_join_by_token(token=club.invite_token, user=bob)
    invitation = services.club_invite_email(club_id=club.pk, by=alice, email="carol@x.test")
    services.club_join_by_token(token=invitation.token, user=carol)
    for user in (bob, carol):
        services.club_member_remove(club_id=club.pk, by=alice, user_id=user.pk)
    ways_back = {
        "the club's link": lambda user: services.club_join_by_token(token=club.invite_token,
                                                                   user=user),
        "a new invitation": lambda user: services.club_join_by_token(
            token=services.club_invite_email(club_id=club.pk, by=alice,
                                             email=f"{user}@x.test").token, user=user),
        "a join request": lambda user: services.club_request_join(club_id=club.pk, user=user),
    }
    for way, attempt in ways_back.items():
        with pytest.raises(ServiceError) as refused:
            attempt(bob)
        assert refused.value.code == "removed", way
        assert "removed you" in refused.value.message
    with pytest.raises(ServiceError):
        services.club_join_by_token(token=invitation.token, user=carol)  # her old invitation
    assert not Membership.objects.filter(club=club, user__in=[bob, carol]).exists()
    assert not JoinRequest.objects.filter(user=bob).exists()
    with pytest.raises(ServiceError) as refused:
        services.club_removal_lift(club_id=club.pk, by=bob, user_id=bob.pk)
    assert refused.value.code == "not_allowed"
    services.club_removal_lift(club_id=club.pk, by=alice, user_id=bob.pk)
    with pytest.raises(ServiceError) as refused:
        services.club_removal_lift(club_id=club.pk, by=alice, user_id=bob.pk)
    assert refused.value.code == "not_found"
    services.club_join_by_token(token=club.invite_token, user=bob)
    assert Membership.objects.get(club=club, user=bob).role == "member"
    services.club_member_remove(club_id=club.pk, by=alice, user_id=bob.pk)  # removed again
    with pytest.raises(ServiceError):
        services.club_join_by_token(token=club.invite_token, user=bob)


def test_an_emailed_invitation_admits_once_even_its_own_user(make_user):
    alice, carol = make_user("alice"), make_user("carol")
    club = services.club_create(by=alice, name="Private", is_public=False)
    invitation = services.club_invite_email(club_id=club.pk, by=alice, email="carol@x.test")
    services.club_join_by_token(token=invitation.token, user=carol)
    services.club_join_by_token(token=invitation.token, user=carol)  # a second click: harmless
    services.club_leave(club_id=club.pk, user=carol)
    with pytest.raises(ServiceError) as refused:
        services.club_join_by_token(token=invitation.token, user=carol)
    assert refused.value.code == "bad_invite" and "already been used" in refused.value.message
    assert not Membership.objects.filter(club=club, user=carol).exists()


def test_resetting_the_club_link_stops_the_old_one_at_once(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    club = services.club_create(by=alice, name="C")
    old = club.invite_token
    services.club_join_by_token(token=old, user=bob)
    with pytest.raises(ServiceError) as refused:
        services.club_invite_link_reset(club_id=club.pk, by=bob)
    assert refused.value.code == "not_allowed"
    new = services.club_invite_link_reset(club_id=club.pk, by=alice).invite_token
    assert new != old
    with pytest.raises(ServiceError) as refused:
        services.club_join_by_token(token=old, user=carol)
    assert refused.value.code == "bad_invite"
    services.club_join_by_token(token=new, user=carol)
    assert Membership.objects.filter(club=club, user=carol).exists()


def test_the_clubs_finished_matches_tell_their_result_in_the_readers_language(client,
                                                                              make_user):
    """A result's reason is the game's stored English: the club page reads it in French."""
    from django.conf import settings
    from django.urls import reverse
    from django.utils import timezone

    from games.models import Match

    alice, bob = make_user("alice"), make_user("bob")
    club = services.club_create(by=alice, name="C")
    services.club_join_by_token(token=club.invite_token, user=bob)
    match = services.club_match_create(club_id=club.pk, by=alice, game="final-act", options={},
                                       players=[alice, bob], hours_per_phase=24)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now(),
        result={"ranking": [[1, 2]], "reason": "The round limit (2) was reached: draw."})
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = client.get(reverse("competitions:club", args=[club.slug])).content.decode()
    assert "La limite de manches (2) est atteinte : match nul." in page
