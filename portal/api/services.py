"""Creating, revoking and checking API tokens (keyword-only, named <entity>_<action>)."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from portal.api.models import ApiToken

TOKEN_PREFIX = "tp_"
MAX_LIVE_TOKENS = 10


def token_hash(token: str) -> str:
    # Tokens are 256 random bits: a plain SHA-256 cannot be brute-forced, unlike a password.
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class NewToken:
    """A created token: the row, and the token itself (shown once, stored nowhere)."""

    row: ApiToken
    token: str


def api_token_create(*, user: AbstractBaseUser, name: str) -> NewToken:
    """A new token for ``user``; ValidationError if the name is empty or too many are live."""
    name = (name or "").strip()
    if not name:
        raise ValidationError(_("Give the token a name, e.g. “my bot”."))
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise ValidationError(_("The name is too long (60 characters at most)."))
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_LIVE_TOKENS:
        raise ValidationError(_("You have %(count)s tokens already: revoke one first.") % {
            "count": MAX_LIVE_TOKENS})
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken.objects.create(user=user, name=name, key_hash=token_hash(token),
                                  prefix=token[:10])
    return NewToken(row=row, token=token)


def api_token_revoke(*, user: AbstractBaseUser, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens (ValidationError if it is not theirs or already gone)."""
    row = ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).first()
    if row is None:
        raise ValidationError(_("There is no such token."))
    row.revoked_at = timezone.now()
    row.save(update_fields=["revoked_at"])
    return row


def api_token_check(*, token: str) -> ApiToken | None:
    """The live token row for ``token`` (its user active), or None."""
    if not isinstance(token, str) or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        return None
    row = (ApiToken.objects.select_related("user")
           .filter(key_hash=token_hash(token), revoked_at__isnull=True).first())
    if row is None or not row.user.is_active:
        return None
    now = timezone.now()
    if row.last_used_at is None or (now - row.last_used_at).total_seconds() > 60:
        # At most one write a minute per token, not one per request.
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row
