"""Writes on accounts (HackSoft style: keyword-only, named <entity>_<action>)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from portal.accounts.models import Profile


def profile_ensure(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created with defaults when missing."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def profile_update(*, user: AbstractBaseUser, **fields: Any) -> Profile:
    """Change profile fields after full validation (ValidationError names the bad field)."""
    profile = profile_ensure(user=user)
    for name, value in fields.items():
        setattr(profile, name, value)
    profile.full_clean(exclude=["user"])
    profile.save()
    return profile
