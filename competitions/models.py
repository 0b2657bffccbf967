"""Clubs, ladders (OpenSkill ratings, challenges) and tournaments, built on ordinary matches.

Lifecycles are data (``Tournament.TRANSITIONS``); status changes go through the services and
leave an audit row. Uniqueness that matters for exactly-once behaviour is a database
constraint: one rating update per (ladder, match), one round per (tournament, number), one
pairing per match.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.models import Match


def new_token() -> str:
    return secrets.token_urlsafe(18)


# --- clubs ----------------------------------------------------------------------------------


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    is_public = models.BooleanField(
        _("public"), default=True,
        help_text=_("Anyone may ask to join; otherwise by invitation only.")
    )
    invite_token = models.CharField(_("invite token"), max_length=40, unique=True,
                                    default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True,
        on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ORGANISER = "organiser", _("Organiser")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE,
        related_name="club_memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s in %(club)s (%(role)s)") % {
            "user": self.user, "club": self.club, "role": self.get_role_display()}

    @property
    def can_organise(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ORGANISER)


class ClubInvitation(models.Model):
    """An e-mailed invitation: its token admits one person, once (used, it admits nobody
    else, nor its user again after they left or were removed)."""

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="invitations")
    email = models.EmailField(_("email address"))
    token = models.CharField(_("token"), max_length=40, unique=True, default=new_token)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("invited by"), null=True,
        on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("accepted by"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)

    def __str__(self) -> str:
        return gettext("invitation to %(club)s for %(email)s") % {"club": self.club,
                                                                  "email": self.email}

    class Meta:
        verbose_name = _("club invitation")
        verbose_name_plural = _("club invitations")


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("join request", "Pending")
        APPROVED = "approved", pgettext_lazy("join request", "Approved")
        DECLINED = "declined", pgettext_lazy("join request", "Declined")

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="+")
    message = models.CharField(_("message"), max_length=255, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], condition=Q(status="pending"),
                                    name="joinrequest_one_pending"),
        ]

    def __str__(self) -> str:
        return gettext("%(user)s asks to join %(club)s (%(status)s)") % {
            "user": self.user, "club": self.club, "status": self.get_status_display()}


class ClubRemoval(models.Model):
    """An organiser removed this person from the club: until an organiser lifts it, they
    cannot join again by any link, invitation or request."""

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="+")
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("removed by"), null=True,
        on_delete=models.SET_NULL, related_name="+"
    )
    removed_at = models.DateTimeField(_("removed at"), auto_now_add=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("lifted by"), null=True, blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("club removal")
        verbose_name_plural = _("club removals")
        ordering = ["removed_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], condition=Q(lifted_at__isnull=True),
                                    name="clubremoval_one_in_force"),
        ]

    def __str__(self) -> str:
        if self.lifted_at:
            return gettext("%(user)s removed from %(club)s (lifted)") % {"user": self.user,
                                                                         "club": self.club}
        return gettext("%(user)s removed from %(club)s") % {"user": self.user, "club": self.club}


class ClubMatch(models.Model):
    """A club-only match an organiser created (ladder and tournament matches link elsewhere)."""

    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="club_matches")
    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                                 related_name="club_link")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), null=True,
        on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)


# --- ladders --------------------------------------------------------------------------------

    class Meta:
        verbose_name = _("club match")
        verbose_name_plural = _("club matches")

    def __str__(self) -> str:
        return gettext("Match %(match)s of %(club)s") % {"match": self.match_id, "club": self.club}


class Ladder(models.Model):
    """Ratings for one game, in one club or site-wide (``club`` empty)."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.CASCADE,
        related_name="ladders"
    )
    game = models.CharField(_("game"), max_length=40)
    name = models.CharField(_("name"), max_length=80)
    options = models.JSONField(_("options"), default=dict, blank=True,
                               help_text=_("Options of challenge matches."))
    hours_per_phase = models.DecimalField(_("hours per phase"), max_digits=7, decimal_places=3,
                                          default=72)
    challenge_days = models.PositiveSmallIntegerField(
        _("days to answer a challenge"), default=7, help_text=_("Days a challenge stays open.")
    )
    decay_sigma_per_week = models.FloatField(
        default=0, verbose_name=_("rating doubt added per week without a game"),
        help_text=_("Each week without a rated match makes a player's rating this much less "
                    "certain, lowering the rating shown until they play again (0: off).")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")
        ordering = ["club__name", "game"]
        constraints = [
            models.UniqueConstraint(fields=["club", "game"], name="ladder_unique_club_game"),
            models.UniqueConstraint(fields=["game"], condition=Q(club__isnull=True),
                                    name="ladder_unique_site_game"),
        ]

    def __str__(self) -> str:
        return self.name


class Rating(models.Model):
    ladder = models.ForeignKey(Ladder, verbose_name=_("ladder"), on_delete=models.CASCADE,
                               related_name="ratings")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    last_active = models.DateTimeField(_("last active"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="rating_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} on {self.ladder}: {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


class LadderMatch(models.Model):
    """A match rated on a ladder besides the site-wide one (a challenge's, a tournament's)."""

    ladder = models.ForeignKey(Ladder, verbose_name=_("ladder"), on_delete=models.CASCADE,
                               related_name="ladder_matches")
    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="+")

    class Meta:
        verbose_name = _("ladder match")
        verbose_name_plural = _("ladder matches")
        constraints = [
            models.UniqueConstraint(fields=["ladder", "match"], name="laddermatch_unique"),
        ]

    def __str__(self) -> str:
        return gettext("Match %(match)s on %(ladder)s") % {"match": self.match_id,
                                                           "ladder": self.ladder}


class RatingUpdate(models.Model):
    """One finished match rated on one ladder: exactly one row, whatever the signal does.

    ``ranking`` keeps the input (groups of user ids, best first) so a void can replay the
    ladder deterministically.
    """

    ladder = models.ForeignKey(Ladder, verbose_name=_("ladder"), on_delete=models.CASCADE,
                               related_name="updates")
    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="+")
    ranking = models.JSONField(_("ranking"))
    played_at = models.DateTimeField(_("played at"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    voided = models.BooleanField(_("voided"), default=False)

    class Meta:
        verbose_name = _("rating update")
        verbose_name_plural = _("rating updates")
        ordering = ["played_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "match"], name="ratingupdate_unique_match"),
        ]

    def __str__(self) -> str:
        if self.voided:
            return gettext("%(ladder)s: match %(match)s (void)") % {"ladder": self.ladder,
                                                                    "match": self.match_id}
        return gettext("%(ladder)s: match %(match)s") % {"ladder": self.ladder,
                                                         "match": self.match_id}


class RatingChange(models.Model):
    """One player's rating before and after one update: the player's history."""

    update = models.ForeignKey(RatingUpdate, verbose_name=_("rating update"),
                               on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="+")
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["update__played_at", "update_id", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["update", "user"], name="ratingchange_unique_user"),
        ]

    @property
    def conservative_after(self) -> float:
        return self.mu_after - 3 * self.sigma_after

    def __str__(self) -> str:
        return gettext("Rating of %(user)s: %(before).1f → %(after).1f") % {
            "user": self.user, "before": self.mu_before, "after": self.mu_after}


class MatchVoid(models.Model):
    """Audit row: an admin voided a match on a ladder and the ladder was replayed."""

    ladder = models.ForeignKey(Ladder, verbose_name=_("ladder"), on_delete=models.CASCADE,
                               related_name="voids")
    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                              related_name="+")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("moderator"), null=True,
                           on_delete=models.SET_NULL,
                           related_name="+")
    reason = models.CharField(_("reason"), max_length=255)
    updates_replayed = models.PositiveIntegerField(_("updates replayed"))
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("voided match")
        verbose_name_plural = _("voided matches")
        constraints = [
            models.UniqueConstraint(fields=["ladder", "match"], name="matchvoid_unique"),
        ]

    def __str__(self) -> str:
        return gettext("Match %(match)s voided on %(ladder)s") % {"match": self.match_id,
                                                                  "ladder": self.ladder}


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("challenge", "Open")
        ACCEPTED = "accepted", pgettext_lazy("challenge", "Accepted")
        DECLINED = "declined", pgettext_lazy("challenge", "Declined")
        EXPIRED = "expired", pgettext_lazy("challenge", "Expired")
        WITHDRAWN = "withdrawn", pgettext_lazy("challenge", "Withdrawn")

    ladder = models.ForeignKey(Ladder, verbose_name=_("ladder"), on_delete=models.CASCADE,
                               related_name="challenges")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("challenger"),
                                   on_delete=models.CASCADE,
                                   related_name="+")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("challenged"),
                                   on_delete=models.CASCADE,
                                   related_name="+")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    match = models.OneToOneField(Match, verbose_name=_("match"), null=True, blank=True,
                                 on_delete=models.SET_NULL,
                                 related_name="challenge")

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["expires_at"], name="challenge_open_expiry",
                                condition=Q(status="open"))]

    def __str__(self) -> str:
        return gettext("%(challenger)s challenges %(challenged)s (%(status)s)") % {
            "challenger": self.challenger, "challenged": self.challenged,
            "status": self.get_status_display()}


