"""Subscriptions: a browser's endpoint and keys, saved for its player (and checked: a push we
could never encrypt or deliver is refused here, with the reason), their per-device choices,
removal, and the signed link of one-click unsubscribe."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games.parsing import id_or_none
from games.services import ServiceError
from portal import outbound
from portal.push.models import PushSubscription
from portal.push.vapid import b64url_decode

UNSUBSCRIBE_SALT = "portal.push.unsubscribe"
MAX_SUBSCRIPTIONS_PER_USER = 20
CHOICES = ("your_move", "reminders", "results")


def has_subscription(user_id: Any) -> bool:
    """Whether the player has a device that takes pushes (the profile offers push only then:
    ``portal.accounts.notifications.device_check_register``)."""
    return PushSubscription.objects.filter(user_id=user_id).exists()


def _key(value: Any, name: str, length: int) -> bytes:
    if not isinstance(value, str) or not value:
        raise ServiceError("invalid", _("The subscription has no keys.%(name)s.") % {"name": name})
    try:
        raw = b64url_decode(value.strip())
    except (ValueError, TypeError) as error:
        raise ServiceError("invalid", _("keys.%(name)s is not base64url.") % {
            "name": name}) from error
    if len(raw) != length:
        raise ServiceError("invalid", _(
            "keys.%(name)s must be %(length)s bytes, not %(found)s.") % {
            "name": name, "length": length, "found": len(raw)})
    return raw


def endpoint_policy() -> outbound.Policy:
    """Where push endpoints may be: https, port 443, a global address of a push service."""
    return outbound.Policy(hosts=tuple(settings.PUSH_ENDPOINT_HOSTS))


def _endpoint_refused(refused: outbound.Refused) -> ServiceError:
    return ServiceError("invalid", _(
        "Push endpoints must be https on port 443 at a public address of a browser's push "
        "service. %(reason)s") % {"reason": refused.reason})


def _check_endpoint(endpoint: Any) -> str:
    """The endpoint's URL, without DNS (``_resolve_endpoint`` does the rest)."""
    if not isinstance(endpoint, str) or not endpoint.strip():
        raise ServiceError("invalid", _("The subscription has no endpoint."))
    endpoint = endpoint.strip()
    if len(endpoint) > 1000:
        raise ServiceError("invalid", _("The endpoint is longer than 1000 characters."))
    try:
        outbound.check(endpoint, policy=endpoint_policy())
    except outbound.Refused as refused:
        raise _endpoint_refused(refused) from None
    return endpoint


def _resolve_endpoint(endpoint: str) -> None:
    try:
        outbound.resolve(endpoint, policy=endpoint_policy())
    except outbound.Refused as refused:
        raise _endpoint_refused(refused) from None


def subscription_check(data: Any) -> dict[str, str]:
    """The fields of a browser's ``PushSubscription.toJSON()``, checked: an https endpoint on
    port 443 of an allowed push service whose every address is global, a P-256 public key (65
    bytes, on the curve) and a 16-byte auth secret."""
    if not isinstance(data, dict):
        raise ServiceError("invalid", _("Send the subscription as a JSON object."))
    endpoint = _check_endpoint(data.get("endpoint"))
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise ServiceError("invalid", _("The subscription has no keys."))
    p256dh = _key(keys.get("p256dh"), "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256dh)
    except ValueError as error:
        raise ServiceError("invalid", _("keys.p256dh is not a P-256 public key.")) from error
    _key(keys.get("auth"), "auth", 16)
    _resolve_endpoint(endpoint)  # the DNS lookup last: nothing else is wrong
    return {"endpoint": endpoint, "p256dh": keys["p256dh"].strip(),
            "auth": keys["auth"].strip()}


def subscription_save(*, user: AbstractBaseUser, data: Any, label: str = "") -> PushSubscription:
    """Save the browser's subscription for ``user`` (the same endpoint again updates its keys;
    an endpoint another player had moves to this one: it is one browser)."""
    fields = subscription_check(data)  # outside the transaction: it waits for DNS
    with transaction.atomic():
        return _save(user, fields, label)


def _save(user: AbstractBaseUser, fields: dict[str, str], label: str) -> PushSubscription:
    existing = PushSubscription.objects.select_for_update().filter(
        endpoint=fields["endpoint"]).first()
    if existing is None and PushSubscription.objects.filter(
            user=user).count() >= MAX_SUBSCRIPTIONS_PER_USER:
        raise ServiceError("capped", _("You have %(count)s devices with push already; "
                                       "remove one first.") % {
            "count": MAX_SUBSCRIPTIONS_PER_USER})
    label = str(label or "").strip()[:100]
    if existing is None:
        return PushSubscription.objects.create(user=user, label=label, **fields)
    if existing.user_id != user.pk:
        existing.messages.all().delete()  # never push one player's matches to another
    existing.user = user
    existing.p256dh, existing.auth = fields["p256dh"], fields["auth"]
    existing.label = label or existing.label
    existing.save()
    return existing


def _own(user: AbstractBaseUser, subscription_id: Any) -> PushSubscription:
    subscription = PushSubscription.objects.filter(pk=id_or_none(subscription_id),
                                                   user=user).first()
    if subscription is None:
        raise ServiceError("not_found", _("You have no such device with push."))
    return subscription


def subscription_update(*, user: AbstractBaseUser, subscription_id: Any, your_move: bool,
                        reminders: bool, results: bool, label: str | None = None
                        ) -> PushSubscription:
    """Choose which pushes one of the player's devices gets."""
    subscription = _own(user, subscription_id)
    subscription.your_move, subscription.reminders, subscription.results = (
        bool(your_move), bool(reminders), bool(results))
    fields = ["your_move", "reminders", "results"]
    if label is not None:
        subscription.label = label.strip()[:100]
        fields.append("label")
    subscription.save(update_fields=fields)
    return subscription


def subscription_delete(*, user: AbstractBaseUser, subscription_id: Any = None,
                        endpoint: str | None = None) -> bool:
    """Remove one of the player's devices (by id, or by endpoint from the browser itself)."""
    rows = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        rows = rows.filter(endpoint=str(endpoint).strip())
    else:
        rows = rows.filter(pk=_own(user, subscription_id).pk)
    deleted, _ = rows.delete()
    return bool(deleted)


def unsubscribe_token(subscription_id: int) -> str:
    return signing.dumps(subscription_id, salt=UNSUBSCRIBE_SALT, compress=False)


def unsubscribe_url(subscription_id: int) -> str:
    return settings.SITE_URL + reverse("push_unsubscribe",
                                       args=[unsubscribe_token(subscription_id)])


def unsubscribe_target(token: str) -> PushSubscription | None:
    try:
        subscription_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return PushSubscription.objects.filter(pk=subscription_id).first() if isinstance(
        subscription_id, int) else None


def subscription_unsubscribe(*, token: str) -> bool:
    """One-click unsubscribe (the notification's button, or the link): the signed token is the
    permission. False if the token is bad or the device was removed already."""
    subscription = unsubscribe_target(token)
    if subscription is None:
        return False
    subscription.delete()
    return True
