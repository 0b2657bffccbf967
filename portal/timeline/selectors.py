"""Reads: a match's processing timeline as one viewer may see it, told in words.

Built from rows the lifecycle already keeps (phases, sheets' times, the mail and push outboxes,
the lifecycle outbox, moderation and leave rows, ``DeadlineMove``). What a viewer learns:

- their own seat: when each of their sheets came in, by which channel, how often changed;
  every mail and push to them with its fate, and why mail may not reach them;
- a fellow player's seat: only that its sheet came in, and when (what the "who has submitted"
  list shows while the phase is open); of mails and pushes to others, only how many;
- a moderator: every seat's sheet times and channels, each mail and push by kind, seat and
  fate (but a vote's or messages' notice as a whole: how many players it went to, never
  which, since the mails skip a secret ballot's hidden proposer and go only to a private
  channel's members), and moderators' reasons.

Never a sheet's content, a mail's subject, body or address, or a push's text: those columns
are not even read.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import engine
from durable.models import OutboxEvent
from games import dates, plugins, selectors
from games.models import (
    Action,
    DeadlineMove,
    Match,
    ModerationEntry,
    Phase,
    Seat,
    Submission,
)
from portal.mail.models import FailingAddress, OutgoingEmail
from portal.push.models import PushMessage, PushSubscription

AT = "j F Y, H:i T"
# An announcement still undone this long after its change is worth telling.
STUCK_AFTER = timedelta(minutes=2)

MAIL_KINDS = {
    "phase_opened": gettext_lazy("“Your move” mail"),
    "reminder": gettext_lazy("Deadline reminder mail"),
    "phase_resolved": gettext_lazy("Round report mail"),
    "match_ended": gettext_lazy("Final result mail"),
    "digest": gettext_lazy("Daily digest mail"),
    "reply": gettext_lazy("Answer to your mailed orders"),
    "leave": gettext_lazy("Leave mail"),
    "competition": gettext_lazy("Competition mail"),
    "vote": gettext_lazy("Mail about a vote to end the match or a concession"),
    "seat": gettext_lazy("Mail about a seat seeking a new commander"),
    "message": gettext_lazy("New messages mail"),
}
PUSH_KINDS = {
    "your_move": gettext_lazy("“Your move” push"),
    "reminder": gettext_lazy("Deadline reminder push"),
    "result": gettext_lazy("Result push"),
    "message": gettext_lazy("New messages push"),
    "test": gettext_lazy("Test push"),
}
# Mails of these kinds go to every player concerned but one whom the pages may hide (the
# proposer of a secret ballot), or only to the members of a private channel: a moderator sees
# each notice as a whole, never which seats were mailed.
GATHERED_MAILS = frozenset({"vote", "message"})
READER_IN_KEY = re.compile(r":u\d+")
SOURCES = {
    "web": gettext_lazy("on the web"),
    "email": gettext_lazy("by e-mail"),
    "api": gettext_lazy("through the API"),
    "bot": gettext_lazy("by a bot"),
    "default": gettext_lazy("by default (missed deadline)"),
    "schedule": gettext_lazy("on schedule"),
}
FAILING = {
    "bounce": gettext_lazy("mail to it bounced"),
    "complaint": gettext_lazy("a mail to it was reported as spam"),
    "rejected": gettext_lazy("the mail provider rejected it"),
}


@dataclass(frozen=True)
class Viewer:
    """Who reads the timeline: a seated player (``seat``) or a moderator, or both."""

    user: Any
    seat: Seat | None
    moderator: bool


def timeline_viewer(match: Match, user: Any) -> Viewer | None:
    """The match's players and moderators may read its timeline; None for anyone else."""
    if user is None or not user.is_authenticated:
        return None
    seat = selectors.match_seat_for_user(match, user)
    moderator = user.has_perm("games.moderate_match")
    if seat is None and not moderator:
        return None
    return Viewer(user, seat, moderator)