# --- tournaments ----------------------------------------------------------------------------


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        SINGLE_ELIMINATION = "single_elim", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elim", _("Double elimination")
        PODS = "pods", _("Multi-seat pods")

    class Status(models.TextChoices):
        REGISTRATION = "registration", pgettext_lazy("tournament", "Registration")
        RUNNING = "running", pgettext_lazy("tournament", "Running")
        FINISHED = "finished", pgettext_lazy("tournament", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament", "Cancelled")

    TRANSITIONS: dict[str, set[str]] = {
        Status.REGISTRATION: {Status.RUNNING, Status.CANCELLED},
        Status.RUNNING: {Status.FINISHED, Status.CANCELLED},
        Status.FINISHED: set(),
        Status.CANCELLED: set(),
    }

    class Adjudication(models.TextChoices):
        ENGINE = "engine", _("The engine's current result (a draw if it has none)")
        DRAW = "draw", _("A draw")
        FORFEIT = "forfeit", _("Forfeit of the seats with the most missed deadlines")

    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.CASCADE, related_name="tournaments")
    ladder = models.ForeignKey(
        Ladder, verbose_name=_("ladder"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="tournaments",
        help_text=_("Ratings for seeding and the floor; results rated here."))
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=12, choices=Format.choices)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices,
                              default=Status.REGISTRATION)
    registration_open = models.BooleanField(_("registration open"), default=True)
    late_entry = models.BooleanField(_("late entry"), default=False,
                                     help_text=_("Swiss: register while running."))
    max_players = models.PositiveIntegerField(_("maximum players"), null=True, blank=True)
    rating_floor = models.FloatField(_("rating floor"), null=True, blank=True,
                                     help_text=_("Least conservative rating on the ladder."))
    min_reliability = models.PositiveSmallIntegerField(
        _("minimum reliability"), null=True, blank=True,
        help_text=_("Least reliability (a percentage) to register."))
    fixed_deadlines = models.BooleanField(
        _("fixed deadlines"), default=False,
        help_text=_("Its matches never move a deadline: not out of a player's "
                    "night (active hours), not for a player's leave."))
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds planned"), null=True, blank=True,
        help_text=_("Swiss and pods; empty: chosen from the field.")
    )
    cycles = models.PositiveSmallIntegerField(_("cycles"), default=1,
                                              help_text=_("Round robin: 1 or 2."))
    seats_per_match = models.PositiveSmallIntegerField(_("seats per match"), default=2,
                                                       help_text=_("Pods: pod size."))
    round_hours = models.DecimalField(_("hours per round"), max_digits=7, decimal_places=2,
                                      default=168)
    hours_per_phase = models.DecimalField(_("hours per phase"), max_digits=7, decimal_places=3,
                                          default=48)
    adjudication = models.CharField(_("adjudication"), max_length=8, choices=Adjudication.choices,
                                    default=Adjudication.FORFEIT)
    bye_score = models.DecimalField(_("bye score"), max_digits=3, decimal_places=1, default=1)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True,
                                     help_text=_("The sweeper starts the tournament then."))
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["starts_at"], name="tournament_due_start",
                                condition=Q(status="registration"))]
        constraints = [models.CheckConstraint(condition=Q(min_reliability__lte=100),
                                              name="tournament_min_reliability_percent")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)


