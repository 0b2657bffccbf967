"""Which pushes an event causes: "your move" when a phase opens (or a gameday begins) for the
seats that must act, reminders before a deadline for the seats not in yet, and the result when
a match ends, each to the players who want that event by push (their profile's choice, see
``portal.accounts.notifications``; a player who left the match gets nothing) and to each of
their devices that takes that kind. Called from the same
lifecycle signals as the e-mails (delivered by the lifecycle's outbox after the commit) and
from beat for reminders; never in a request.

A push says what happened and links to the page; nothing of anybody's sheet is in it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone, translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from games import plugins
from games.models import Match, Phase, Seat, Submission
from portal.accounts.models import Event
from portal.accounts.notifications import profile_of, seats_wanting, users_wanting
from portal.mail.services.notify import (
    _due_reminder,
    language_of,
    local_time,
    match_url,
    phase_name,
    result_text,
)
from portal.push import vapid
from portal.push.models import PushMessage, PushSubscription
from portal.push.services.outbox import push_queue, pushes_queue
from portal.push.services.subscriptions import unsubscribe_url

Kind = PushMessage.Kind
# Time to live: "your move" until the deadline, but never more than a day (a phone offline for
# a week gets the latest news, not a week of it); a result for a day.
MAX_TTL = timedelta(days=1)
NO_DEADLINE_TTL = timedelta(hours=12)
RESULT_TTL = timedelta(days=1)
TEST_TTL = timedelta(minutes=10)
TEST_EVERY = timedelta(minutes=1)
FIELD = {Kind.YOUR_MOVE: "your_move", Kind.REMINDER: "reminders", Kind.RESULT: "results"}


def _ttl_until(deadline: datetime | None, now: datetime) -> float:
    if deadline is None:
        return NO_DEADLINE_TTL.total_seconds()
    return min(max(deadline - now, timedelta(0)), MAX_TTL).total_seconds()


def _devices(user_ids: Iterable[int], kind: str) -> dict[int, list[PushSubscription]]:
    found: dict[int, list[PushSubscription]] = {}
    wanted = {FIELD[kind]: True} if kind in FIELD else {}  # (a device takes every other kind)
    for subscription in PushSubscription.objects.filter(
            user_id__in=list(user_ids), **wanted).order_by("pk"):
        found.setdefault(subscription.user_id, []).append(subscription)
    return found


def _payload(subscription: PushSubscription, *, kind: str, title: str, body: str, url: str,
             tag: str) -> dict[str, Any]:
    """What the service worker shows (texts in the active language: the reader's)."""
    return {"kind": kind, "title": title, "body": body, "url": url, "tag": tag,
            "unsubscribe": unsubscribe_url(subscription.pk), "stop": _("Stop these")}


def _anyone_subscribed(match_id: int) -> bool:
    """One cheap query before any work: most matches have no player with push on."""
    return bool(_subscribed([match_id]))


def _subscribed(match_ids: Iterable[Any]) -> set[Any]:
    """Which of the matches ``match_ids`` have a player with a device, in one query."""
    return set(PushSubscription.objects.filter(user__seats__match_id__in=list(match_ids))
               .values_list("user__seats__match_id", flat=True).distinct())


def match_topic(match_id: int) -> str:
    """The topic (and the service worker's tag) of every push about one match: a device shows
    only the newest, and an older one still unsent is dropped for it."""
    return f"m{match_id}-move"


def _your_move(match: Match, seats: list[Seat], key: str, body_for: Any, deadline: Any,
               now: datetime) -> int:
    devices = _devices([seat.user_id for seat in seats], Kind.YOUR_MOVE)
    pushes = []
    topic = match_topic(match.pk)
    for seat in seats:
        with translation.override(language_of(seat.user)):
            title = _("Your move: %(match)s") % {"match": match}
            body = body_for(seat)
            pushes += [{
                "subscription": device, "kind": Kind.YOUR_MOVE,
                "dedupe_key": f"{key}:d{device.pk}",
                "payload": _payload(device, kind=Kind.YOUR_MOVE, title=title, body=body,
                                    url=match_url(match), tag=topic),
                "ttl_seconds": _ttl_until(deadline, now), "topic": topic, "urgency": "high"}
                for device in devices.get(seat.user_id, [])]
    return len(pushes_queue(pushes, now=now))


def phase_opened_push(*, match_id: int, phase_number: int) -> int:
    """Push "your move" to every device of the seats that must act in the phase just opened."""
    return phases_opened_push([{"match_id": match_id, "phase_number": phase_number}])


def phases_opened_push(payloads: list[dict[str, Any]]) -> int:
    """``phase_opened_push`` for the outbox's batch of opened phases: one query finds the
    matches with a device among their players (most have none); only those are read."""
    if not vapid.enabled():
        return 0
    subscribed = _subscribed({int(p["match_id"]) for p in payloads})
    return sum(_phase_opened_push(int(p["match_id"]), int(p["phase_number"]))
               for p in payloads if int(p["match_id"]) in subscribed)


def _phase_opened_push(match_id: int, phase_number: int) -> int:
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    phase = Phase.objects.filter(match_id=match_id, number=phase_number).first()
    if match is None or phase is None or phase.status != Phase.Status.OPEN:
        return 0
    prompts = engine.get(match.game).prompts(phase.state_before)
    seats = seats_wanting(match, Event.YOUR_MOVE, "push", numbers=prompts)

    def body(seat: Seat) -> str:
        return _("%(phase)s %(number)s. Deadline: %(deadline)s.") % {
            "phase": capfirst(phase_name(phase.name, match.game) or _("phase")),
            "number": phase.number,
            "deadline": local_time(phase.deadline, seat.user)}

    return _your_move(match, seats, f"push:move:m{match.pk}:p{phase.number}", body,
                      phase.deadline, timezone.now())


def gameday_opened_push(*, match_id: int, gameday: str) -> int:
    """Push "your move" to the players who may act in a continuous match's new gameday."""
    if not vapid.enabled() or not _anyone_subscribed(match_id):
        return 0
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE).first()
    if match is None or match.state is None:
        return 0
    seats = seats_wanting(match, Event.GAMEDAY, "push",
                          numbers=engine.get(match.game).prompts(match.state))
    plugin = plugins.plugin_for(match.game)

    def body(seat: Seat) -> str:
        # The gameday's name in the player's language, like the sentence it goes in.
        name = capfirst(plugin.gameday_name(match, gameday))
        return _("%(gameday)s has begun. Next one: %(next)s.") % {
            "gameday": name, "next": local_time(match.deadline, seat.user)}

    return _your_move(match, seats, f"push:gameday:m{match.pk}:g{gameday}", body,
                      match.deadline, timezone.now())