@dataclass
class Entry:
    at: datetime
    text: str
    kind: str  # a CSS class: sheet, phase, deadline, mail, push, moderation

    @property
    def when(self) -> str:
        return dates.date(self.at, AT)


@dataclass
class Group:
    title: str
    summary: str = ""
    entries: list[Entry] = field(default_factory=list)


def match_timeline(*, match: Match, viewer: Viewer) -> dict[str, Any]:
    """The viewer's timeline: a group per phase (and one for the match as a whole), each
    entry in time order, and what may keep mail or pushes from reaching the viewer."""
    game = engine.games().get(match.game)
    seats = {seat.number: seat for seat in Seat.objects.filter(match=match)}
    by_user = {seat.user_id: seat.number for seat in seats.values() if seat.user_id}

    def name(number: int | None) -> str:
        if number is None:
            return _("a seat")
        return str(game.seat_name(number)) if game else _("Seat %(n)s") % {"n": number}

    phases = list(Phase.all_objects.filter(match=match).order_by("opened_at", "pk").only(
        "id", "number", "name", "kind", "status", "opened_at", "deadline", "resolved_at"))
    groups = {phase.pk: Group(_phase_title(phase, match.game)) for phase in phases}
    whole = Group(_("The match as a whole"))
    starts = [phase.opened_at for phase in phases]

    def group_at(at: datetime, number: int | None = None) -> Group:
        """The group of phase ``number`` open at ``at`` (the last one opened before it)."""
        index = bisect.bisect_right(starts, at) - 1
        candidates = [p for p in phases if p.number == number] if number is not None else []
        if candidates:
            before = [p for p in candidates if p.opened_at <= at] or candidates
            return groups[before[-1].pk]
        if number is None and index >= 0:
            return groups[phases[index].pk]
        return whole

    moderation = list(ModerationEntry.objects.filter(match=match).only(
        "kind", "at", "phase_number", "details", "reason"))
    forced = {entry.phase_number for entry in moderation
              if entry.kind == ModerationEntry.Kind.FORCE_RESOLVE}
    sheets = list(Submission.objects.filter(phase__match=match).values(
        "phase_id", "seat__number", "source", "revision", "submitted_at", "updated_at"))
    for phase in phases:
        groups[phase.pk].summary = _phase_summary(
            phase, [s for s in sheets if s["phase_id"] == phase.pk], forced, name,
            clock=match.clock_bank_hours is not None)
        groups[phase.pk].entries.append(Entry(phase.opened_at, _("The phase opened."),
                                              "phase"))
    for sheet in sheets:
        _sheet_entry(groups[sheet["phase_id"]], sheet, viewer, name)
    _actions(match, viewer, group_at)
    for entry in moderation:
        group_at(entry.at, entry.phase_number).entries.append(
            Entry(entry.at, _moderation_text(entry, viewer, name), "moderation"))
    for move in DeadlineMove.objects.filter(match=match):
        group_at(move.at, move.phase_number).entries.append(
            Entry(move.at, _move_text(move, name), "deadline"))
    _mails(match, viewer, by_user, name, group_at)
    _pushes(match, viewer, by_user, name, group_at)
    _stuck(match, group_at)
    for phase in phases:
        if phase.resolved_at is not None:
            groups[phase.pk].entries.append(Entry(phase.resolved_at, groups[phase.pk].summary,
                                                  "phase"))
    shown = [groups[phase.pk] for phase in phases] + ([whole] if whole.entries else [])
    for group in shown:
        group.entries.sort(key=lambda entry: entry.at)
    shown.reverse()  # newest phase first, like the history
    return {"groups": shown, "notices": _why_no_mail(viewer) if viewer.seat else []}


def _phase_title(phase: Phase, game: str) -> str:
    title = _("Phase %(number)s") % {"number": phase.number}
    if phase.name:
        title = _("%(title)s: %(name)s") % {
            "title": title, "name": plugins.plugin_for(game).phase_label(phase.name)}
    if phase.status == Phase.Status.VOIDED:
        title = _("%(title)s (rolled back)") % {"title": title}
    return title