class TournamentStatusChange(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE,
                                   related_name="status_changes")
    old_status = models.CharField(_("old status"), max_length=12)
    new_status = models.CharField(_("new status"), max_length=12)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("changed by"), null=True,
                           blank=True,
                           on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(_("note"), max_length=255, blank=True)
    at = models.DateTimeField(_("changed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament status change")
        verbose_name_plural = _("tournament status changes")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return gettext("%(tournament)s: %(old)s → %(new)s") % {
            "tournament": self.tournament, "old": self.old_status, "new": self.new_status}


class Entry(models.Model):
    """A player in a tournament: a member (``user``) or one of the game's bots (``bot``, entered
    by an organiser, told apart from the others of its kind by ``bot_number``)."""

    class Status(models.TextChoices):
        ACTIVE = "active", pgettext_lazy("tournament entry", "Playing")
        WITHDRAWN = "withdrawn", pgettext_lazy("tournament entry", "Withdrawn")

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True,
                             blank=True,
                             on_delete=models.CASCADE, related_name="tournament_entries")
    bot = models.CharField(_("bot"), max_length=40, blank=True, default="",
                           help_text=_("One of the game's bots; empty for a person."))
    bot_number = models.PositiveSmallIntegerField(
        _("bot number"), null=True, blank=True,
        help_text=_("Tells bots of one kind apart: random bot 2."))
    start_number = models.PositiveIntegerField(_("start number"), null=True, blank=True)
    rating = models.FloatField(_("rating"), default=0,
                               help_text=_("Conservative rating when registered."))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.ACTIVE)
    late = models.BooleanField(_("late"), default=False)
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        ordering = ["tournament", "start_number", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user"),
            models.UniqueConstraint(fields=["tournament", "start_number"],
                                    name="entry_unique_start_number"),
            models.UniqueConstraint(fields=["tournament", "bot", "bot_number"],
                                    condition=Q(user__isnull=True),
                                    name="entry_unique_bot_number"),
            # Exactly one of them: a person, or a bot with its number.
            models.CheckConstraint(
                condition=(Q(user__isnull=False, bot="", bot_number__isnull=True)
                           | (Q(user__isnull=True, bot_number__isnull=False) & ~Q(bot=""))),
                name="entry_user_or_bot"),
        ]

    def __str__(self) -> str:
        return gettext("%(name)s in %(tournament)s") % {"name": self.name,
                                                         "tournament": self.tournament}

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def name(self) -> str:
        """How standings, pairings and mails name the entry: the user name, or "random bot 2"."""
        if self.user_id is None:
            from games.plugins import BOT_NAMES

            known = BOT_NAMES.get(self.bot)  # the common bots by their names, with no query
            if known is not None:
                return gettext("%(bot)s %(number)s") % {"bot": known, "number": self.bot_number}
            return gettext("%(bot)s bot %(number)s") % {"bot": self.bot,
                                                         "number": self.bot_number}
        return self.user.get_username()

    @property
    def seat(self) -> dict[str, Any]:
        """The entry's seat in a match, as ``games.services.match_create`` takes it."""
        if self.user_id is None:
            return {"kind": "bot", "bot": self.bot}
        return {"kind": "human", "user": self.user}


