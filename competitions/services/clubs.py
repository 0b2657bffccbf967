"""Clubs: creating, membership and roles, invitations (link and e-mail), join requests.

Removing a member holds until an organiser lifts it (``ClubRemoval``): every way in (the club's
link, an e-mailed invitation, a join request) goes through ``_add_member``, which refuses them.
An e-mailed invitation admits once; the club's link admits anyone who has it, until an
organiser resets it."""

from __future__ import annotations

import hmac
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from competitions.models import (
    Club,
    ClubInvitation,
    ClubMatch,
    ClubRemoval,
    JoinRequest,
    Membership,
)
from competitions.signals import club_invited
from games.models import Match
from games.parsing import id_or_none
from games.services import ServiceError, match_create

Role = Membership.Role


def _require_user(user: AbstractBaseUser | None) -> None:
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in first."))


def club_lock(club_id: Any) -> Club:
    try:
        return Club.objects.select_for_update().get(pk=id_or_none(club_id))
    except (Club.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no club %(id)s.") % {
            "id": str(club_id)[:20]}) from None


def membership_of(club: Club, user: AbstractBaseUser | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user_id=user.pk).first()


def require_organiser(club: Club, user: AbstractBaseUser | None) -> Membership | None:
    """The user's membership if they organise ``club`` (staff pass with None)."""
    _require_user(user)
    membership = membership_of(club, user)
    if membership is not None and membership.can_organise:
        return membership
    if getattr(user, "is_staff", False):
        return membership
    raise ServiceError("not_allowed", _("Only the club's owner and organisers may do that."))


def organising_club(*, by: AbstractBaseUser | None, club_id: Any, site_wide_refusal: str
                    ) -> Club | None:
    """The club ``club_id`` names, ``by`` organising it; None (site-wide) when ``club_id`` is
    empty, for admins only (others get ``site_wide_refusal``). What a new tournament or league
    asks first."""
    if by is None or not by.is_authenticated:
        raise ServiceError("not_allowed", _("Log in first."))
    if club_id in (None, ""):
        if not by.is_staff:
            raise ServiceError("not_allowed", site_wide_refusal)
        return None
    club = Club.objects.filter(pk=id_or_none(club_id)).first()
    if club is None:
        raise ServiceError("not_found", _("There is no such club."))
    require_organiser(club, by)
    return club


@transaction.atomic
def club_create(*, by: AbstractBaseUser, name: str, description: str = "",
                is_public: bool = True, slug: str = "") -> Club:
    """Create a club; its creator is the owner."""
    _require_user(by)
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise ServiceError("invalid", _("A club needs a name of 1 to 80 characters."))
    slug = slugify(slug or name)[:60]
    if not slug:
        raise ServiceError("invalid", _("The club's name needs a letter or a digit."))
    if Club.objects.filter(slug=slug).exists():
        raise ServiceError("invalid", _("The address “%(slug)s” is taken; choose another name.") % {
            "slug": slug})
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, description=description or "",
                                       is_public=bool(is_public), created_by=by)
    except IntegrityError:
        raise ServiceError("invalid", _("The address “%(slug)s” is taken.") % {
            "slug": slug}) from None
    Membership.objects.create(club=club, user=by, role=Role.OWNER)
    return club


def _removal_in_force(club: Club, user_id: Any) -> bool:
    return ClubRemoval.objects.filter(club=club, user_id=user_id, lifted_at__isnull=True).exists()


def _refuse_if_removed(club: Club, user: AbstractBaseUser) -> None:
    if _removal_in_force(club, user.pk):
        raise ServiceError("removed", _(
            "The organisers of %(club)s removed you from the club. You can join again only "
            "after one of them lets you back in.") % {"club": club.name})


def _add_member(club: Club, user: AbstractBaseUser) -> Membership:
    """The way into a club (the caller holds the club's lock); refused while a removal holds."""
    existing = membership_of(club, user)
    if existing is not None:
        return existing
    _refuse_if_removed(club, user)
    membership, _created = Membership.objects.get_or_create(club=club, user=user,
                                                            defaults={"role": Role.MEMBER})
    JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
        status=JoinRequest.Status.APPROVED, decided_at=timezone.now())
    return membership