def _phase_summary(phase: Phase, sheets: list[dict], forced: set[int], name: Any,
                   clock: bool) -> str:
    """When and why the phase resolved, or where it stands."""
    if phase.status == Phase.Status.VOIDED:
        return _("A moderator rolled this phase back; it was played again.")
    if phase.status == Phase.Status.QUARANTINED:
        return _("Resolving this phase kept failing: it waits for a moderator.")
    if phase.status == Phase.Status.OPEN:
        if phase.deadline is None:
            return _("Open; its deadline is stopped.")
        return _("Open until %(deadline)s.") % {"deadline": dates.date(phase.deadline, AT)}
    resolved = dates.date(phase.resolved_at, AT)
    if phase.status == Phase.Status.CLOSED:
        return _("Closed %(at)s without being played: the players ended the match during it, "
                 "or the seat it waited for conceded.") % {"at": resolved}
    defaulted = sorted(s["seat__number"] for s in sheets if s["source"] == "default")
    if phase.number in forced and phase.resolved_at:
        return _("Resolved %(at)s: a moderator resolved it before its deadline.") % {
            "at": resolved}
    if defaulted:
        who = ", ".join(name(n) for n in defaulted)
        if clock:
            return _("Resolved %(at)s: the clock of %(seats)s ran out, and the default was "
                     "played for them.") % {"at": resolved, "seats": who}
        return _("Resolved %(at)s: the deadline passed without a sheet from %(seats)s, and "
                 "the default was played for them.") % {"at": resolved, "seats": who}
    if phase.deadline and phase.resolved_at and phase.resolved_at < phase.deadline:
        return _("Resolved %(at)s, %(early)s before its deadline: every sheet it needed was "
                 "in.") % {"at": resolved,
                           "early": dates.duration(phase.deadline - phase.resolved_at)}
    return _("Resolved %(at)s: every sheet it needed was in.") % {"at": resolved}


def _sheet_entry(group: Group, sheet: dict, viewer: Viewer, name: Any) -> None:
    number, at = sheet["seat__number"], sheet["submitted_at"]
    if sheet["source"] == "default":
        return  # told in the phase's summary
    own = viewer.seat is not None and viewer.seat.number == number
    if own and sheet["source"] == "conditional":
        text = _("Your move was played from your plan.")
    elif own:
        text = _("Your sheet came in %(source)s.") % {"source": SOURCES.get(sheet["source"], "")}
        if sheet["revision"] > 1:
            text += " " + ngettext(
                "You changed it once more, the last time %(at)s.",
                "You changed it %(count)s more times, the last time %(at)s.",
                sheet["revision"] - 1) % {"count": sheet["revision"] - 1,
                                          "at": dates.date(sheet["updated_at"], AT)}
    elif viewer.moderator and sheet["source"] != "conditional":  # (a plan is the seat's)
        text = _("The sheet of %(seat)s came in %(source)s (revision %(revision)s).") % {
            "seat": name(number), "source": SOURCES.get(sheet["source"], ""),
            "revision": sheet["revision"]}
    else:
        text = _("%(seat)s has submitted.") % {"seat": name(number)}
    group.entries.append(Entry(at, text, "sheet"))


def _actions(match: Match, viewer: Viewer, group_at: Any) -> None:
    """Continuous phases: the viewer's own logbook inputs (their times, never their content)
    and each gameday's start; a moderator sees every seat's."""
    rows = Action.objects.filter(match=match).values("kind", "seat", "at", "source", "struck")
    if not viewer.moderator:
        rows = rows.filter(kind=Action.Kind.TICK) | rows.filter(
            seat=viewer.seat.number if viewer.seat else -1)
    for row in rows:
        if row["kind"] == Action.Kind.TICK:
            text = _("A new gameday began.")
        elif viewer.seat is not None and row["seat"] == viewer.seat.number:
            text = _("You acted %(source)s.") % {"source": SOURCES.get(row["source"], "")}
        else:
            text = _("Seat %(n)s acted %(source)s.") % {"n": row["seat"],
                                                        "source": SOURCES.get(row["source"], "")}
        if row["struck"]:
            text += " " + _("A moderator struck it out of the logbook.")
        group_at(row["at"]).entries.append(Entry(row["at"], text, "sheet"))