class Round(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", pgettext_lazy("tournament round", "Running")
        FINISHED = "finished", pgettext_lazy("tournament round", "Finished")

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.RUNNING)
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]
        indexes = [models.Index(fields=["ends_at"], name="round_running_end",
                                condition=Q(status="running"))]

    def __str__(self) -> str:
        return gettext("%(tournament)s, round %(number)s") % {"tournament": self.tournament,
                                                               "number": self.number}


class Pairing(models.Model):
    """One board of a round: two entries (or one: a bye), or a pod of entries in seat order.

    ``score`` is the first entry's points and ``second_score`` the second's; a pod keeps its
    ``ranking`` (groups of entry ids, best first). Empty until the result is in.
    """

    class Bracket(models.TextChoices):
        NONE = "", "-"
        WINNERS = "W", _("Winners")
        LOSERS = "L", _("Losers")
        FINAL = "F", _("Final")

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE,
                              related_name="pairings")
    board = models.PositiveSmallIntegerField(_("board"))
    first = models.ForeignKey(Entry, verbose_name=_("first player"), null=True, blank=True,
                              on_delete=models.CASCADE,
                              related_name="+")
    second = models.ForeignKey(Entry, verbose_name=_("second player"), null=True, blank=True,
                               on_delete=models.CASCADE,
                               related_name="+")
    pod = models.JSONField(_("pod"), default=list, blank=True,
                           help_text=_("Pods: entry ids in seat order."))
    bracket = models.CharField(_("bracket"), max_length=1, choices=Bracket.choices, blank=True,
                               default="")
    bracket_match = models.CharField(_("bracket match"), max_length=12, blank=True,
                                     help_text=_("Elimination: the bracket match's key."))
    match = models.OneToOneField(Match, verbose_name=_("match"), null=True, blank=True,
                                 on_delete=models.SET_NULL,
                                 related_name="tournament_pairing")
    score = models.DecimalField(_("first player's score"), max_digits=4, decimal_places=2,
                                null=True, blank=True)
    second_score = models.DecimalField(_("second player's score"), max_digits=4, decimal_places=2,
                                       null=True, blank=True)
    ranking = models.JSONField(_("ranking"), null=True, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    adjudicated = models.CharField(_("adjudicated"), max_length=8, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "board"]
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="pairing_unique_board"),
        ]

    def __str__(self) -> str:
        return gettext("%(round)s, board %(board)s") % {"round": self.round, "board": self.board}

    @property
    def is_bye(self) -> bool:
        return self.match_id is None and self.second_id is None and len(self.pod) <= 1

    @property
    def done(self) -> bool:
        return self.finished_at is not None


