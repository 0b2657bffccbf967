"""Matches, seats, phases and sealed submissions: the turn lifecycle's data.

A match's lifecycle is data (``Match.TRANSITIONS``); every status change goes through
``games.services.match_set_status`` which writes a ``MatchStatusChange`` audit row.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from engine.record import seed_commitment
from games.fields import JSONField


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbits(62)


def new_seed_salt() -> str:
    """The salt of a match's seed commitment (``Match.seed_commitment``): 128 random bits."""
    return secrets.token_hex(16)


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")
        VOIDED = "voided", _("Voided by a moderator")

    # Allowed next statuses; anything else is refused by match_set_status.
    TRANSITIONS: dict[str, set[str]] = {
        Status.OPEN: {Status.ACTIVE, Status.ABORTED},
        Status.ACTIVE: {Status.FINISHED, Status.ABORTED, Status.VOIDED},
        Status.FINISHED: {Status.VOIDED},
        Status.ABORTED: {Status.VOIDED},
        Status.VOIDED: set(),
    }

    class MissPolicy(models.TextChoices):
        # Either way the game's default orders are played for each missed deadline first.
        REPLACE = "replace", _("Offer the seat to a new commander")
        FORFEIT = "forfeit", _("The seat forfeits (out of the game)")

    class Press(models.TextChoices):
        """What the players may say to each other (portal.chat, docs/messages.md)."""

        FULL = "full", _("Full press: public and private messages")
        PUBLIC = "public", _("Public messages only")
        NONE = "none", _("No messages at all (gunboat)")

    game = models.CharField(_("game"), max_length=40, db_index=True)
    title = models.CharField(_("title"), max_length=120, blank=True)
    options = JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices,
                              default=Status.OPEN)
    is_public = models.BooleanField(_("public"), default=True, help_text=_("Spectators may watch."))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True,
        on_delete=models.SET_NULL, related_name="+"
    )
    invite_token = models.CharField(_("invite token"), max_length=40, unique=True,
                                    default=new_invite_token)
    seed = models.BigIntegerField(_("seed"), default=new_seed)
    # Verifiable dice: the commitment to (seed, salt) is public from the start; the seed and
    # the salt are revealed when the match ends (docs/records.md). Empty for matches created
    # before commitments were published: they have none.
    seed_salt = models.CharField(_("seed salt"), max_length=64, blank=True, default=new_seed_salt,
                                 help_text=_("Secret until the match ends."))

    # Time control and missed-deadline policy.
    hours_per_phase = models.DecimalField(_("hours per phase"), max_digits=7, decimal_places=3,
                                          default=24)
    miss_policy = models.CharField(
        _("miss policy"), max_length=10, choices=MissPolicy.choices, default=MissPolicy.REPLACE
    )
    miss_limit = models.PositiveSmallIntegerField(
        _("miss limit"), default=3, help_text=_("Misses in a row before the policy applies.")
    )
    min_reliability = models.PositiveSmallIntegerField(
        _("minimum reliability"), null=True, blank=True,
        help_text=_("Players need at least this reliability (a percentage) to take a seat."),
    )
    # Correspondence clocks (``games.services.timing``): with a bank, each seat has its own
    # clock instead of the fixed hours per phase.
    clock_bank_hours = models.DecimalField(
        _("time bank (hours)"), max_digits=7, decimal_places=3, null=True, blank=True,
        help_text=_("Each seat's starting time bank; empty: a fixed deadline per phase."))
    clock_increment_hours = models.DecimalField(
        _("bank increment per phase (hours)"), max_digits=7, decimal_places=3, default=0,
        help_text=_("Added to a seat's bank per phase."))
    clock_cap_hours = models.DecimalField(
        _("bank cap (hours)"), max_digits=7, decimal_places=3, null=True, blank=True,
        help_text=_("A bank never grows beyond this."))
    max_shift_hours = models.DecimalField(
        _("maximum shift (hours)"), max_digits=6, decimal_places=3, default=12,
        help_text=_("A fixed deadline in the night of a seat that owes input moves to the start "
                    "of its active hours, by at most this much; 0: deadlines never move."))
    timing = JSONField(
        _("timing"), null=True, blank=True,
        help_text=_("The open phase's clocks (banks, due times, excused outages) or why its "
                    "deadline moved (games.services.timing)."))
    allow_vacations = models.BooleanField(
        _("allow leave"), default=True,
        help_text=_("A player's leave extends this match's deadlines.")
    )
    autopilot = models.BooleanField(
        _("autopilot"), default=False,
        help_text=_("A seat seeking a new commander (its player left it, or the "
                    "missed-deadline policy flagged it) is played by the game's "
                    "bot until someone takes it; otherwise it plays the default."))
    # Messages between the players (portal.chat).
    press = models.CharField(
        _("press"), max_length=8, choices=Press.choices, default=Press.FULL,
        help_text=_("Which messages the players may send: public and private, public only, or "
                    "none (gunboat)."))
    reveal_private = models.BooleanField(
        _("reveal private messages"), default=False,
        help_text=_("Private messages are shown to everyone who may see the match "
                    "once it has ended."))
    # A moderator's pause: the deadline stops; resuming gives back the time that was left.
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    paused_remaining = models.DurationField(
        _("time left when paused"), null=True, blank=True,
        help_text=_("Time left before the deadline when it was paused.")
    )
    extended_total = models.DurationField(
        _("total extensions"), default=timedelta(0),
        help_text=_("Moderators' deadline extensions, all phases.")
    )
    # A moderator's lock on the players' votes to end the match (games.services.votes).
    votes_locked = models.BooleanField(
        _("votes locked"), default=False,
        help_text=_("A moderator locked the players' votes to end the match."))

    # The current phase (denormalised from the open Phase row for the lobby and the sweeper).
    phase_number = models.PositiveIntegerField(_("phase number"), default=0)
    phase_kind = models.CharField(_("phase kind"), max_length=12, blank=True)
    phase_name = models.CharField(_("phase name"), max_length=40, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    queued_at = models.DateTimeField(
        _("queued at"), null=True, blank=True,
        help_text=_("When the sweeper last queued this match's due work (claimed: not re-queued "
                    "on every tick while it waits in the queue)."),
    )
    complete_at = models.DateTimeField(
        _("complete since"), null=True,
        blank=True,
        help_text=_("When every required seat was in for the open phase (resolution is due)."),
    )
    sheets_ahead = models.BooleanField(
        _("sheets entered ahead"), default=False,
        help_text=_("A seat has entered a sheet for the next phase under conditions: the "
                    "resolution has it checked (docs/conditional-orders.md)."))
    state = JSONField(_("state"), null=True, blank=True,
                      help_text=_("Engine state; never shown raw."))
    logbook_seq = models.PositiveIntegerField(
        _("last logbook number"), default=0,
        help_text=_("Continuous phases: the last logbook number given (an Action's seq).")
    )
    result = JSONField(_("result"), null=True, blank=True)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(min_reliability__lte=100),
                                   name="match_min_reliability_percent"),
        ]
        permissions = [("moderate_match", "Can pause, extend, roll back, replace, void matches")]
        indexes = [
            # The deadline sweeper's query: active matches whose deadline has passed.
            models.Index(
                fields=["deadline"], name="match_active_deadline", condition=Q(status="active")
            ),
            # The sweeper's second query: complete phases whose resolution never ran.
            models.Index(
                fields=["complete_at"], name="match_active_complete", condition=Q(status="active")
            ),
            # The lobby's "waiting for players", newest first.
            models.Index(
                fields=["-created_at"], name="match_open_public_new",
                condition=Q(status="open", is_public=True),
            ),
            # "My matches": the current ones, found without reading the finished ones.
            models.Index(
                fields=["status"], name="match_current",
                condition=Q(status__in=["open", "active"]),
            ),
        ]

    def __str__(self) -> str:
        return self.title or gettext("%(game)s #%(number)s") % {"game": self.game_name,
                                                                "number": self.pk}

    def get_absolute_url(self) -> str:
        """The match page (the admin's "View on site")."""
        from games.views.access import match_path

        return match_path(self.pk)

    @property
    def game_name(self) -> str:
        """The game's name as people read it (its slug only for a game no longer installed)."""
        game = engine.games().get(self.game)
        return str(game.name) if game is not None and game.name else self.game

    @property
    def phase_label(self) -> str:
        """The open phase's name in the reader's language ("" for a phase without one)."""
        from games import plugins

        return plugins.plugin_for(self.game).phase_label(self.phase_name)

    @property
    def progress_label(self) -> str:
        """Where the running match is ("phase 3 (orders)"), as its game's plug-in says it."""
        from games import plugins

        return plugins.plugin_for(self.game).progress_label(self)

    @property
    def pace(self) -> str:
        """How fast the match goes ("15 minutes per phase"), as its game's plug-in says it."""
        from games import plugins

        return plugins.plugin_for(self.game).pace(self)

    @property
    def seed_commitment(self) -> str:
        """SHA-256 of the seed and its salt, published from the start ("" without a salt)."""
        return seed_commitment(self.seed, self.seed_salt) if self.seed_salt else ""