@transaction.atomic
def club_join_by_token(*, token: str, user: AbstractBaseUser) -> Membership:
    """Join with the club's invitation link, or with an e-mailed invitation (it admits once:
    used, it only shows its user the club while they are still a member)."""
    _require_user(user)
    token = str(token or "")
    invitation = ClubInvitation.objects.select_for_update().filter(token=token).first()
    if invitation is not None:
        club = club_lock(invitation.club_id)
        if invitation.accepted_at is not None:
            membership = membership_of(club, user)
            if membership is None:
                raise ServiceError("bad_invite", _(
                    "This invitation has already been used. Ask the club's organisers for a "
                    "new one."))
            return membership
        membership = _add_member(club, user)
        invitation.accepted_by = user
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_by", "accepted_at"])
        return membership
    club = Club.objects.filter(invite_token=token).first()
    if club is None or not hmac.compare_digest(token, club.invite_token):
        raise ServiceError("bad_invite", _(
            "This invitation link does not work (any more): the club's organisers may have "
            "replaced it. Ask them for the current one."))
    return _add_member(club_lock(club.pk), user)


@transaction.atomic
def club_invite_email(*, club_id: Any, by: AbstractBaseUser, email: str) -> ClubInvitation:
    """Invite someone by e-mail (organisers): the mail carries a one-time link."""
    club = club_lock(club_id)
    require_organiser(club, by)
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError("invalid", _("“%(email)s” is not an e-mail address.") % {
            "email": str(email)[:100]}) from None
    invitation = ClubInvitation.objects.create(club=club, email=email, invited_by=by)
    club_invited.send(sender=ClubInvitation, invitation=invitation)
    return invitation


@transaction.atomic
def club_invite_link_reset(*, club_id: Any, by: AbstractBaseUser) -> Club:
    """A new invitation link for the club: the old one stops working at once (e-mailed
    invitations keep theirs)."""
    from competitions.models import new_token

    club = club_lock(club_id)
    require_organiser(club, by)
    club.invite_token = new_token()
    club.save(update_fields=["invite_token"])
    return club


@transaction.atomic
def club_request_join(*, club_id: Any, user: AbstractBaseUser, message: str = "") -> JoinRequest:
    """Ask to join a public club; an organiser decides."""
    _require_user(user)
    club = club_lock(club_id)
    if not club.is_public:
        raise ServiceError("not_allowed", _("This club is by invitation only."))
    if membership_of(club, user) is not None:
        raise ServiceError("invalid", _("You are already a member of this club."))
    _refuse_if_removed(club, user)
    pending = JoinRequest.objects.filter(club=club, user=user,
                                         status=JoinRequest.Status.PENDING).first()
    if pending is not None:
        return pending
    return JoinRequest.objects.create(club=club, user=user, message=(message or "")[:255])


@transaction.atomic
def club_request_decide(*, request_id: Any, by: AbstractBaseUser, approve: bool) -> JoinRequest:
    try:
        join_request = JoinRequest.objects.select_for_update().get(pk=request_id)
    except (JoinRequest.DoesNotExist, ValueError, TypeError):
        raise ServiceError("not_found", _("There is no such request.")) from None
    club = club_lock(join_request.club_id)
    require_organiser(club, by)
    if join_request.status != JoinRequest.Status.PENDING:
        raise ServiceError("not_open", _("This request has already been decided."))
    if approve and _removal_in_force(club, join_request.user_id):
        raise ServiceError("removed", _(
            "%(name)s was removed from the club: let them back in before approving their "
            "request.") % {"name": join_request.user.get_username()})
    join_request.status = (JoinRequest.Status.APPROVED if approve
                           else JoinRequest.Status.DECLINED)
    join_request.decided_by = by
    join_request.decided_at = timezone.now()
    join_request.save(update_fields=["status", "decided_by", "decided_at"])
    if approve:
        _add_member(club, join_request.user)
    return join_request


def _owners_left(club: Club, without: Membership) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).exclude(pk=without.pk).count()