# --- leagues: seasons and divisions ---------------------------------------------------------


class League(models.Model):
    """A recurring competition for one game, in a club or site-wide (``club`` empty): seasons
    of divisions, each a round robin, with promotion and relegation between seasons."""

    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True,
                             on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seats_per_match = models.PositiveSmallIntegerField(
        _("seats per match"), default=2,
        help_text=_("Two: a round robin of duels; three or more: rounds of pods."))
    division_size = models.PositiveSmallIntegerField(
        _("division size"), default=8, help_text=_("How many players a division holds."))
    season_days = models.PositiveSmallIntegerField(
        _("season length (days)"), default=42, help_text=_("From a season's start to its end."))
    hours_per_phase = models.DecimalField(_("hours per phase"), max_digits=7, decimal_places=3,
                                          default=48)
    fixed_deadlines = models.BooleanField(
        _("fixed deadlines"), default=False,
        help_text=_("Its matches never move a deadline: not out of a player's "
                    "night (active hours), not for a player's leave."))
    bots_allowed = models.BooleanField(
        _("bots allowed"), default=False,
        help_text=_("Organisers may enter the game's bots as players."))
    waits_for_last_match = models.BooleanField(
        _("the season waits for its last match"), default=False,
        help_text=_("Otherwise a match still running at the end date is scored by the time "
                    "each side used (it goes on, unrated)."))
    moves = models.PositiveSmallIntegerField(
        _("players up and down"), null=True, blank=True,
        help_text=_("How many players of each division go up and down; empty: a quarter."))
    relegate_forfeits = models.PositiveSmallIntegerField(
        _("forfeits that relegate"), null=True, blank=True,
        help_text=_("A player who forfeits this many matches in a season goes down; "
                    "empty: never."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(division_size__gte=2), name="league_division_size"),
            models.CheckConstraint(condition=Q(season_days__gte=1), name="league_season_days"),
        ]

    def __str__(self) -> str:
        return self.name


class LeagueMember(models.Model):
    """A player of a league: a person (``user``) or one of the game's bots. ``joined_at`` after
    a season's start makes a newcomer (the next season's last division); ``left_at`` set: gone
    from the next season on."""

    league = models.ForeignKey(League, verbose_name=_("league"), on_delete=models.CASCADE,
                               related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"), null=True,
                             blank=True, on_delete=models.CASCADE, related_name="league_members")
    bot = models.CharField(_("bot"), max_length=40, blank=True, default="",
                           help_text=_("One of the game's bots; empty for a person."))
    bot_number = models.PositiveSmallIntegerField(_("bot number"), null=True, blank=True)
    joined_at = models.DateTimeField(_("joined at"))
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        verbose_name = _("league player")
        verbose_name_plural = _("league players")
        ordering = ["league", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="leaguemember_unique_user"),
            models.UniqueConstraint(fields=["league", "bot", "bot_number"],
                                    condition=Q(user__isnull=True),
                                    name="leaguemember_unique_bot_number"),
            models.CheckConstraint(
                condition=(Q(user__isnull=False, bot="", bot_number__isnull=True)
                           | (Q(user__isnull=True, bot_number__isnull=False) & ~Q(bot=""))),
                name="leaguemember_user_or_bot"),
        ]

    def __str__(self) -> str:
        return gettext("%(name)s in %(league)s") % {"name": self.name, "league": self.league}

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def active(self) -> bool:
        return self.left_at is None

    @property
    def name(self) -> str:
        if self.user_id is None:
            from games.plugins import BOT_NAMES

            known = BOT_NAMES.get(self.bot)
            if known is not None:
                return gettext("%(bot)s %(number)s") % {"bot": known, "number": self.bot_number}
            return gettext("%(bot)s bot %(number)s") % {"bot": self.bot,
                                                         "number": self.bot_number}
        return self.user.get_username()

    @property
    def seat(self) -> dict[str, Any]:
        if self.user_id is None:
            return {"kind": "bot", "bot": self.bot}
        return {"kind": "human", "user": self.user}