class MatchStatusChange(models.Model):
    """Audit row for every status change of a match."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="status_changes")
    old_status = models.CharField(_("old status"), max_length=12, choices=Match.Status.choices)
    new_status = models.CharField(_("new status"), max_length=12, choices=Match.Status.choices)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("changed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(_("note"), max_length=255, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("match status change")
        verbose_name_plural = _("match status changes")
        ordering = ["changed_at", "pk"]

    def __str__(self) -> str:
        return gettext("Match %(match)s: %(old)s → %(new)s") % {
            "match": self.match_id, "old": self.get_old_status_display(),
            "new": self.get_new_status_display()}


class Seat(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        TAKEN = "taken", _("Taken")
        FLAGGED = "flagged", _("Needs a replacement")
        FORFEITED = "forfeited", _("Forfeited")
        CONCEDED = "conceded", _("Conceded")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="seats")
    number = models.PositiveSmallIntegerField(_("number"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot = models.CharField(_("bot"), max_length=40, blank=True,
                           help_text=_("Bot name, for a bot seat."))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    missed_in_row = models.PositiveIntegerField(_("misses in a row"), default=0)
    missed_total = models.PositiveIntegerField(_("misses in all"), default=0)
    joined_at = models.DateTimeField(_("joined at"), null=True, blank=True)
    # "Seeking a commander": a flagged seat of a match in play is offered in the lobby and by
    # this unguessable link until someone takes it (``games.services.seeking``); None when
    # the seat is not offered. While offered, ``bot`` is its autopilot (if the match allows).
    offer_token = models.CharField(_("offer token"), max_length=40, null=True, blank=True,
                                   unique=True,
                                   help_text=_("The seat's link while it seeks a commander."))
    offered_at = models.DateTimeField(_("offered at"), null=True, blank=True,
                                      help_text=_("Since when the seat seeks a commander."))
    # When the seat's player last had the match page open (its poll, recorded about once a
    # minute: games.services.presence): no "your move" mail while they are there.
    seen_at = models.DateTimeField(_("seen on the match page"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
            models.CheckConstraint(
                condition=~(Q(user__isnull=False) & ~Q(bot="")), name="seat_user_or_bot"
            ),
        ]
        indexes = [
            # "My matches": a player's finished matches a page at a time, the newest seat first.
            models.Index(fields=["user", "-id"], name="seat_user_newest"),
            # The lobby's "seeking a commander", longest waiting first.
            models.Index(fields=["offered_at"], name="seat_seeking",
                         condition=Q(offer_token__isnull=False)),
        ]

    def __str__(self) -> str:
        return gettext("%(match)s, seat %(number)s") % {"match": self.match,
                                                        "number": self.number}

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def seeking(self) -> bool:
        """Offered to a new commander (``games.services.seeking``)."""
        return self.offer_token is not None

    @property
    def on_autopilot(self) -> bool:
        """The game's bot plays the seat until a new commander takes it."""
        return self.status == self.Status.FLAGGED and bool(self.bot)


