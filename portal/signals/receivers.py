"""Every login and every sheet or action sent from a browser or a program (web, API) is
traced (``traces.trace_record``); e-mail, bots and defaults are not (no client to trace)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Action, Submission
from portal.signals.models import ClientTrace
from portal.signals.traces import current_request, trace_record

TRACED_SOURCES = ("web", "api")


@receiver(user_logged_in, dispatch_uid="signals_trace_login")
def trace_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if request is not None:
        trace_record(request=request, user=user, kind=ClientTrace.Kind.LOGIN)


def _request_to_trace(source: str) -> Any:
    request = current_request.get()
    return request if request is not None and source in TRACED_SOURCES else None


@receiver(post_save, sender=Submission, dispatch_uid="signals_trace_sheet")
def trace_sheet(sender: Any, instance: Submission, **kwargs: Any) -> None:
    request = _request_to_trace(instance.source)
    user = getattr(request, "user", None)
    # (a resolution run by this request may save other seats' sheets: only the sender's own)
    if request is not None and user is not None and instance.seat.user_id == user.pk:
        trace_record(request=request, user=user, kind=ClientTrace.Kind.SUBMISSION,
                     match_id=instance.phase.match_id)


@receiver(post_save, sender=Action, dispatch_uid="signals_trace_action")
def trace_action(sender: Any, instance: Action, created: bool, **kwargs: Any) -> None:
    request = _request_to_trace(instance.source) if created else None
    if request is not None:
        trace_record(request=request, user=getattr(request, "user", None),
                     kind=ClientTrace.Kind.SUBMISSION, match_id=instance.match_id)