class Season(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", pgettext_lazy("season", "Running")
        FINISHED = "finished", pgettext_lazy("season", "Finished")

    league = models.ForeignKey(League, verbose_name=_("league"), on_delete=models.CASCADE,
                               related_name="seasons")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.RUNNING)
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    last_week_noticed = models.BooleanField(_("last week noticed"), default=False)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_unique_number"),
            models.UniqueConstraint(fields=["league"], condition=Q(status="running"),
                                    name="season_one_running"),
        ]
        indexes = [models.Index(fields=["ends_at"], name="season_running_end",
                                condition=Q(status="running"))]

    def __str__(self) -> str:
        return gettext("%(league)s, season %(number)s") % {"league": self.league,
                                                            "number": self.number}


class Division(models.Model):
    season = models.ForeignKey(Season, verbose_name=_("season"), on_delete=models.CASCADE,
                               related_name="divisions")
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="division_unique_number"),
        ]

    def __str__(self) -> str:
        return gettext("%(season)s, division %(number)s") % {"season": self.season,
                                                              "number": self.number}


class DivisionPlace(models.Model):
    """A player in a division, in the division's order (``position``); its final standing and
    where it went next are written when the season ends."""

    class Move(models.TextChoices):
        NONE = "", "-"
        UP = "up", pgettext_lazy("league move", "Promoted")
        STAY = "stay", pgettext_lazy("league move", "Stays")
        DOWN = "down", pgettext_lazy("league move", "Relegated")
        LEFT = "left", pgettext_lazy("league move", "Left the league")

    division = models.ForeignKey(Division, verbose_name=_("division"), on_delete=models.CASCADE,
                                 related_name="places")
    member = models.ForeignKey(LeagueMember, verbose_name=_("player"), on_delete=models.CASCADE,
                               related_name="places")
    position = models.PositiveSmallIntegerField(_("position"))
    rank = models.PositiveSmallIntegerField(_("final rank"), null=True, blank=True)
    points = models.DecimalField(_("points"), max_digits=6, decimal_places=2, null=True,
                                 blank=True)
    forfeits = models.PositiveSmallIntegerField(_("forfeits"), default=0)
    move = models.CharField(_("next season"), max_length=4, choices=Move.choices, blank=True,
                            default="")

    class Meta:
        verbose_name = _("division place")
        verbose_name_plural = _("division places")
        ordering = ["division", "position"]
        constraints = [
            models.UniqueConstraint(fields=["division", "member"], name="place_unique_member"),
            models.UniqueConstraint(fields=["division", "position"],
                                    name="place_unique_position"),
        ]

    def __str__(self) -> str:
        return gettext("%(member)s in %(division)s") % {"member": self.member.name,
                                                         "division": self.division}


class LeagueMatch(models.Model):
    """One match of a division's round robin: the players (member ids) in seat order, and
    once it is scored for the standings, its ``ranking`` (groups of member ids, best first).
    ``adjudicated``: scored at the season's end by the time used (the match goes on,
    unrated)."""

    division = models.ForeignKey(Division, verbose_name=_("division"), on_delete=models.CASCADE,
                                 related_name="league_matches")
    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.CASCADE,
                                 related_name="league_match")
    round_number = models.PositiveSmallIntegerField(_("round"))
    board = models.PositiveSmallIntegerField(_("board"))
    seats = models.JSONField(_("players in seat order"), default=list)
    ranking = models.JSONField(_("ranking"), null=True, blank=True)
    forfeits = models.JSONField(_("forfeited by"), default=list, blank=True,
                                help_text=_("Players (member ids) who forfeited the match."))
    adjudicated = models.BooleanField(_("adjudicated"), default=False)
    finished_at = models.DateTimeField(_("scored at"), null=True, blank=True)

    class Meta:
        verbose_name = _("league match")
        verbose_name_plural = _("league matches")
        ordering = ["division", "round_number", "board"]
        constraints = [
            models.UniqueConstraint(fields=["division", "round_number", "board"],
                                    name="leaguematch_unique_board"),
        ]

    def __str__(self) -> str:
        return gettext("%(division)s, round %(round)s, board %(board)s") % {
            "division": self.division, "round": self.round_number, "board": self.board}