def new_offer_token() -> str:
    return secrets.token_urlsafe(24)


class SeatTenure(models.Model):
    """One player's command of one seat of a match in play: from taking it (the match's start,
    a join, a takeover) to handing it on or the match's end. Each tenure is counted for
    itself: a newcomer never inherits the seat's misses (``games.services.reliability``), and
    ladders rate only the tenure holding the seat at the end (docs/competitions.md)."""

    class Ending(models.TextChoices):
        END = "end", _("Held to the end of the match")
        LEFT = "left", _("Left the match")
        MISSED = "missed", _("Missed too many deadlines in a row")
        FORFEITED = "forfeited", _("Forfeited after missed deadlines")
        KICKED = "kicked", _("Removed by a moderator")
        REPLACED = "replaced", _("Replaced by a moderator")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="tenures")
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="seat_tenures")
    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    ending = models.CharField(_("ending"), max_length=10, choices=Ending.choices, blank=True,
                              help_text=_("Why it ended (empty: still in command)."))

    class Meta:
        verbose_name = _("seat tenure")
        verbose_name_plural = _("seat tenures")
        ordering = ["match", "seat_number", "started_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat_number"],
                                    condition=Q(ended_at__isnull=True),
                                    name="tenure_one_commander_per_seat"),
            models.UniqueConstraint(fields=["match", "user"], condition=Q(ended_at__isnull=True),
                                    name="tenure_one_seat_per_player"),
            models.CheckConstraint(condition=Q(ended_at__isnull=True, ending="")
                                   | (Q(ended_at__isnull=False) & ~Q(ending="")),
                                   name="tenure_ended_with_a_reason"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s in command of %(match)s, seat %(number)s") % {
            "user": self.user, "match": self.match, "number": self.seat_number}