def _moderation_text(entry: ModerationEntry, viewer: Viewer, name: Any) -> str:
    details = entry.details or {}

    def span(key: str) -> str:
        return dates.duration(timedelta(seconds=float(details.get(key) or 0)))

    Kind = ModerationEntry.Kind
    texts = {
        Kind.PAUSE: lambda: _("A moderator paused the match: the deadline stopped with %(left)s "
                              "left.") % {"left": span("left_seconds")},
        Kind.RESUME: lambda: _("A moderator resumed the match: the deadline runs again with "
                               "%(left)s left.") % {"left": span("left_seconds")},
        Kind.EXTEND: lambda: _("A moderator extended the deadline by %(added)s.") % {
            "added": span("added_seconds")},
        Kind.FORCE_RESOLVE: lambda: _("A moderator resolved the phase before its deadline."),
        Kind.RETRY: lambda: _("A moderator had the phase resolved again after it failed."),
        Kind.ROLLBACK: lambda: _("A moderator rolled the match back to phase %(n)s.") % {
            "n": details.get("to_phase", "?")},
        Kind.REPLACE: lambda: _("A moderator replaced the player of %(seat)s.") % {
            "seat": name(details.get("seat"))},
        Kind.KICK: lambda: _("A moderator removed the player of %(seat)s.") % {
            "seat": name(details.get("seat"))},
        Kind.VOID: lambda: _("A moderator voided the match."),
        Kind.ABORT: lambda: _("A moderator aborted the match."),
        Kind.LEAVE: lambda: (_("A player's leave moved the deadline by %(added)s.") % {
            "added": span("added_seconds")} if details.get("added_seconds")
            else _("A player's leave stopped their seat's clock while they are away.")),
        Kind.EXCUSE: lambda: _("A moderator excused a missed deadline."),
        Kind.UNEXCUSE: lambda: _("A moderator took back the excuse of a missed deadline."),
        Kind.STRIKE: lambda: _("A moderator struck an entry out of the logbook."),
        Kind.VOTES_LOCK: lambda: _("A moderator locked the players' votes to end the match."),
        Kind.VOTES_UNLOCK: lambda: _("A moderator unlocked the players' votes to end the "
                                     "match."),
    }
    text = texts.get(entry.kind, lambda: _("A moderator acted on the match."))()
    if viewer.moderator:
        text += " " + _("Reason: %(reason)s") % {"reason": entry.reason}
    return text


def _move_text(move: DeadlineMove, name: Any) -> str:
    values = {"from": dates.date(move.moved_from, AT), "to": dates.date(move.moved_to, AT),
              "span": dates.duration(move.moved_to - move.moved_from)}
    if move.reason == DeadlineMove.Reason.OUTAGE:
        return _("The site was down: the deadline moved by %(span)s, from %(from)s to %(to)s "
                 "(downtime does not count against players).") % values
    text = _("The deadline moved from %(from)s to %(to)s, out of the night of %(seat)s: it "
             "falls in their active hours.") % {**values, "seat": name(move.seat_number)}
    if move.capped:
        text += " " + _("(The match's largest shift held it short of them.)")
    return text