# --- team matches and team leagues ----------------------------------------------------------


class TeamLeague(models.Model):
    """Several clubs play a round robin of team matches; the host club's organisers run it and
    each other club's organisers join it before it starts."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", pgettext_lazy("team league", "Gathering clubs")
        RUNNING = "running", pgettext_lazy("team league", "Running")
        FINISHED = "finished", pgettext_lazy("team league", "Finished")

    TRANSITIONS: dict[str, set[str]] = {
        Status.REGISTRATION: {Status.RUNNING},
        Status.RUNNING: {Status.FINISHED},
        Status.FINISHED: set(),
    }

    host = models.ForeignKey(Club, verbose_name=_("host club"), on_delete=models.CASCADE,
                             related_name="hosted_team_leagues")
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    boards = models.PositiveSmallIntegerField(_("boards"),
                                              help_text=_("Boards of each team match."))
    cycles = models.PositiveSmallIntegerField(_("cycles"), default=1,
                                              help_text=_("1: each club meets each other "
                                                          "once; 2: twice."))
    round_days = models.PositiveSmallIntegerField(
        _("days per round"), default=14,
        help_text=_("Each round's team matches start this many days after the last round's."))
    hours_per_phase = models.DecimalField(_("hours per phase"), max_digits=7, decimal_places=3,
                                          default=72)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices,
                              default=Status.REGISTRATION)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("team league")
        verbose_name_plural = _("team leagues")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.name


class TeamLeagueClub(models.Model):
    """A club in a team league: invited (``joined_at`` empty) or in; ``number`` is its place
    in the round-robin table, given at the start."""

    league = models.ForeignKey(TeamLeague, verbose_name=_("team league"),
                               on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="team_league_places")
    joined_at = models.DateTimeField(_("joined at"), null=True, blank=True)
    number = models.PositiveSmallIntegerField(_("number"), null=True, blank=True)

    class Meta:
        verbose_name = _("club in a team league")
        verbose_name_plural = _("clubs in team leagues")
        ordering = ["league", "number", "club__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "club"], name="teamleagueclub_unique"),
            models.UniqueConstraint(fields=["league", "number"],
                                    name="teamleagueclub_unique_number"),
        ]

    def __str__(self) -> str:
        return gettext("%(club)s in %(league)s") % {"club": self.club, "league": self.league}


class TeamMatch(models.Model):
    """Club A against club B on ``boards`` boards of a two-seat game: a challenge club B
    accepts, or a team league's fixture. Boards alternate who is seat 1 (club A on board 1)."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", pgettext_lazy("team match", "Proposed")
        ACCEPTED = "accepted", pgettext_lazy("team match", "Accepted")
        DECLINED = "declined", pgettext_lazy("team match", "Declined")
        PLAYING = "playing", pgettext_lazy("team match", "Playing")
        FINISHED = "finished", pgettext_lazy("team match", "Finished")

    TRANSITIONS: dict[str, set[str]] = {
        Status.PROPOSED: {Status.ACCEPTED, Status.DECLINED},
        Status.ACCEPTED: {Status.PLAYING},
        Status.DECLINED: set(),
        Status.PLAYING: {Status.FINISHED},
        Status.FINISHED: set(),
    }

    club_a = models.ForeignKey(Club, verbose_name=_("challenging club"),
                               on_delete=models.CASCADE, related_name="team_matches_as_a")
    club_b = models.ForeignKey(Club, verbose_name=_("challenged club"),
                               on_delete=models.CASCADE, related_name="team_matches_as_b")
    league = models.ForeignKey(TeamLeague, verbose_name=_("team league"), null=True, blank=True,
                               on_delete=models.CASCADE, related_name="team_matches")
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    game = models.CharField(_("game"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    boards = models.PositiveSmallIntegerField(_("boards"))
    hours_per_phase = models.DecimalField(_("hours per phase"), max_digits=7, decimal_places=3,
                                          default=72)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.PROPOSED)
    starts_at = models.DateTimeField(
        _("starts at"), help_text=_("The boards' matches start then (or sooner, when both "
                                    "clubs have a player on every board)."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("decided by"),
                                   null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    points_a = models.DecimalField(_("board points of club A"), max_digits=5, decimal_places=1,
                                   null=True, blank=True)
    points_b = models.DecimalField(_("board points of club B"), max_digits=5, decimal_places=1,
                                   null=True, blank=True)
    winner = models.ForeignKey(Club, verbose_name=_("winner"), null=True, blank=True,
                               on_delete=models.SET_NULL, related_name="+",
                               help_text=_("Empty when finished: a draw."))

    class Meta:
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["starts_at"], name="teammatch_due_start",
                                condition=Q(status="accepted"))]
        constraints = [
            models.CheckConstraint(condition=~Q(club_a=models.F("club_b")),
                                   name="teammatch_two_clubs"),
            models.CheckConstraint(condition=Q(boards__gte=1) & Q(boards__lte=32),
                                   name="teammatch_boards_range"),
        ]

    def __str__(self) -> str:
        return gettext("%(a)s against %(b)s") % {"a": self.club_a, "b": self.club_b}

    def side_of(self, club_id: Any) -> str | None:
        """"a" or "b" for a club of this match, None for any other."""
        return "a" if club_id == self.club_a_id else "b" if club_id == self.club_b_id else None


class TeamPlayer(models.Model):
    """A club's roster for one team match: a player on a board, or an alternate (``board``
    empty, in ``position`` order). Until a board's match starts a captain may swap its player
    for an alternate."""

    team_match = models.ForeignKey(TeamMatch, verbose_name=_("team match"),
                                   on_delete=models.CASCADE, related_name="roster")
    club = models.ForeignKey(Club, verbose_name=_("club"), on_delete=models.CASCADE,
                             related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                             on_delete=models.CASCADE, related_name="team_places")
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True,
                                             help_text=_("Empty: an alternate."))
    position = models.PositiveSmallIntegerField(_("position"), default=0,
                                                help_text=_("Alternates: their order."))
    rating = models.FloatField(_("rating"), default=0,
                               help_text=_("Conservative rating when named."))

    class Meta:
        verbose_name = _("team player")
        verbose_name_plural = _("team players")
        ordering = ["team_match", "club", "board", "position", "pk"]
        constraints = [
            # One side only, once: a member of both clubs plays for one of them.
            models.UniqueConstraint(fields=["team_match", "user"], name="teamplayer_unique_user"),
            models.UniqueConstraint(fields=["team_match", "club", "board"],
                                    condition=Q(board__isnull=False),
                                    name="teamplayer_unique_board"),
        ]

    def __str__(self) -> str:
        if self.board is None:
            return gettext("%(user)s, alternate for %(club)s") % {"user": self.user,
                                                                 "club": self.club}
        return gettext("%(user)s on board %(board)s for %(club)s") % {
            "user": self.user, "board": self.board, "club": self.club}