class PhaseManager(models.Manager):
    """Phases in play: a phase voided by a moderator's roll-back is history only (its number is
    played again), so lookups by number never find it. ``Phase.all_objects`` has them all."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().exclude(status="voided")


class Phase(models.Model):
    """One phase of a match: opened, then resolved exactly once. The match's logbook."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        QUARANTINED = "quarantined", _("Quarantined (resolution keeps failing)")
        VOIDED = "voided", _("Voided (rolled back by a moderator)")
        # Ended without resolving its sheets: the match ended during it (a draw or a cancel
        # the players agreed to, a concession), or the seat it waited for conceded and the
        # turn passed on. Its settings (a concession among them) happened; nothing else did.
        CLOSED = "closed", _("Closed unplayed (ended by the players)")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="phases")
    number = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=12)
    name = models.CharField(_("name"), max_length=40, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices,
                              default=Status.OPEN)
    opened_at = models.DateTimeField(_("opened at"))
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    state_before = JSONField(_("state before"), help_text=_("Engine state when the phase opened."))
    revealed = JSONField(
        _("revealed"), null=True, blank=True,
        help_text=_("Submissions by seat, filled in when the phase resolves.")
    )
    events = JSONField(_("events"), default=list, blank=True)
    settings = JSONField(
        _("settings"), default=list, blank=True,
        help_text=_("Out-of-turn settings taken while the phase was open, in order ({seat, data, "
                    "at}): secret to their authors until the match ends (match records)."))
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    extended = models.DurationField(
        _("extended"), default=timedelta(0),
        help_text=_("Moderators' deadline extensions of this phase.")
    )
    leave_extended = models.DurationField(
        _("extended by leave"), default=timedelta(0),
        help_text=_("Players' leave added to this phase's deadline.")
    )

    objects = PhaseManager()
    all_objects = models.Manager()

    class Meta:
        verbose_name = _("phase")
        verbose_name_plural = _("phases")
        ordering = ["match", "number"]
        constraints = [
            # A rolled-back phase is kept (voided) and its number opened again.
            models.UniqueConstraint(fields=["match", "number"], name="phase_unique_number",
                                    condition=~Q(status="voided")),
        ]

    def __str__(self) -> str:
        return gettext("%(match)s, phase %(number)s (%(name)s)") % {
            "match": self.match, "number": self.number, "name": self.label or self.kind}

    @property
    def label(self) -> str:
        """The phase's name in the reader's language ("" for a phase without one). It reads
        the phase's match (a query unless loaded): a list of phases asks the game's plug-in
        once instead (``plugin.phase_label``)."""
        from games import plugins

        return plugins.plugin_for(self.match.game).phase_label(self.name)


class Submission(models.Model):
    """A sealed sheet: one per seat per phase, secret until the phase resolves."""

    class Source(models.TextChoices):
        WEB = "web", _("Web")
        EMAIL = "email", _("Email")
        API = "api", _("API")
        BOT = "bot", _("Bot")
        DEFAULT = "default", _("Default (missed deadline)")
        CONDITIONAL = "conditional", _("Played from the seat's plan")

    phase = models.ForeignKey(Phase, verbose_name=_("phase"), on_delete=models.CASCADE,
                              related_name="submissions")
    seat = models.ForeignKey(Seat, verbose_name=_("seat"), on_delete=models.CASCADE,
                             related_name="submissions")
    data = JSONField(_("sheet"))
    source = models.CharField(_("source"), max_length=12, choices=Source.choices)
    salt = models.CharField(_("salt"), max_length=64)
    receipt = models.CharField(_("receipt"), max_length=64,
                               help_text=_("SHA-256 of salt + canonical sheet."))
    revision = models.PositiveIntegerField(_("revision"), default=1)
    submitted_at = models.DateTimeField(_("submitted at"))
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("order sheet")
        verbose_name_plural = _("order sheets")
        ordering = ["phase", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["phase", "seat"], name="submission_unique_seat"),
        ]

    def __str__(self) -> str:
        return gettext("%(phase)s: sheet of seat %(number)s (%(source)s)") % {
            "phase": self.phase, "number": self.seat.number,
            "source": self.get_source_display()}


