"""Writes on accounts (HackSoft style: keyword-only, named <entity>_<action>)."""

from __future__ import annotations

from datetime import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clocks.services import HoursError, active_hours_of, active_hours_set
from portal.accounts.models import Profile

KEEP = object()  # profile_update: leave the active hours as they are


def profile_ensure(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created with defaults when missing."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def superuser_email_trust(*, user: AbstractBaseUser) -> None:
    """A superuser made on the command line (``createsuperuser``) can log in at once: whoever
    runs that command owns the site, so their address counts as verified."""
    from allauth.account.models import EmailAddress

    email = getattr(user, "email", "")
    # An address another account already holds stays that account's (unique addresses).
    if email and not EmailAddress.objects.filter(email__iexact=email).exists():
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)


def profile_language_set(*, user: AbstractBaseUser, language: str) -> Profile:
    """Set the profile's language (pages and mails), one of the site's LANGUAGES
    (ValidationError otherwise)."""
    if language not in dict(settings.LANGUAGES):
        raise ValidationError(_("“%(language)s” is not one of this site's languages."),
                              code="invalid", params={"language": language})
    profile = profile_ensure(user=user)
    if profile.language != language:
        profile.language = language
        profile.save(update_fields=["language", "updated_at"])
    return profile


@transaction.atomic
def profile_update(*, user: AbstractBaseUser, active_from: time | None | object = KEEP,
                   active_until: time | None | object = KEEP, **fields: Any) -> Profile:
    """Change profile fields after full validation (ValidationError names the bad field).
    With ``active_from``/``active_until`` (both None: none) the player's active hours are set
    too, in the profile's time zone; they follow a change of time zone."""
    profile = profile_ensure(user=user)
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.full_clean(exclude=["user"])
    profile.save()
    if active_from is KEEP and active_until is KEEP:
        hours = active_hours_of(user)
        active_from, active_until = (hours.start, hours.end) if hours else (None, None)
    try:
        active_hours_set(user=user, start=active_from, end=active_until,  # type: ignore[arg-type]
                         time_zone=profile.time_zone)
    except HoursError as error:
        raise ValidationError(str(error), code="invalid") from None
    return profile


@transaction.atomic
def notifications_update(*, user: AbstractBaseUser, channels: dict[str, list[str]],
                         mail_delivery: str) -> Profile:
    """Save the player's notification choices after full validation (ValidationError says
    what is wrong)."""
    profile = Profile.objects.select_for_update().get(pk=profile_ensure(user=user).pk)
    profile.channels, profile.mail_delivery = channels, mail_delivery
    profile.full_clean(exclude=["user"])
    profile.save(update_fields=["channels", "mail_delivery", "updated_at"])
    return profile