def _mails(match: Match, viewer: Viewer, by_user: dict, name: Any, group_at: Any) -> None:
    """The viewer's own mails in detail; others' as a count per phase (a moderator: each by
    kind, seat and fate). Never a subject, body or address."""
    rows = OutgoingEmail.objects.filter(match=match).values(
        "kind", "status", "user_id", "phase_number", "created_at", "sent_at", "attempts",
        "next_attempt_at", "dedupe_key")
    others: dict[int | None, list[dict]] = {}
    notices: dict[tuple, list[dict]] = {}
    for row in rows:
        if row["user_id"] == viewer.user.pk:
            at = row["sent_at"] or row["created_at"]
            group_at(row["created_at"], row["phase_number"]).entries.append(
                Entry(at, _delivery_text(MAIL_KINDS, row, _("to you")), "mail"))
        elif viewer.moderator and row["kind"] in GATHERED_MAILS:
            notice = READER_IN_KEY.sub("", row["dedupe_key"] or "")
            notices.setdefault((row["kind"], row["phase_number"], notice), []).append(row)
        elif viewer.moderator:
            seat = by_user.get(row["user_id"])
            to = _("to the player of %(seat)s") % {"seat": name(seat)} if seat else \
                _("to someone outside the match")
            group_at(row["created_at"], row["phase_number"]).entries.append(
                Entry(row["sent_at"] or row["created_at"], _delivery_text(MAIL_KINDS, row, to),
                      "mail"))
        else:
            others.setdefault(row["phase_number"], []).append(row)
    for (kind, number, _notice), batch in notices.items():
        first = min(row["created_at"] for row in batch)
        last = max(row["sent_at"] or row["created_at"] for row in batch)
        group_at(first, number).entries.append(Entry(last, _gathered_text(kind, batch), "mail"))
    for number, batch in others.items():
        last = max(row["created_at"] for row in batch)
        group_at(last, number).entries.append(Entry(last, ngettext(
            "%(count)s mail went to another player.",
            "%(count)s mails went to the other players.", len(batch)) % {"count": len(batch)},
            "mail"))


PUSH_PHASE = re.compile(r":p(\d+)(?::|$)")


def _pushes(match: Match, viewer: Viewer, by_user: dict, name: Any, group_at: Any) -> None:
    """Push messages of this match (their key names it): like mails."""
    rows = PushMessage.objects.filter(dedupe_key__contains=f":m{match.pk}:").values(
        "kind", "status", "dedupe_key", "subscription__user_id", "subscription__label",
        "created_at", "sent_at", "attempts", "next_attempt_at")
    others: dict[int | None, list[dict]] = {}
    for row in rows:
        found = PUSH_PHASE.search(row["dedupe_key"])
        number = int(found.group(1)) if found else None
        user_id = row["subscription__user_id"]
        if user_id == viewer.user.pk:
            device = row["subscription__label"]
            to = (_("to your device “%(label)s”") % {"label": device} if device
                  else _("to one of your devices"))
            group_at(row["created_at"], number).entries.append(
                Entry(row["sent_at"] or row["created_at"], _delivery_text(PUSH_KINDS, row, to),
                      "push"))
        elif viewer.moderator:
            to = _("to a device of the player of %(seat)s") % {
                "seat": name(by_user.get(user_id))}
            group_at(row["created_at"], number).entries.append(
                Entry(row["sent_at"] or row["created_at"], _delivery_text(PUSH_KINDS, row, to),
                      "push"))
        else:
            others.setdefault(number, []).append(row)
    for number, batch in others.items():
        last = max(row["created_at"] for row in batch)
        group_at(last, number).entries.append(Entry(last, ngettext(
            "%(count)s push went to another player's device.",
            "%(count)s pushes went to the other players' devices.", len(batch)) % {
            "count": len(batch)}, "push"))


def _gathered_text(kind: str, batch: list[dict]) -> str:
    """One notice's mails to other players, as a whole: how many, and their fates."""
    fates: dict[str, int] = {}
    for row in batch:
        fates[row["status"]] = fates.get(row["status"], 0) + 1
    told = []
    for status, count in sorted(fates.items()):
        if status == "sent":
            told.append(ngettext("%(count)s sent", "%(count)s sent", count) % {"count": count})
        elif status == "failed":
            told.append(ngettext("%(count)s failed", "%(count)s failed", count) % {
                "count": count})
        elif status == "expired":
            told.append(ngettext("%(count)s not delivered", "%(count)s not delivered",
                                 count) % {"count": count})
        elif status == "retry":
            told.append(ngettext("%(count)s to be tried again", "%(count)s to be tried again",
                                 count) % {"count": count})
        else:
            told.append(ngettext("%(count)s waiting to be sent", "%(count)s waiting to be sent",
                                 count) % {"count": count})
    return ngettext("%(what)s to %(count)s player: %(fates)s.",
                    "%(what)s to %(count)s players: %(fates)s.", len(batch)) % {
        "what": MAIL_KINDS.get(kind, _("A mail")), "count": len(batch),
        "fates": ", ".join(told)}