def match_ended_push(*, match_id: int) -> int:
    """Push the result to every device of the match's players that wants results."""
    if not vapid.enabled() or not _anyone_subscribed(match_id):
        return 0
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
        return 0
    game = engine.get(match.game)
    seats = seats_wanting(match, Event.MATCH_ENDED, "push")
    devices = _devices([seat.user_id for seat in seats], Kind.RESULT)
    pushes = []
    topic = match_topic(match.pk)  # the result replaces a "your move" still undelivered
    for seat in seats:
        with translation.override(language_of(seat.user)):
            title = _("Result: %(match)s") % {"match": match}
            body = result_text(match, game)
            pushes += [{
                "subscription": device, "kind": Kind.RESULT,
                "dedupe_key": f"push:result:m{match.pk}:d{device.pk}",
                "payload": _payload(device, kind=Kind.RESULT, title=title, body=body,
                                    url=match_url(match), tag=topic),
                "ttl_seconds": RESULT_TTL.total_seconds(), "topic": topic}
                for device in devices.get(seat.user_id, [])]
    return len(pushes_queue(pushes))


def result_push(*, users: Iterable[Any], key: str, url: str, topic: str,
                words: Any) -> int:
    """Push a competition's result (a team match's) to each device of ``users`` that takes
    results and whose player wants results by push; ``words(user)`` gives the title and the
    body, called in the reader's language. ``key`` makes each push once."""
    if not vapid.enabled():
        return 0
    wanting = users_wanting(users, Event.MATCH_ENDED, "push")
    devices = _devices([user.pk for user in wanting], Kind.RESULT)
    pushes = []
    for user in wanting:
        with translation.override(language_of(user)):
            title, body = words(user)
            pushes += [{
                "subscription": device, "kind": Kind.RESULT,
                "dedupe_key": f"push:{key}:d{device.pk}",
                "payload": _payload(device, kind=Kind.RESULT, title=title, body=body, url=url,
                                    tag=topic),
                "ttl_seconds": RESULT_TTL.total_seconds(), "topic": topic}
                for device in devices.get(user.pk, [])]
    return len(pushes_queue(pushes))


MESSAGE_TTL = timedelta(days=1)


