"""Reports (writes): a player files one; a moderator closes it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import selectors
from games.models import Match
from games.services import ServiceError
from portal.chat.services import message_readable, reason_checked
from portal.reports.models import Report

MAX_REASON = 2000
# A player files at most this many reports an hour (a report button is not a megaphone).
HOURLY_CAP = 10


@transaction.atomic
def report_file(*, reporter: AbstractBaseUser, reason: str, match_id: Any = None,
                reported_user: AbstractBaseUser | None = None, message: Any = None) -> Report:
    """File a report about a match the reporter may see and/or a player; ``message``: the
    message reported (the caller checked the reporter may read it: ``portal.chat``)."""
    if reporter is None or not reporter.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to report."))
    text = (reason or "").strip()
    if not text:
        raise ServiceError("invalid", _("Say what is wrong."))
    if len(text) > MAX_REASON:
        raise ServiceError("invalid", _("Keep it under %(most)s characters.") % {
            "most": MAX_REASON})
    match = None
    if match_id not in (None, ""):
        match = Match.objects.filter(pk=_whole(match_id)).first()
        if match is None or not selectors.match_visible_to(match, reporter):
            raise ServiceError("not_found", _("There is no match %(id)s.") % {"id": match_id})
    if match is None and reported_user is None:
        raise ServiceError("invalid", _("Say which match or player the report is about."))
    if reported_user is not None and reported_user.pk == reporter.pk:
        raise ServiceError("invalid", _("You cannot report yourself."))
    recent = Report.objects.filter(reporter=reporter,
                                   created_at__gte=timezone.now() - timedelta(hours=1)).count()
    if recent >= HOURLY_CAP:
        raise ServiceError("capped", _("You have filed many reports this hour: the moderators "
                                       "will read them; try again later."))
    return Report.objects.create(reporter=reporter, match=match, reported_user=reported_user,
                                 reason=text, message=message)


def message_report(*, message_id: Any, reporter: Any, reason: Any) -> Report:
    """Report a message to the moderators' queue: the report names its author and holds the
    message as evidence. Only someone who may read the message reports it."""
    if reporter is None or not reporter.is_authenticated:
        raise ServiceError("not_allowed", _("Log in to report a message."))
    message, _reader = message_readable(message_id=message_id, user=reporter)
    if message.author_id == reporter.pk:
        raise ServiceError("invalid", _("You cannot report your own message."))
    text = reason_checked(reason, _("Say what is wrong with this message."))
    return report_file(reporter=reporter, reason=text, match_id=message.match_id,
                       reported_user=message.author, message=message)


def _whole(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return -1


@transaction.atomic
def report_close(*, report_id: Any, by: AbstractBaseUser, status: str, note: str = ""
                 ) -> bool:
    """Mark an open report handled or dismissed; False if it was closed already."""
    if by is None or not by.has_perm("reports.change_report"):
        raise ServiceError("not_allowed", _("Only a moderator may close reports."))
    if status not in (Report.Status.HANDLED, Report.Status.DISMISSED):
        raise ServiceError("invalid", _("Unknown status “%(status)s”.") % {
            "status": str(status)[:40]})
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise ServiceError("not_found", _("There is no report %(id)s.") % {
            "id": str(report_id)[:20]})
    if report.status != Report.Status.OPEN:
        return False
    report.status, report.handled_by, report.handled_at = status, by, timezone.now()
    report.note = (note or "").strip()
    report.save(update_fields=["status", "handled_by", "handled_at", "note"])
    return True