class ConditionalPlan(models.Model):
    """A seat's moves said ahead of its turn (``games.services.plans``): a tree of branches
    {"when": [{"seat", "move"}, ...], "play": move, "then": [branches]}, each "when" the moves
    the other seats play after ``after_phase`` and before the seat's next turn. Sealed like a
    sheet: only its author ever sees it. ``notice`` says why the last plan ended unplayed
    (the moves did not match, or the planned move was not legal), until the seat reads it."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="plans")
    seat = models.OneToOneField(Seat, verbose_name=_("seat"), on_delete=models.CASCADE,
                                related_name="plan")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="+",
                             help_text=_("Who made the plan: it ends with their command."))
    tree = JSONField(_("plan"), default=list, blank=True)
    after_phase = models.PositiveIntegerField(
        _("after phase"), help_text=_("The plan's conditions cover the moves from this phase "
                                      "on."))
    played = models.PositiveIntegerField(_("moves played"), default=0)
    notice = JSONField(_("notice"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("plan")
        verbose_name_plural = _("plans")

    def __str__(self) -> str:
        return gettext("Plan of seat %(number)s") % {"number": self.seat.number}


class ConditionalSheet(models.Model):
    """A seat's sheet for the phase after the open one, entered ahead under conditions in the
    game's terms (``Game.sheet_conditions``), checked against the position after the open
    phase resolves (``games.services.plans.sheets_follow``): submitted then if every one
    holds, else discarded with a ``notice``. Sealed like a sheet: only its author sees it."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="sheets_ahead_rows")
    seat = models.OneToOneField(Seat, verbose_name=_("seat"), on_delete=models.CASCADE,
                                related_name="sheet_ahead")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="+")
    for_phase = models.PositiveIntegerField(_("for phase"))
    conditions = JSONField(_("conditions"), default=list, blank=True)
    data = JSONField(_("sheet"), null=True, blank=True)
    notice = JSONField(_("notice"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("sheet entered ahead")
        verbose_name_plural = _("sheets entered ahead")

    def __str__(self) -> str:
        return gettext("Sheet of seat %(number)s for phase %(phase)s") % {
            "number": self.seat.number, "phase": self.for_phase}


class SweepRun(models.Model):
    """The deadline sweeper's heartbeat (one row): a long gap means the system was down."""

    name = models.CharField(_("name"), max_length=40, unique=True, default="deadlines")
    last_run_at = models.DateTimeField(_("last run at"))
    last_gap_seconds = models.FloatField(_("last gap (seconds)"), default=0)
    extended_total = models.PositiveIntegerField(
        _("total extensions"), default=0,
        help_text=_("Deadlines extended because of an outage, ever.")
    )
    # An outage extension in progress (done in batches): deadlines in (since, until] move by
    # until - since. Cleared when done; a sweep that finds it set finishes it first.
    extending_since = models.DateTimeField(_("extending since"), null=True, blank=True)
    extending_until = models.DateTimeField(_("extending until"), null=True, blank=True)
    # The broker's identity (Redis's run_id) when the sweeper last queued work: when it changes,
    # the broker restarted and every message it held is gone, so every claim is void.
    broker_epoch = models.CharField(_("broker epoch"), max_length=64, blank=True, default="")

    def __str__(self) -> str:
        return gettext("sweeper %(name)s, last run %(at)s") % {
            "name": self.name, "at": f"{self.last_run_at:%Y-%m-%d %H:%M:%S}"}

    class Meta:
        verbose_name = _("sweep run")
        verbose_name_plural = _("sweep runs")


class Action(models.Model):
    """One input of a continuous phase, in the match's logbook order: a seat's action, or the
    gameday tick. ``seq`` is given under the match row lock, so the order of ``seq`` is the
    order of commits; each input's dice come from ``rng_for(match.seed, seq)``, which is what
    lets a replay without a struck entry keep everybody else's dice."""

    class Kind(models.TextChoices):
        ACTION = "action", _("Action")
        TICK = "tick", _("Gameday tick")
        RESIGN = "resign", _("Concession")

    class Source(models.TextChoices):
        WEB = "web", _("Web")
        EMAIL = "email", _("Email")
        API = "api", _("API")
        BOT = "bot", _("Bot")
        SCHEDULE = "schedule", _("Schedule (tick)")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="actions")
    seq = models.PositiveIntegerField(_("logbook number"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.ACTION)
    seat = models.PositiveSmallIntegerField(_("seat number"), null=True, blank=True,
                                            help_text=_("None for a tick."))
    data = JSONField(_("data"), default=dict, blank=True, help_text=_("The action as applied."))
    gameday = models.CharField(_("gameday"), max_length=40, blank=True,
                               help_text=_("A tick's gameday key."))
    at = models.DateTimeField(_("time"), help_text=_("The `now` the engine was given."))
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    events = JSONField(_("events"), default=list, blank=True,
                       help_text=_("The logbook entries this input gave (rewritten by a "
                                   "strike-out's replay)."))
    state_after = JSONField(
        _("state after"), null=True, blank=True,
        help_text=_("Ticks only: the engine state after this tick, a checkpoint replays start "
                    "from (so a replay is as long as a gameday, not the whole match)."),
    )
    struck = models.BooleanField(_("struck"), default=False)
    struck_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("struck by"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    struck_at = models.DateTimeField(_("struck at"), null=True, blank=True)
    struck_reason = models.CharField(_("struck reason"), max_length=255, blank=True)

    class Meta:
        verbose_name = _("logbook entry")
        verbose_name_plural = _("logbook entries")
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="action_unique_seq"),
            # A gameday is ticked exactly once, however often the sweeper fires.
            models.UniqueConstraint(
                fields=["match", "gameday"], condition=Q(kind="tick"),
                name="action_unique_tick",
            ),
        ]
        # Replays start from the latest tick's checkpoint at or before an entry.
        indexes = [models.Index(fields=["match", "seq"], condition=Q(kind="tick"),
                                name="action_tick_seq")]

    def __str__(self) -> str:
        if self.kind == self.Kind.TICK:
            what = gettext("tick %(gameday)s") % {"gameday": self.gameday}
        else:
            what = gettext("seat %(number)s") % {"number": self.seat}
        return f"{self.match} #{self.seq} ({what})"


class LogbookStrike(models.Model):
    """Audit row: a moderator struck a logbook entry out and the match was replayed."""

    action = models.ForeignKey(Action, verbose_name=_("action"), on_delete=models.CASCADE,
                               related_name="strikes")
    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="strikes")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("moderator"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=255)
    entries_replayed = models.PositiveIntegerField(_("entries replayed"))
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("logbook strike-out")
        verbose_name_plural = _("logbook strike-outs")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return gettext("%(match)s: entry #%(seq)s struck") % {"match": self.match,
                                                              "seq": self.action.seq}


