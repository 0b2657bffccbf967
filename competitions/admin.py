"""Admins see every club, ladder and tournament; a rated match is voided from here (the
ladder is replayed and the void audited)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from competitions import models
from competitions.services import ladder_match_void
from games.fields import BOUNDED_JSON
from games.services import ServiceError


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(models.JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "status", "created_at"]
    list_filter = ["status"]


@admin.register(models.ClubInvitation)
class ClubInvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "email", "created_at", "accepted_by", "accepted_at"]


@admin.register(models.Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "decay_sigma_per_week"]
    list_filter = ["game"]
    formfield_overrides = BOUNDED_JSON


@admin.register(models.Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["ladder", "user", "mu", "sigma", "games_played", "last_active"]
    list_filter = ["ladder"]
    readonly_fields = ["ladder", "user", "mu", "sigma", "games_played", "last_active"]


@admin.action(description=_("Void the selected matches on their ladder (replays the ladder)"))
def void_updates(modeladmin, request, queryset):
    for update in queryset:
        try:
            ladder_match_void(ladder_id=update.ladder_id, match_id=update.match_id,
                              by=request.user,
                              reason=gettext("voided in the admin by %(user)s")
                              % {"user": request.user})
        except ServiceError as error:
            messages.error(request, _("%(match)s: %(error)s") % {
                "match": update, "error": error.message})
        else:
            messages.success(request, _("%(match)s: voided, ladder replayed.") % {
                "match": update})


@admin.register(models.RatingUpdate)
class RatingUpdateAdmin(admin.ModelAdmin):
    list_display = ["ladder", "match", "played_at", "voided"]
    list_filter = ["ladder", "voided"]
    readonly_fields = ["ladder", "match", "ranking", "played_at", "voided"]
    actions = [void_updates]


@admin.register(models.MatchVoid)
class MatchVoidAdmin(admin.ModelAdmin):
    list_display = ["ladder", "match", "by", "reason", "updates_replayed", "at"]
    readonly_fields = ["ladder", "match", "by", "reason", "updates_replayed", "at"]


@admin.register(models.Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["ladder", "challenger", "challenged", "status", "created_at", "match"]
    list_filter = ["status"]


class EntryInline(admin.TabularInline):
    model = models.Entry
    extra = 0
    raw_id_fields = ["user"]


class StatusChangeInline(admin.TabularInline):
    model = models.TournamentStatusChange
    extra = 0
    readonly_fields = ["old_status", "new_status", "by", "note", "at"]


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "format", "status", "current_round",
                    "fixed_deadlines"]
    list_filter = ["format", "status", "game", "fixed_deadlines"]
    inlines = [EntryInline, StatusChangeInline]
    formfield_overrides = BOUNDED_JSON


class PairingInline(admin.TabularInline):
    model = models.Pairing
    extra = 0
    raw_id_fields = ["first", "second", "match"]


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "starts_at", "ends_at", "finished_at"]
    inlines = [PairingInline]


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class TeamPlayerInline(ReadOnlyInline):
    model = models.TeamPlayer


class TeamBoardInline(ReadOnlyInline):
    model = models.TeamBoard


class TeamLeagueClubInline(ReadOnlyInline):
    model = models.TeamLeagueClub


class ReadOnlyAdmin(admin.ModelAdmin):
    """Team matches and leagues change only through their services (the captains' pages):
    the admin shows them."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(models.TeamMatch)
class TeamMatchAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "league", "round", "game", "boards", "status", "starts_at",
                    "points_a", "points_b"]
    list_filter = ["status", "game"]
    inlines = [TeamBoardInline, TeamPlayerInline]


@admin.register(models.TeamLeague)
class TeamLeagueAdmin(ReadOnlyAdmin):
    list_display = ["name", "host", "game", "boards", "status", "created_at"]
    list_filter = ["status", "game"]
    inlines = [TeamLeagueClubInline]