class TeamBoard(models.Model):
    """One board of a started team match: its two players (empty: the club could not field
    one), which club has seat 1, the match played, and club A's score (1, 0.5, 0)."""

    class Unfielded(models.TextChoices):
        NONE = "", "-"
        A = "a", _("Club A could not field a player")
        B = "b", _("Club B could not field a player")
        BOTH = "both", _("Neither club could field a player")

    team_match = models.ForeignKey(TeamMatch, verbose_name=_("team match"),
                                   on_delete=models.CASCADE, related_name="board_rows")
    number = models.PositiveSmallIntegerField(_("board"))
    player_a = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player of club A"),
                                 null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    player_b = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player of club B"),
                                 null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    a_first = models.BooleanField(_("club A has seat 1"))
    match = models.OneToOneField(Match, verbose_name=_("match"), null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="team_board")
    unfielded = models.CharField(_("unfielded"), max_length=4, choices=Unfielded.choices,
                                 blank=True, default="")
    score = models.DecimalField(_("club A's score"), max_digits=2, decimal_places=1, null=True,
                                blank=True, help_text=_("Empty until the board is over, and "
                                                        "when neither club fielded a player."))
    adjudicated = models.CharField(_("adjudicated"), max_length=8, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("team board")
        verbose_name_plural = _("team boards")
        ordering = ["team_match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["team_match", "number"],
                                    name="teamboard_unique_number"),
        ]

    def __str__(self) -> str:
        return gettext("%(team_match)s, board %(board)s") % {"team_match": self.team_match,
                                                             "board": self.number}

    @property
    def done(self) -> bool:
        return self.finished_at is not None