# --- reliability ---------------------------------------------------------------------------


class DeadlineMiss(models.Model):
    """A deadline a player let pass: their seat got the default sheet. Written by the resolution
    that played the default (so it names the player who held the seat then). A miss that was
    not the player's fault — a vacation, a moderator's decision — is ``excused`` and does not
    count (``games.services.deadline_miss_excuse``)."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="misses")
    phase_number = models.PositiveIntegerField(_("phase number"))
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="deadline_misses")
    missed_at = models.DateTimeField(_("missed at"))
    excused = models.BooleanField(_("excused"), default=False)
    excused_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("excused by"),
                                   null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    excused_reason = models.CharField(_("excused reason"), max_length=255, blank=True)

    class Meta:
        verbose_name = _("missed deadline")
        verbose_name_plural = _("missed deadlines")
        ordering = ["match", "phase_number", "seat_number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "phase_number", "seat_number"],
                                    name="deadlinemiss_unique_seat"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s missed %(match)s, phase %(number)s") % {
            "user": self.user, "match": self.match, "number": self.phase_number}


class ReliabilityUpdate(models.Model):
    """A finished (or aborted) match counted in its players' reliability records: exactly one
    row per match, whatever the signal or the sweeper does (like a ladder's RatingUpdate)."""

    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                                 related_name="reliability")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    def __str__(self) -> str:
        return gettext("reliability counted for %(match)s") % {"match": self.match}

    class Meta:
        verbose_name = _("reliability update")
        verbose_name_plural = _("reliability updates")


class MatchReliability(models.Model):
    """One player's part in one counted match: how it ended for them and how many deadlines
    they faced in it."""

    class Outcome(models.TextChoices):
        FINISHED = "finished", _("Played to the end")
        ABANDONED = "abandoned", _("Abandoned (left, forfeited or replaced after misses)")
        HANDED_OVER = "handed_over", _("Handed over by a moderator (no miss of theirs)")
        ABORTED = "aborted", _("Aborted by a moderator")

    update = models.ForeignKey(ReliabilityUpdate, verbose_name=_("reliability update"),
                               on_delete=models.CASCADE,
                               related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="+")
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    # One row per tenure (a player who held two seats, or one seat twice, has two); rows
    # counted before tenures were kept have none.
    tenure = models.OneToOneField(SeatTenure, verbose_name=_("tenure"), null=True, blank=True,
                                  on_delete=models.SET_NULL,
                                  related_name="reliability")
    outcome = models.CharField(_("outcome"), max_length=12, choices=Outcome.choices)
    deadlines = models.PositiveIntegerField(_("deadlines"), default=0)

    class Meta:
        verbose_name = _("match reliability record")
        verbose_name_plural = _("match reliability records")

    def __str__(self) -> str:
        return gettext("Seat %(seat)s of %(user)s: %(outcome)s") % {
            "seat": self.seat_number, "user": self.user, "outcome": self.get_outcome_display()}