def _delivery_text(kinds: dict, row: dict, to: str) -> str:
    fallback = _("A mail") if kinds is MAIL_KINDS else _("A push")
    values = {"what": kinds.get(row["kind"], fallback), "to": to,
              "attempts": row["attempts"]}
    status = row["status"]
    if status == "sent":
        return _("%(what)s %(to)s: sent.") % values
    if status == "failed":
        return ngettext("%(what)s %(to)s: failed after %(attempts)s attempt; it was not "
                        "delivered.", "%(what)s %(to)s: failed after %(attempts)s attempts; "
                        "it was not delivered.", row["attempts"]) % values
    if status == "expired":
        return _("%(what)s %(to)s: not delivered; it came too late to matter or a newer one "
                 "replaced it.") % values
    if status == "retry":
        return _("%(what)s %(to)s: not delivered yet; the next try is %(next)s.") % {
            **values, "next": dates.date(row["next_attempt_at"], AT)}
    return _("%(what)s %(to)s: waiting to be sent.") % values


def _stuck(match: Match, group_at: Any) -> None:
    """Announcements the lifecycle promised that are still not carried out after a while."""
    since = timezone.now() - STUCK_AFTER
    for event in OutboxEvent.objects.filter(
            series=match.pk, kind="signal", done_at__isnull=True,
            created_at__lt=since).only("created_at", "payload"):
        number = (event.payload or {}).get("phase_number")
        group_at(event.created_at, number if isinstance(number, int) else None).entries.append(
            Entry(event.created_at, _("Its mails and pushes are not all prepared yet: the site "
                                      "is still working on them."), "mail"))


def _why_no_mail(viewer: Viewer) -> list[str]:
    """What keeps mail or pushes from the viewer, in their words: their address, their
    settings, unsubscriptions, devices."""
    from portal.accounts.models import Channel, Event, Profile
    from portal.accounts.notifications import DELIVERED, profile_of

    user, notices = viewer.user, []
    address = (user.email or "").strip().lower()
    if not address:
        notices.append(_("Your account has no e-mail address: no mail is sent to you."))
    else:
        failing = FailingAddress.objects.filter(address=address).first()
        if failing is not None:
            notices.append(_("Nothing is mailed to your address since %(at)s: %(why)s. Say it "
                             "works again in your settings.") % {
                "at": dates.date(failing.first_at, AT), "why": FAILING.get(failing.reason, "")})
    profile = profile_of(user)
    if profile.mail_delivery == Profile.Delivery.DAILY_DIGEST:
        notices.append(_("Your matches' news comes in one daily digest, not mail by mail."))
    off = [str(event.label) for event in Event
           if Channel.MAIL in DELIVERED[event] and Channel.MAIL not in profile.channels_of(event)]
    if off:
        notices.append(_("You chose no e-mail for: %(events)s.") % {"events": "; ".join(off)})
    devices = PushSubscription.objects.filter(user=user).aggregate(
        count=Count("pk"), moves=Count("pk", filter=Q(your_move=True)),
        reminders=Count("pk", filter=Q(reminders=True)),
        results=Count("pk", filter=Q(results=True)))
    if not devices["count"]:
        notices.append(_("No device of yours has push turned on."))
    else:
        off = [label for key, label in (("moves", _("“your move”")),
                                        ("reminders", _("reminders")),
                                        ("results", _("results"))) if not devices[key]]
        if off:
            notices.append(_("None of your devices takes pushes for: %(kinds)s.") % {
                "kinds": ", ".join(off)})
    return notices

