"""Writes: a moderator acts on a signal (one audit row each); a player declares a
relationship with another player, or withdraws it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.services import ServiceError
from portal.signals.models import Relationship, Signal, SignalAction

MAX_NOTE = 2000
NEXT_STATUS = {
    SignalAction.Action.DISMISS: Signal.Status.DISMISSED,
    SignalAction.Action.OPEN_CASE: Signal.Status.CASE,
    SignalAction.Action.NOTE: None,  # the status stays
}
MAX_RELATIONSHIPS = 20


@transaction.atomic
def signal_act(*, signal_id: Any, by: Any, action: str, note: str) -> SignalAction | None:
    """Dismiss a signal, note something on it, or open a case, with a note (required); the
    audit row, or None when a double submit changes nothing (dismissing a dismissed signal)."""
    if by is None or not by.has_perm("signals.change_signal"):
        raise ServiceError("not_allowed", _("Only a moderator may act on signals."))
    if action not in NEXT_STATUS:
        raise ServiceError("invalid", _("Unknown action “%(action)s”.") % {
            "action": str(action)[:40]})
    text = (note or "").strip()
    if not text:
        raise ServiceError("invalid", _("Write a note: what you saw and why."))
    if len(text) > MAX_NOTE:
        raise ServiceError("invalid", _("Keep it under %(most)s characters.") % {
            "most": MAX_NOTE})
    try:
        signal = Signal.objects.select_for_update().filter(pk=int(signal_id)).first()
    except (TypeError, ValueError, OverflowError):
        signal = None
    if signal is None:
        raise ServiceError("not_found", _("There is no signal %(id)s.") % {
            "id": str(signal_id)[:20]})
    status = NEXT_STATUS[action]
    if status is not None and signal.status == status:
        return None
    if status is not None:
        signal.status = status
        signal.save(update_fields=["status"])
    return SignalAction.objects.create(signal=signal, action=action, by=by, at=timezone.now(),
                                       note=text)


@transaction.atomic
def relationship_declare(*, by: Any, username: str, kind: str) -> Relationship:
    """``by`` says they share a household or a club room with the player ``username``."""
    if by is None or not by.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to declare a relationship."))
    if kind not in Relationship.Kind.values:
        raise ServiceError("invalid", _("Choose “same household” or “same club room”."))
    name = (username or "").strip()
    other = get_user_model().objects.filter(username=name).first()
    if other is None:
        raise ServiceError("not_found", _("There is no player “%(name)s”.") % {
            "name": name[:150]})
    if other.pk == by.pk:
        raise ServiceError("invalid", _("Name another player, not yourself."))
    first, second = sorted((by.pk, other.pk))
    existing = Relationship.objects.filter(first_id=first, second_id=second).first()
    if existing is not None:
        raise ServiceError("invalid", _("A relationship with %(name)s is declared already.")
                           % {"name": other.get_username()})
    if Relationship.objects.filter(declared_by=by).count() >= MAX_RELATIONSHIPS:
        raise ServiceError("capped", _("You have declared %(count)s relationships already.")
                           % {"count": MAX_RELATIONSHIPS})
    try:
        with transaction.atomic():
            return Relationship.objects.create(first_id=first, second_id=second, kind=kind,
                                               declared_by=by)
    except IntegrityError:  # declared at the same moment by the other player
        raise ServiceError("invalid", _("A relationship with %(name)s is declared already.")
                           % {"name": other.get_username()}) from None


@transaction.atomic
def relationship_withdraw(*, by: Any, relationship_id: Any) -> None:
    """Either player of a declared pair may withdraw it."""
    if by is None or not by.is_authenticated:
        raise ServiceError("not_allowed", _("Log in first."))
    try:
        pk = int(relationship_id)
    except (TypeError, ValueError, OverflowError):
        pk = -1
    found = Relationship.objects.filter(pk=pk).first()
    if found is None or by.pk not in (found.first_id, found.second_id):
        raise ServiceError("not_found", _("There is no such relationship of yours."))
    found.delete()