class Reliability(models.Model):
    """A player's reliability record, recomputed from the rows above when one of their matches
    is counted or a miss of theirs is excused. ``score`` (a percentage) is the share of their
    deadlines met times the share of their matches played to the end; None before their first
    counted match."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                                on_delete=models.CASCADE,
                                related_name="reliability")
    matches_finished = models.PositiveIntegerField(_("matches finished"), default=0)
    matches_abandoned = models.PositiveIntegerField(_("matches abandoned"), default=0)
    deadlines = models.PositiveIntegerField(_("deadlines"), default=0)
    deadlines_missed = models.PositiveIntegerField(_("deadlines missed"), default=0)
    misses_excused = models.PositiveIntegerField(_("misses excused"), default=0)
    score = models.PositiveSmallIntegerField(_("score"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    def __str__(self) -> str:
        return gettext("reliability of %(user)s: %(score)s") % {"user": self.user,
                                                                "score": self.score}

    class Meta:
        verbose_name = _("reliability record")
        verbose_name_plural = _("reliability records")
class ModerationEntry(models.Model):
    """Audit row: who did what to a match, when and why (one per moderator action, and one per
    leave that moved a deadline). ``summary`` is the short public form shown in the match's
    history; ``details`` holds the action's arguments (never a sheet or the engine state)."""

    class Kind(models.TextChoices):
        PAUSE = "pause", _("Pause")
        RESUME = "resume", _("Resume")
        EXTEND = "extend", _("Extend the deadline")
        FORCE_RESOLVE = "force_resolve", _("Force resolve now")
        RETRY = "retry", _("Retry a quarantined phase")
        ROLLBACK = "rollback", _("Roll back")
        REPLACE = "replace", _("Replace a player")
        VOID = "void", _("Void")
        ABORT = "abort", _("Abort")
        KICK = "kick", _("Kick for abuse")
        LEAVE = "leave", _("Player's leave")
        EXCUSE = "excuse", _("Excuse a missed deadline")
        UNEXCUSE = "unexcuse", _("Take an excuse back")
        STRIKE = "strike", _("Strike out a logbook entry")
        VOTES_LOCK = "votes_lock", _("Lock the players' votes")
        VOTES_UNLOCK = "votes_unlock", _("Unlock the players' votes")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="moderation")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("moderator"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("when"))
    phase_number = models.PositiveIntegerField(_("phase number"),
                                               help_text=_("The match's phase at the time."))
    reason = models.TextField(_("reason"))
    summary = models.CharField(_("summary"), max_length=255,
                               help_text=_("Shown in the match's public history."))
    details = JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("moderation entry")
        verbose_name_plural = _("moderation entries")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="moderation_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.summary}"


class Leave(models.Model):
    """A player's vacation: from ``starts_at`` to ``ends_at``, taken from their yearly bank.
    Other code (clocks) may exclude these spans from a player's time."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE,
                             related_name="leaves")
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    days = models.PositiveSmallIntegerField(_("days"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("leave")
        verbose_name_plural = _("leaves")
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")),
                                   name="leave_ends_after_start"),
        ]
        indexes = [models.Index(fields=["user", "ends_at"], name="leave_user_end")]

    def __str__(self) -> str:
        return gettext("%(user)s on leave from %(start)s to %(end)s") % {
            "user": self.user, "start": f"{self.starts_at:%Y-%m-%d}",
            "end": f"{self.ends_at:%Y-%m-%d}"}


class LeaveExtension(models.Model):
    """How much one leave moved one phase's deadline."""

    leave = models.ForeignKey(Leave, verbose_name=_("leave"), on_delete=models.CASCADE,
                              related_name="extensions")
    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="leave_extensions")
    phase_number = models.PositiveIntegerField(_("phase number"))
    added = models.DurationField(_("time added"))
    at = models.DateTimeField(_("when"))

    class Meta:
        verbose_name = _("leave extension")
        verbose_name_plural = _("leave extensions")
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["leave", "match", "phase_number"],
                                    name="leave_extension_once_per_phase"),
        ]

    def __str__(self) -> str:
        return gettext("%(leave)s → %(match)s, phase %(number)s: +%(added)s") % {
            "leave": self.leave, "match": self.match, "number": self.phase_number,
            "added": self.added}


class DeadlineMove(models.Model):
    """A deadline moved by something that leaves no other row once its phase is over: a
    required seat's night (the match's shift into active hours, kept only in the open phase's
    ``Match.timing``) or the site's downtime (the sweeper moves deadlines in bulk). Moderators'
    extensions and players' leave have their own rows (``ModerationEntry``,
    ``LeaveExtension``). Read by the match's processing timeline."""

    class Reason(models.TextChoices):
        ACTIVE_HOURS = "active_hours", _("Moved out of a player's night")
        OUTAGE = "outage", _("Extended by the site's downtime")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="deadline_moves")
    phase_number = models.PositiveIntegerField(_("phase number"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    seat_number = models.PositiveSmallIntegerField(
        _("seat number"), null=True, blank=True,
        help_text=_("Active hours: the seat whose night it was."))
    moved_from = models.DateTimeField(_("moved from"))
    moved_to = models.DateTimeField(_("moved to"))
    capped = models.BooleanField(_("capped"), default=False,
                                 help_text=_("The match's maximum shift held "
                                             "it short of the window."))
    at = models.DateTimeField(_("when"))

    class Meta:
        verbose_name = _("deadline move")
        verbose_name_plural = _("deadline moves")
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["match", "phase_number"], name="deadlinemove_phase")]

    def __str__(self) -> str:
        return gettext("%(match)s, phase %(number)s: %(reason)s") % {
            "match": self.match, "number": self.phase_number,
            "reason": self.get_reason_display()}


