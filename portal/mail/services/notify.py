"""Who gets which email about a match, and what it says (phase opened, reminders, round
reports, results, daily digests). Every email goes through the outbox with a dedupe key, so an
event reported twice still mails once.

Only ``game.view``-derived text goes into an email (the game plug-in's ``board_text`` and
``orders_help`` are drawn from the seat's view), and never anybody's pending sheet: sealed orders
do not leave by mail. Every game-specific part comes from the game's plug-in (``games.plugins``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import zoneinfo
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import gettext as _

import engine
from games import dates, plugins
from games.endings import ending_of, ending_words
from games.models import ConditionalPlan, ConditionalSheet, Match, Phase, Seat, Submission
from games.plans import plan_mail_context, plans_offered, sheet_ahead_mail_context
from games.services import presence, timing
from games.services.moderation import duration_text
from portal.accounts.models import Channel, Event, Profile
from portal.accounts.notifications import (
    digest_reader,
    profile_of,
    seats_wanting,
    seats_wanting_many,
)
from portal.chat.selectors import unread_summary
from portal.delivery.pipeline import queued_keys
from portal.mail import bodies
from portal.mail.models import OutgoingEmail
from portal.mail.services.outbox import email_queue, emails_queue
from portal.mail.tokens import reply_address

logger = logging.getLogger(__name__)
Kind = OutgoingEmail.Kind


def language_of(user: Any) -> str:
    """The language the player's mails are written in (their profile's, else the site's)."""
    return getattr(profile_of(user), "language", "") or settings.LANGUAGE_CODE


def local_time(moment: datetime | None, user: Any) -> str:
    """``moment`` as ``user`` reads it: in their time zone, with the day and month named in
    the active language ("Monday 23 November 2026, 21:28 UTC")."""
    if moment is None:
        return _("no deadline")
    return dates.date(moment, "l j F Y, H:i T",
                      shown_in=(zone_of(user), translation.get_language()))


