"""Writes: a player's private notes and their sealed commentary. Each checks the writer holds a
seat in the match before anything is written; a text too long is refused whole."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import selectors
from games.models import Match
from games.services.errors import ServiceError
from portal.timeline.models import COMMENTARY_MAX, NOTE_MAX, Commentary, Note

ENDED = (Match.Status.FINISHED, Match.Status.ABORTED, Match.Status.VOIDED)


def match_ended(match: Match) -> bool:
    """A match is over (commentary unsealed) once finished, aborted or voided."""
    return match.status in ENDED


def _seat_or_refuse(match: Match, user: Any):
    seat = selectors.match_seat_for_user(match, user)
    if seat is None:
        raise ServiceError("not_your_seat", _("Only the match's players keep notes and "
                                              "commentary on it."))
    return seat


def _checked(text: Any, limit: int) -> str:
    if not isinstance(text, str):
        raise ServiceError("invalid", _("The text is missing."))
    text = text.strip()
    if len(text) > limit:
        raise ServiceError("invalid", _("At most %(limit)s characters (this text has "
                                        "%(length)s).") % {"limit": limit, "length": len(text)})
    return text


def note_save(*, match: Match, user: Any, text: Any) -> Note | None:
    """Keep ``user``'s notes on ``match`` (an empty text deletes them). None when deleted."""
    _seat_or_refuse(match, user)
    text = _checked(text, NOTE_MAX)
    with transaction.atomic():
        if not text:
            Note.objects.filter(match=match, author=user).delete()
            return None
        note, _created = Note.objects.update_or_create(
            match=match, author=user, defaults={"text": text, "updated_at": timezone.now()})
    return note


def commentary_save(*, match: Match, user: Any, text: Any) -> Commentary | None:
    """Keep ``user``'s commentary on ``match``, which must not have ended (an empty text
    deletes it). Takes the match row lock: a commentary saved as the match ends is either in
    before the end or refused."""
    seat = _seat_or_refuse(match, user)
    text = _checked(text, COMMENTARY_MAX)
    with transaction.atomic():
        status = Match.objects.select_for_update().values_list(
            "status", flat=True).get(pk=match.pk)
        if status in ENDED:
            raise ServiceError("not_active", _("The match has ended: its commentary can no "
                                               "longer change."))
        if not text:
            Commentary.objects.filter(match=match, author=user).delete()
            return None
        commentary, _created = Commentary.objects.update_or_create(
            match=match, author=user, defaults={"text": text, "seat_number": seat.number,
                                                "updated_at": timezone.now()})
    return commentary