# --- votes to end a match (games.services.votes) ------------------------------------------------


class MatchVote(models.Model):
    """A proposal to end a match by agreement (a draw among the seats still in, or a cancel),
    decided by the ballots of the seats still in: it passes when every one of them said yes,
    fails at the first no, and expires when its time runs out. A concession is a row too
    (kind "concede"): its seat's own decision, passed at once, with no ballot. Its status is
    data (``TRANSITIONS``); ``games.services.votes`` changes it under the match lock.

    A secret ballot (``secret``) shows nobody, while it is open, who proposed it or who voted
    what: only the tally. Once closed everything is shown."""

    class Kind(models.TextChoices):
        DRAW = "draw", _("a draw")
        CANCEL = "cancel", _("cancelling the match")
        CONCEDE = "concede", _("a concession")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PASSED = "passed", _("passed")
        FAILED = "failed", _("failed")
        EXPIRED = "expired", _("expired")
        CLOSED = "closed", _("closed")  # by a moderator's lock, a roll-back or the match's end

    TRANSITIONS: dict[str, set[str]] = {
        Status.OPEN: {Status.PASSED, Status.FAILED, Status.EXPIRED, Status.CLOSED},
        Status.PASSED: {Status.CLOSED},  # a concession undone by a moderator's roll-back
        Status.FAILED: set(),
        Status.EXPIRED: set(),
        Status.CLOSED: set(),
    }

    class Why(models.TextChoices):
        """Why a vote was closed without passing or failing."""

        LOCKED = "locked", _("a moderator locked voting")
        ENDED = "ended", _("the match ended")
        ROLLED_BACK = "rolled_back", _("a moderator rolled the match back")
        SEAT_CHANGED = "seat_changed", _("a seat changed hands")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="votes")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices,
                              default=Status.OPEN)
    secret = models.BooleanField(_("secret"), default=False,
                                 help_text=_("Only the tally is shown until it closes."))
    seat_number = models.PositiveSmallIntegerField(
        _("seat number"), help_text=_("The proposing (or conceding) seat."))
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("proposed by"),
                                    null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    phase_number = models.PositiveIntegerField(_("phase number"),
                                               help_text=_("The match's phase when proposed."))
    opened_at = models.DateTimeField(_("opened at"))
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_why = models.CharField(_("why closed"), max_length=12, choices=Why.choices, blank=True)
    standing = JSONField(_("seats still in"), default=list, blank=True,
                         help_text=_("The seats still in when it closed (a passed draw: who "
                                     "shares it)."))
    ended_match = models.BooleanField(_("ended the match"), default=False,
                                      help_text=_("It ended the match (a passed proposal, or "
                                                  "the concession that left one seat)."))

    class Meta:
        verbose_name = _("vote to end a match")
        verbose_name_plural = _("votes to end a match")
        ordering = ["match", "opened_at", "pk"]
        constraints = [
            # One open proposal of a kind at a time.
            models.UniqueConstraint(fields=["match", "kind"], condition=Q(status="open"),
                                    name="matchvote_one_open_per_kind"),
        ]
        indexes = [
            # The expiry sweeper's query: open votes whose time ran out.
            models.Index(fields=["expires_at"], name="matchvote_open_expiry",
                         condition=Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.get_kind_display()} ({self.get_status_display()})"


class MatchBallot(models.Model):
    """One seat's answer to a vote: yes or no, once (a ballot is never changed)."""

    vote = models.ForeignKey(MatchVote, verbose_name=_("vote"), on_delete=models.CASCADE,
                             related_name="ballots")
    seat_number = models.PositiveSmallIntegerField(_("seat number"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True,
                             blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    yes = models.BooleanField(_("in favour"))
    cast_at = models.DateTimeField(_("cast at"))

    class Meta:
        verbose_name = _("ballot")
        verbose_name_plural = _("ballots")
        ordering = ["vote", "cast_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["vote", "seat_number"], name="matchballot_once"),
        ]

    def __str__(self) -> str:
        return gettext("%(vote)s, seat %(number)s") % {"vote": self.vote,
                                                       "number": self.seat_number}