def messages_push(*, match_id: int, spans: list) -> int:
    """Push a match's gathered notice to each device of its readers who want messages by
    push, one push per reader for all their channels (``portal.chat.notify`` says who reads
    what). It says how many messages came and where, never what they say (a push is shown on
    a locked screen), and a private channel only as "a private conversation"."""
    from portal.chat.models import Channel
    from portal.chat.notify import reader_notices

    if not vapid.enabled():
        return 0
    match, found = reader_notices(spans=[tuple(span) for span in spans])
    if not found:
        return 0
    up_to = max(span[2] for span in spans)
    users = [notice.user for notice in found]
    wanting = {user.pk for user in users_wanting(users, Event.MESSAGE, "push")}
    devices = _devices(wanting, Kind.MESSAGE)
    topic = f"m{match.pk}-messages"[:32]
    pushes = []
    for notice in found:
        user = notice.user
        if user.pk not in wanting:
            continue
        with translation.override(language_of(user)):
            title = _("New messages: %(match)s") % {"match": match}
            count = notice.count
            if len(notice.parts) == 1:
                part = notice.parts[0]
                where = (_("a private conversation")
                         if part.channel.kind == Channel.Kind.PRIVATE else part.channel.label)
                body = ngettext("%(count)s new message in %(channel)s.",
                                "%(count)s new messages in %(channel)s.", count) % {
                    "count": count, "channel": where}
            else:
                body = ngettext("%(count)s new message in %(channels)s conversations.",
                                "%(count)s new messages in %(channels)s conversations.",
                                count) % {"count": count, "channels": len(notice.parts)}
        for device in devices.get(user.pk, []):
            pushes.append({
                # (No ":m<match>:" in the key: the timeline lists those pushes by seat.)
                "subscription": device, "kind": Kind.MESSAGE,
                "dedupe_key": f"push:message:g{match.pk}:to{up_to}:d{device.pk}",
                "payload": _payload(device, kind=Kind.MESSAGE, title=title, body=body,
                                    url=match_url(match) + "#messages", tag=topic),
                "ttl_seconds": MESSAGE_TTL.total_seconds(), "topic": topic})
    return len(pushes_queue(pushes))


def reminders_push(*, now: datetime | None = None) -> int:
    """Remind, on their devices, seats that must act and have not, at the hours of their
    profile's reminders (the same offsets as the reminder e-mails), once per (phase, seat,
    offset, device); each reminder lives until the deadline."""
    from portal.accounts.models import MAX_REMINDER_HOURS

    if not vapid.enabled():
        return 0
    now = now or timezone.now()
    phases = Phase.objects.filter(
        status=Phase.Status.OPEN, match__status=Match.Status.ACTIVE, deadline__gt=now,
        deadline__lte=now + timedelta(hours=MAX_REMINDER_HOURS),
        match__seats__user__push_subscriptions__reminders=True,
    ).distinct().select_related("match")
    created = 0
    for phase in phases:
        match = phase.match
        if match.phase_number != phase.number:
            continue
        prompts = engine.get(match.game).prompts(phase.state_before)
        required = {n for n, prompt in prompts.items() if prompt.required}
        submitted = set(Submission.objects.filter(phase=phase).values_list("seat__number",
                                                                           flat=True))
        seats = seats_wanting(match, Event.REMINDER, "push", numbers=required - submitted)
        devices = _devices([seat.user_id for seat in seats], Kind.REMINDER)
        topic = match_topic(match.pk)
        pushes = []
        for seat in seats:
            hours = _due_reminder(profile_of(seat.user).reminders, phase.opened_at,
                                  phase.deadline, now)
            if hours is None:
                continue
            with translation.override(language_of(seat.user)):
                title = _("Reminder: %(match)s") % {"match": match}
                body = _("Your orders are due in %(hours)s h (%(deadline)s).") % {
                    "hours": hours, "deadline": local_time(phase.deadline, seat.user)}
                pushes += [{
                    "subscription": device, "kind": Kind.REMINDER,
                    "dedupe_key": f"push:reminder:m{match.pk}:p{phase.number}"
                                  f":s{seat.number}:h{hours}:d{device.pk}",
                    "payload": _payload(device, kind=Kind.REMINDER, title=title, body=body,
                                        url=match_url(match), tag=topic),
                    "ttl_seconds": _ttl_until(phase.deadline, now), "topic": topic,
                    "urgency": "high"} for device in devices.get(seat.user_id, [])]
        created += len(pushes_queue(pushes, now=now))
    return created


def push_test(*, subscription: PushSubscription) -> PushMessage | None:
    """A test push to one device (the profile's "send a test" button), at most one per device
    per TEST_EVERY: None if one was queued in this period already."""
    now = timezone.now()
    payload = _payload(subscription, kind=Kind.TEST, title=_("Tank Portal"),
                       body=_("Push works on this device."), url=_profile_url(),
                       tag="test")
    # The period in the key: a button pressed again (or scripted) queues nothing more.
    period = int(now.timestamp() // TEST_EVERY.total_seconds())
    return push_queue(subscription=subscription, kind=Kind.TEST,
                      dedupe_key=f"push:test:d{subscription.pk}:{period}",
                      payload=payload, ttl_seconds=TEST_TTL.total_seconds(), topic="test",
                      now=now)


def _profile_url() -> str:
    from django.conf import settings
    from django.urls import reverse

    return settings.SITE_URL + reverse("accounts_profile")