def zone_of(user: Any) -> zoneinfo.ZoneInfo:
    """The time zone of ``user``'s profile (UTC when it names none we know)."""
    try:
        return zoneinfo.ZoneInfo(profile_of(user).time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def phase_name(name: str, game: str) -> str:
    """Game ``game``'s name for a phase ("orders"), as the engine stored it, in the active
    language (the game's plug-in words it: "turn" is "tour" in French)."""
    return plugins.plugin_for(game).phase_label(name) if name else ""


def phase_title(name: str, number: int, game: str) -> str:
    """A phase as a mail names it: "orders 3", or "phase 3" when the game names none."""
    if not name:
        return _("phase %(number)s") % {"number": number}
    return _("%(phase)s %(number)s") % {"phase": phase_name(name, game), "number": number}


def deadline_text(match: Match, phase: Phase, seat: Seat, game: Any) -> str:
    """The deadline as the seat's player reads it: on clocks, when their own clock runs out,
    what is left of it and whether it is stopped for their leave; a moved deadline says why."""
    current = match.phase_number == phase.number
    due = timing.seat_due(match, seat.number) if current else None
    if due is not None:
        clock = timing.seat_clocks(match, timezone.now()).get(seat.number)
        notes = [_("your clock: %(left)s") % {"left": clock.text if clock else "?"}]
        if clock is not None and clock.on_leave_until is not None:
            notes.append(_("stopped while you are on leave, until %(until)s") % {
                "until": local_time(clock.on_leave_until, seat.user)})
        if clock is not None and clock.window is not None:
            notes.append(_("it runs only in your active hours, %(hours)s") % {
                "hours": clock.window})
        return f"{local_time(due, seat.user)} ({'; '.join(notes)})"
    moved = timing.moved_deadline(match) if current else None
    text = local_time(phase.deadline, seat.user)
    if moved is not None and moved["to"] == phase.deadline:
        text = _("%(deadline)s (moved from %(before)s: outside the active hours of %(seat)s, "
                 "%(hours)s)") % {
            "deadline": text, "before": local_time(moved["from"], seat.user),
            "seat": plugins.seat_name(match.game, moved["seat"]), "hours": moved["window"]}
    return text


def match_url(match: Match) -> str:
    return settings.SITE_URL + reverse("games:match", args=[match.pk])


# Mails that invite orders by reply: they start with the reply marker (bodies.reply_marker).
INVITING_ORDERS = {"phase_opened", "reminder", "gameday_opened", "digest"}


def with_marker(text: str, html: str, language: str = "en", *, message: bool = False
                ) -> tuple[str, str]:
    """``text`` and ``html`` starting with the reply marker (once; a message notice's own with
    ``message``), whatever template made them: a reply is cut where the client's copy of it
    begins."""
    marker = bodies.reply_marker(language, message=message)
    if not text.lstrip().startswith(marker):
        text = f"{marker}\n\n{text}"
    if html and marker not in html:
        line = (f'<p class="reply-marker" style="color:#777;font-size:12px;margin:0 0 1em">'
                f"{escape(marker)}</p>")
        found = re.search(r"<body[^>]*>", html, re.IGNORECASE)
        at = found.end() if found else 0
        html = html[:at] + line + html[at:]
    return text, html


def render(name: str, context: dict[str, Any], slug: str | None = None) -> tuple[str, str]:
    """Mail ``name`` with ``context``: the game's own bodies (its plug-in's ``mail_bodies``)
    for a mail about a match of game ``slug``, else ``templates/mail/<name>.txt`` and
    ``.html``. A mail that invites orders starts with the reply marker."""
    if slug is not None:
        text, html = plugins.plugin_for(slug).mail_bodies(name, context)
    else:
        text, html = (render_to_string(f"mail/{name}.txt", context),
                      render_to_string(f"mail/{name}.html", context))
    if name in INVITING_ORDERS:
        text, html = with_marker(text, html, context.get("language", "en"))
    return text, html


# A reader's own fields: rendered as slots, filled in per reader (``SeatViewRenderer``).
PERSONAL = ("username", "seat_name", "seat_number", "reply_address", "deadline",
            "next_gameday")


def _slot(name: str) -> str:
    return f"TPSLOT{name.replace('_', '')}TPSLOT"  # survives escaping and template filters


class SeatViewRenderer:
    """Renders each mail once per (template, language, seat view) and puts each reader's own
    fields in afterwards (name, seat name, reply address, deadline in their time zone).

    The seat view is everything drawn from the seat's view that goes into the mail (board,
    orders help, situation, round report, ...): the cache key is a hash of it, so two readers
    share a render only when their mails would say exactly the same thing — never another
    seat's secrets. In games where every seat sees something else (hidden pieces) that
    is one render per seat; where seats see the same (public games), one render for all."""

    def __init__(self, slug: str | None) -> None:
        self.slug = slug
        self.cache: dict[tuple[str, str, str], tuple[str, str]] = {}
        self.renders = 0

    def render(self, name: str, context: dict[str, Any]) -> tuple[str, str]:
        personal = {key: str(context[key]) for key in PERSONAL if key in context}
        user, seat = context.get("user"), context.get("seat")
        if user is not None:
            personal["username"] = str(user.username)
        if seat is not None:
            personal["seat_number"] = str(seat.number)
        shared = {key: value for key, value in context.items()
                  if key not in PERSONAL and key not in ("user", "seat")}
        fingerprint = hashlib.sha256(json.dumps(
            {key: value for key, value in shared.items()
             if isinstance(value, (str, int, float, bool, list, dict, tuple, type(None)))},
            sort_keys=True, default=str).encode()).hexdigest()
        key = (name, str(context.get("language", "en")), fingerprint + ",".join(sorted(personal)))
        if key not in self.cache:
            slotted = dict(shared, **{k: _slot(k) for k in personal})
            slotted["user"] = SimpleNamespace(username=_slot("username"))
            slotted["seat"] = SimpleNamespace(number=_slot("seat_number"))
            self.cache[key] = render(name, slotted, self.slug)
            self.renders += 1
        text, html = self.cache[key]
        for field, value in personal.items():
            text = text.replace(_slot(field), value)
            html = html.replace(_slot(field), escape(value))
        if "TPSLOT" in text or "TPSLOT" in html:  # a template changed a slot (a filter): render
            self.renders += 1                      # this reader's mail in full instead
            return render(name, context, self.slug)
        return text, html


def _base_context(match: Match, seat: Seat, game: Any) -> dict[str, Any]:
    with translation.override(language_of(seat.user)):
        name = plugins.seat_name(match.game, seat.number)
    return {
        "match": match, "seat": seat, "user": seat.user, "game": game,
        "match_title": str(match), "seat_name": name,
        "match_url": match_url(match),
        "profile_url": settings.SITE_URL + reverse("accounts_profile"),
        "language": language_of(seat.user),
    }


# Each seat's plan and sheet entered ahead, by seat id, as read for a batch of mails.
StoredAhead = tuple[dict[int, ConditionalPlan], dict[int, ConditionalSheet]]


def stored_ahead(pairs: Iterable[tuple[Match, Seat]]) -> StoredAhead:
    """The plans and sheets entered ahead of ``pairs``' seats, in one query each for the whole
    batch (none for games that take neither), each kept only while its seat's player wrote
    it."""
    pairs = list(pairs)
    games = {match.game: engine.get(match.game) for match, _ in pairs}
    planned = [seat.pk for match, seat in pairs if plans_offered(games[match.game])]
    ahead = [seat.pk for match, seat in pairs if games[match.game].sheet_conditions]
    users = {seat.pk: seat.user_id for _, seat in pairs}
    plans = {plan.seat_id: plan for plan in ConditionalPlan.objects.filter(seat_id__in=planned)
             if plan.user_id == users[plan.seat_id]} if planned else {}
    sheets = {sheet.seat_id: sheet for sheet in ConditionalSheet.objects.filter(
        seat_id__in=ahead) if sheet.user_id == users[sheet.seat_id]} if ahead else {}
    return plans, sheets


def phase_email_content(*, match: Match, phase: Phase, seat: Seat,
                        kind: str = Kind.PHASE_OPENED, hours: int | None = None,
                        renderer: SeatViewRenderer | None = None,
                        ahead: StoredAhead | None = None) -> dict[str, Any]:
    """Subject, bodies and reply-to of the "your move" email (or a reminder of it), in the
    player's language where the game's parts are translated. ``ahead``: the batch's plans and
    sheets entered ahead (``stored_ahead``), else this seat's are read."""
    with translation.override(language_of(seat.user)):
        return _phase_email_content(match=match, phase=phase, seat=seat, kind=kind,
                                    hours=hours, renderer=renderer,
                                    ahead=ahead or stored_ahead([(match, seat)]))


def _phase_email_content(*, match: Match, phase: Phase, seat: Seat, kind: str,
                         hours: int | None, renderer: SeatViewRenderer | None,
                         ahead: StoredAhead) -> dict[str, Any]:
    game = engine.get(match.game)
    plugin = plugins.plugin_for(match.game)
    state = phase.state_before
    context = _base_context(match, seat, game)
    context.update(
        phase=phase, phase_name=phase_name(phase.name, match.game), hours=hours,
        deadline=deadline_text(match, phase, seat, game),
        board=plugin.board_text(state, seat.number),
        grammar=plugin.orders_help(state, seat.number),
        reply_address=reply_address(match_id=match.pk, seat_number=seat.number,
                                    phase_number=phase.number, user_id=seat.user_id),
        leave_extended=duration_text(phase.leave_extended) if phase.leave_extended else "",
        **plugin.your_move_context(match, seat, state),
    )
    plans, sheets = ahead
    if plans_offered(game):  # the seat's own plan, and why it ended if it did
        context.update(plan_mail_context(game, state, seat.number, plans.get(seat.pk),
                                         phase.number))
    if game.sheet_conditions:  # what became of its sheet entered ahead
        context.update(sheet_ahead_mail_context(game, sheets.get(seat.pk), phase.number))
    if kind == Kind.REMINDER:
        subject = _("Reminder: your orders for %(match)s are due in %(hours)s h") % {
            "match": match, "hours": hours}
    else:
        subject = _("Your move: %(match)s, %(phase)s") % {
            "match": match, "phase": phase_title(phase.name, phase.number, match.game)}
    renderer = renderer or SeatViewRenderer(match.game)
    text, html = renderer.render("phase_opened" if kind != Kind.REMINDER else "reminder",
                                 context)
    return {"subject": subject, "body_text": text, "body_html": html,
            "reply_to": context["reply_address"]}


def not_queued(seats: Iterable[Seat], key_for: Callable[[Seat], str]) -> list[tuple[Seat, str]]:
    """(seat, dedupe key) of each of ``seats`` whose mail ``key_for(seat)`` is not queued
    yet, read in one query: nothing is rendered for a mail sent before."""
    keyed = [(seat, key_for(seat)) for seat in seats]
    queued = queued_keys("mail", (key for _, key in keyed))
    return [(seat, key) for seat, key in keyed if key[:200] not in queued]


def your_move_recipients(
    match: Match, prompted: Iterable[int], key_for: Callable[[Seat], str],
    event: str = Event.YOUR_MOVE,
) -> list[tuple[Seat, str]]:
    """(seat, dedupe key) of each prompted seat whose player wants ``event`` by mail and has
    not been sent this one yet."""
    return not_queued(seats_wanting(match, event, "mail", numbers=prompted), key_for)


def phase_opened_notify(*, match_id: int, phase_number: int) -> int:
    """Mail "your move" to every prompted human seat that wants it. Returns emails created."""
    return phases_opened_notify([{"match_id": match_id, "phase_number": phase_number}])


def phases_opened_notify(payloads: list[dict[str, Any]]) -> int:
    """``phase_opened_notify`` for many opened phases (``match_id``, ``phase_number`` each) at
    once, the outbox's batch: matches, phases, seats, failing addresses and the mails queued
    before are read in one query each, the new mails written in one. Returns emails created."""
    opened = _phases(payloads, Phase.Status.OPEN)
    prompted = {match.pk: engine.get(match.game).prompts(phase.state_before)
                for match, phase in opened}
    wanting = seats_wanting_many(prompted, Event.YOUR_MOVE, "mail", numbers=prompted)
    now = timezone.now()
    # A player at the match page sees their move there (a bot's answer in seconds would
    # otherwise mail them every turn); with the deadline near, the mail goes all the same.
    keyed = [(match, phase, seat,
              f"{Kind.PHASE_OPENED}:m{match.pk}:p{phase.number}:u{seat.user_id}")
             for match, phase in opened for seat in wanting.get(match.pk, ())
             if not presence.at_the_page(seat, phase.deadline, now)]
    queued = queued_keys("mail", (key for *_, key in keyed))
    keyed = [entry for entry in keyed if entry[3][:200] not in queued]
    ahead = stored_ahead((match, seat) for match, _, seat, _ in keyed)
    renderers: dict[int, SeatViewRenderer] = {}
    return len(emails_queue(
        {"kind": Kind.PHASE_OPENED, "dedupe_key": key, "to": seat.user.email, "user": seat.user,
         "match_id": match.pk, "phase_number": phase.number,
         **phase_email_content(match=match, phase=phase, seat=seat, ahead=ahead,
                               renderer=renderers.setdefault(match.pk,
                                                             SeatViewRenderer(match.game)))}
        for match, phase, seat, key in keyed))


def _phases(payloads: list[dict[str, Any]], status: str) -> list[tuple[Match, Phase]]:
    """The (match, phase) of each payload's ``match_id`` and ``phase_number`` whose phase is
    ``status``, in two queries; each once, in the payloads' order."""
    pairs = list(dict.fromkeys((int(p["match_id"]), int(p["phase_number"])) for p in payloads))
    matches = Match.objects.in_bulk([match_id for match_id, _ in pairs])
    phases = {(phase.match_id, phase.number): phase for phase in Phase.objects.filter(
        match_id__in=list(matches), number__in={number for _, number in pairs}, status=status)}
    return [(matches[match_id], phases[(match_id, number)]) for match_id, number in pairs
            if (match_id, number) in phases]


def _state_after(match: Match, phase_number: int) -> dict[str, Any]:
    following = Phase.objects.filter(match=match, number=phase_number + 1).first()
    return following.state_before if following else match.state


def phase_resolved_notify(*, match_id: int, phase_number: int, finished: bool) -> int:
    """Mail the round report to seats that want every event (the last round of a finished
    match is in the result email instead)."""
    return phases_resolved_notify([{"match_id": match_id, "phase_number": phase_number,
                                    "finished": finished}])


def phases_resolved_notify(payloads: list[dict[str, Any]]) -> int:
    """``phase_resolved_notify`` for many resolved phases at once (the outbox's batch): who
    wants round reports is read first, in one query for them all (most players do not), and
    nothing else is read for a match without a reader."""
    payloads = [p for p in payloads if not p.get("finished")]
    readers = seats_wanting_many({int(p["match_id"]) for p in payloads},
                                 Event.PHASE_RESOLVED, "mail")
    return sum(_round_reports(match, phase, readers[match.pk]) for match, phase in _phases(
        [p for p in payloads if int(p["match_id"]) in readers], Phase.Status.RESOLVED))


def _round_reports(match: Match, phase: Phase, readers: list[Seat]) -> int:
    game = engine.get(match.game)
    plugin = plugins.plugin_for(match.game)
    state = _state_after(match, phase.number)
    renderer = SeatViewRenderer(match.game)
    emails = []
    for seat, key in not_queued(readers, lambda seat: (
            f"{Kind.PHASE_RESOLVED}:m{match.pk}:p{phase.number}:u{seat.user_id}")):
        with translation.override(language_of(seat.user)):
            context = _base_context(match, seat, game)
            context.update(phase=phase, phase_name=phase_name(phase.name, match.game),
                           phase_title=phase_title(phase.name, phase.number, match.game),
                           events=plugin.round_report(phase.events or [], seat.number),
                           board=plugin.board_text(state, seat.number))
            text, html = renderer.render("phase_resolved", context)
            subject = _("Round report: %(match)s, %(phase)s") % {
                "match": match, "phase": context["phase_title"]}
        emails.append({
            "kind": Kind.PHASE_RESOLVED, "dedupe_key": key, "to": seat.user.email,
            "user": seat.user, "match_id": match.pk, "phase_number": phase.number,
            "subject": subject, "body_text": text, "body_html": html})
    return len(emails_queue(emails))


def result_text(match: Match, game: Any = None) -> str:
    """How the match ended, in the active language: who won (or a draw, no result, a
    cancel) and how, as every surface says it (``games.endings``)."""
    return ending_words(match)


def match_ended_notify(*, match_id: int, status: str) -> int:
    """Mail the final result (with the last round's events) to every human seat that wants it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return 0
    game = engine.get(match.game)
    plugin = plugins.plugin_for(match.game)
    last = Phase.objects.filter(match=match, status=Phase.Status.RESOLVED).order_by(
        "-number").first()
    renderer = SeatViewRenderer(match.game)
    emails = []
    ending = ending_of(match)
    winners = set(ending.winners) if ending is not None and ending.has_result else set()
    for seat, key in not_queued(seats_wanting(match, Event.MATCH_ENDED, "mail"),
                                lambda seat: f"{Kind.MATCH_ENDED}:m{match.pk}:u{seat.user_id}"):
        with translation.override(language_of(seat.user)):
            context = _base_context(match, seat, game)
            context.update(
                result=result_text(match, game), status=status,
                you_won=seat.number in winners and len(winners) == 1,
                events=plugin.round_report((last.events if last else None) or [], seat.number),
                board=plugin.board_text(match.state, seat.number) if match.state else "",
            )
            text, html = renderer.render("match_ended", context)
            subject = _("Result: %(match)s") % {"match": match}
        emails.append({"kind": Kind.MATCH_ENDED, "dedupe_key": key, "to": seat.user.email,
                       "user": seat.user, "match_id": match.pk, "subject": subject,
                       "body_text": text, "body_html": html})
    return len(emails_queue(emails))


def _due_reminder(hours: list[int], opened_at: datetime, deadline: datetime,
                  now: datetime) -> int | None:
    """The reminder to send now: the smallest offset whose time has come, if that time came
    after the phase opened (a 24 h reminder for a 12 h phase is no reminder)."""
    due = [h for h in hours if deadline - timedelta(hours=h) <= now]
    if not due:
        return None
    nearest = min(due)
    return nearest if deadline - timedelta(hours=nearest) > opened_at else None


def reminders_send(*, now: datetime | None = None) -> int:
    """Remind prompted seats that have not submitted, once per (phase, seat, hours)."""
    from portal.accounts.models import MAX_REMINDER_HOURS

    now = now or timezone.now()
    phases = Phase.objects.filter(
        status=Phase.Status.OPEN, match__status=Match.Status.ACTIVE,
        deadline__gt=now, deadline__lte=now + timedelta(hours=MAX_REMINDER_HOURS),
    ).select_related("match")
    created = 0
    for phase in phases:
        match = phase.match
        if match.phase_number != phase.number:
            continue
        game = engine.get(match.game)
        # Only seats that must act are reminded: a continuous phase's prompts are optional.
        prompted = {n for n, prompt in game.prompts(phase.state_before).items() if prompt.required}
        submitted = set(Submission.objects.filter(phase=phase).values_list(
            "seat__number", flat=True))
        renderer = SeatViewRenderer(match.game)
        due = {}
        for seat in seats_wanting(match, Event.REMINDER, "mail", numbers=prompted - submitted):
            hours = _due_reminder(profile_of(seat.user).reminders, phase.opened_at,
                                  timing.seat_due(match, seat.number) or phase.deadline, now)
            if hours is not None:
                due[seat] = hours
        keys = {seat: f"{Kind.REMINDER}:m{match.pk}:p{phase.number}:s{seat.number}:h{hours}"
                for seat, hours in due.items()}
        created += len(emails_queue(
            {"kind": Kind.REMINDER, "dedupe_key": key, "to": seat.user.email, "user": seat.user,
             "match_id": match.pk, "phase_number": phase.number,
             **phase_email_content(match=match, phase=phase, seat=seat, kind=Kind.REMINDER,
                                   hours=due[seat], renderer=renderer)}
            for seat, key in not_queued(due, keys.__getitem__)))
    return created


def digests_send(*, now: datetime | None = None) -> int:
    """One email a day to each digest reader with a seat in an active or just-finished match."""
    now = now or timezone.now()
    since = now - timedelta(days=1)
    users = get_user_model().objects.filter(
        profile__mail_delivery=Profile.Delivery.DAILY_DIGEST, seats__isnull=False
    ).exclude(email="").select_related("profile").distinct()
    created = 0
    for user in users:
        if not digest_reader(user):
            continue
        with translation.override(language_of(user)):
            created += _digest_queue(user, now, since)
    return created


def _digest_queue(user: Any, now: datetime, since: datetime) -> int:
    """Queue ``user``'s digest of ``now``'s day, written in the active language (1 if new)."""
    # Messages by mail are folded into the digest too: their unread counts, per channel.
    reads_messages = Channel.MAIL in profile_of(user).channels_of(Event.MESSAGE)
    # A seat forfeited in a match still in play is one its player left.
    seats = Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE).exclude(
        status__in=(Seat.Status.FORFEITED, Seat.Status.CONCEDED)
    ) | Seat.objects.filter(user=user, match__finished_at__gte=since)
    seats = seats.select_related("match")
    items = []
    for seat in seats.order_by("match__deadline"):
        match = seat.match
        game = engine.get(match.game)
        item = {"match": match, "title": str(match), "url": match_url(match),
                "seat_name": plugins.seat_name(match.game, seat.number)}
        if match.status == Match.Status.ACTIVE:
            phase = Phase.objects.filter(match=match, number=match.phase_number).first()
            done = phase is not None and Submission.objects.filter(
                phase=phase, seat=seat).exists()
            item.update(
                phase=phase_title(match.phase_name, match.phase_number, match.game),
                deadline=local_time(timing.seat_due(match, seat.number)
                                    or match.deadline, user), submitted=done,
                reply_address="" if done or phase is None else reply_address(
                    match_id=match.pk, seat_number=seat.number, phase_number=phase.number,
                    user_id=user.pk),
            )
        else:
            item["result"] = result_text(match, game)
        # The moves played for the seat from its plan (sheets entered ahead too) since the
        # last digest, in its player's command of it: the turns nobody woke them for.
        planned = list(Submission.objects.filter(
            seat=seat, source=Submission.Source.CONDITIONAL,
            submitted_at__gte=max(since, seat.joined_at or since),
        ).order_by("phase__number").values_list("phase__number", flat=True))
        if planned:
            item.update(planned_count=len(planned),
                        planned_phases=", ".join(str(number) for number in planned))
        if reads_messages:
            item["messages"] = unread_summary(match, user)
        items.append(item)
    if not items:
        return 0
    text, html = render("digest", {"user": user, "items": items, "site": settings.SITE_URL,
                                   "language": translation.get_language()})
    day = dates.date(now, "j F Y", shown_in=(zone_of(user), translation.get_language()))
    return int(email_queue(
        kind=Kind.DIGEST, dedupe_key=f"{Kind.DIGEST}:u{user.pk}:{now:%Y-%m-%d}",
        to=user.email, user=user, subject=_("Your matches on %(day)s") % {"day": day},
        body_text=text, body_html=html) is not None)
