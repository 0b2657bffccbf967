"""Writes of the player pages: who may read one's page."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.services import ServiceError
from portal.players.models import PagePrivacy


@transaction.atomic
def page_privacy_set(*, user: Any, members_only: bool) -> PagePrivacy:
    if user is None or not user.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to choose who sees your page."))
    if not isinstance(members_only, bool):
        raise ServiceError("invalid", _("Say yes or no."))
    privacy, _created = PagePrivacy.objects.update_or_create(
        user_id=user.pk, defaults={"members_only": members_only})
    return privacy