@transaction.atomic
def club_leave(*, club_id: Any, user: AbstractBaseUser) -> None:
    _require_user(user)
    club = club_lock(club_id)
    membership = membership_of(club, user)
    if membership is None:
        raise ServiceError("not_found", _("You are not a member of this club."))
    if membership.role == Role.OWNER and not _owners_left(club, membership):
        raise ServiceError("invalid", _("You are the club's only owner: name another first."))
    membership.delete()


@transaction.atomic
def club_member_remove(*, club_id: Any, by: AbstractBaseUser, user_id: Any) -> None:
    """Organisers remove members; only an owner removes an organiser or another owner. The
    removal holds (no link, invitation or request lets them back in) until an organiser lifts
    it with ``club_removal_lift``."""
    club = club_lock(club_id)
    mine = require_organiser(club, by)
    target = Membership.objects.filter(club=club, user_id=id_or_none(user_id)).first()
    if target is None:
        raise ServiceError("not_found", _("That person is not a member of this club."))
    is_owner = (mine is not None and mine.role == Role.OWNER) or getattr(by, "is_staff", False)
    if target.role != Role.MEMBER and not is_owner:
        raise ServiceError("not_allowed", _("Only an owner may remove an organiser or an owner."))
    if target.role == Role.OWNER and not _owners_left(club, target):
        raise ServiceError("invalid", _("A club keeps at least one owner."))
    target.delete()
    if not _removal_in_force(club, target.user_id):
        ClubRemoval.objects.create(club=club, user_id=target.user_id, removed_by=by)


@transaction.atomic
def club_removal_lift(*, club_id: Any, by: AbstractBaseUser, user_id: Any) -> ClubRemoval:
    """An organiser lets a removed person join again (by the club's link, an invitation or a
    request; they are not made a member by this)."""
    club = club_lock(club_id)
    require_organiser(club, by)
    removal = ClubRemoval.objects.select_for_update().filter(
        club=club, user_id=user_id, lifted_at__isnull=True).first() if str(
        user_id).isdigit() else None
    if removal is None:
        raise ServiceError("not_found", _("That person is not removed from this club."))
    removal.lifted_by = by
    removal.lifted_at = timezone.now()
    removal.save(update_fields=["lifted_by", "lifted_at"])
    return removal


@transaction.atomic
def club_member_set_role(*, club_id: Any, by: AbstractBaseUser, user_id: Any,
                         role: str) -> Membership:
    club = club_lock(club_id)
    mine = require_organiser(club, by)
    if not ((mine is not None and mine.role == Role.OWNER) or getattr(by, "is_staff", False)):
        raise ServiceError("not_allowed", _("Only an owner changes roles."))
    if role not in Role.values:
        raise ServiceError("invalid", _("Unknown role “%(role)s”.") % {"role": str(role)[:40]})
    target = Membership.objects.filter(club=club, user_id=id_or_none(user_id)).first()
    if target is None:
        raise ServiceError("not_found", _("That person is not a member of this club."))
    if target.role == Role.OWNER and role != Role.OWNER and not _owners_left(club, target):
        raise ServiceError("invalid", _("A club keeps at least one owner."))
    target.role = role
    target.save(update_fields=["role"])
    return target


@transaction.atomic
def club_match_create(*, club_id: Any, by: AbstractBaseUser, game: str, options: dict,
                      players: list[AbstractBaseUser], hours_per_phase: Any,
                      title: str = "") -> Match:
    """An organiser creates a club-only (private) match between members; seats left empty
    (None) are joined through the club page."""
    club = club_lock(club_id)
    require_organiser(club, by)
    member_ids = set(Membership.objects.filter(club=club).values_list("user_id", flat=True))
    for player in players:
        if player is not None and player.pk not in member_ids:
            raise ServiceError("invalid", _("%(player)s is not a member of %(club)s.") % {
                "player": player, "club": club})
    match = match_create(creator=by, game=game, options=options, hours_per_phase=hours_per_phase,
                         seats=[{"kind": "human", "user": p} for p in players],
                         is_public=False, title=title or f"{club.name} match")
    ClubMatch.objects.create(club=club, match=match, created_by=by)
    return match
