"""The moderators' page of a match in the admin (``admin/games/match/<id>/moderate/``): one small
form per action, each calling its service (``games.services.moderation``), and the match's
audit trail. Needs the ``games.moderate_match`` permission (the Moderator group has it).

Nothing here shows a sheet or the engine state: the page lists seats, phases (numbers, names,
status, deadlines) and the audit rows, which hold no sheet either."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from games import services
from games.models import Match, ModerationEntry, Phase
from games.services import ServiceError
from games.votes import match_votes


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
                             max_length=2000, label=_("Reason"),
                             help_text=_("Kept in the audit trail."))


class ExtendForm(ReasonForm):
    hours = forms.DecimalField(
        min_value=0.01, max_digits=7, decimal_places=2, label=_("Hours"),
        help_text=_("The deadline becomes at least this far from now."))


class RollbackForm(ReasonForm):
    to_phase = forms.IntegerField(min_value=1, label=_("Back to the start of phase"))


class SeatForm(ReasonForm):
    seat = forms.IntegerField(min_value=1, label=_("Seat"))


class ReplaceForm(SeatForm):
    WITH = [("user", _("a player (user name below)")), ("bot", _("a bot")),
            ("open", _("nobody yet: open it for anyone with the invite link"))]
    replace_with = forms.ChoiceField(choices=WITH, widget=forms.RadioSelect, initial="user",
                                     label=_("Replace with"))
    username = forms.CharField(required=False, max_length=150, label=_("User name"))
    bot = forms.CharField(required=False, max_length=40, label=_("Bot"))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        choice = cleaned.get("replace_with")
        if choice == "user":
            name = (cleaned.get("username") or "").strip()
            user = get_user_model().objects.filter(username=name).first() if name else None
            if user is None:
                raise forms.ValidationError(
                    gettext("There is no player “%(name)s”.") % {"name": name} if name
                    else gettext("Give the new player's user name."))
            cleaned["user"] = user
        elif choice == "bot" and not (cleaned.get("bot") or "").strip():
            raise forms.ValidationError(gettext("Give the bot's name."))
        return cleaned


# op -> (form, label, what the service is called with)
OPS: dict[str, tuple[type[forms.Form], str]] = {
    "pause": (ReasonForm, _("Pause")),
    "resume": (ReasonForm, _("Resume")),
    "extend": (ExtendForm, _("Extend the deadline")),
    "force_resolve": (ReasonForm, _("Resolve the phase now (defaults for missing sheets)")),
    "rollback": (RollbackForm, _("Roll back")),
    "replace": (ReplaceForm, _("Replace a player")),
    "kick": (SeatForm, _("Kick for abuse")),
    "void": (ReasonForm, _("Void the match (no result)")),
    "votes_lock": (ReasonForm, _("Lock the players' votes to end the match (closes open ones)")),
    "votes_unlock": (ReasonForm, _("Unlock the players' votes")),
}


def _run(op: str, match: Match, data: dict[str, Any], by: Any) -> str:
    """Call the op's service; the message for the moderator."""
    reason = data["reason"]
    if op == "pause":
        services.match_pause(match_id=match.pk, by=by, reason=reason)
        return gettext("The match is paused.")
    if op == "resume":
        services.match_resume(match_id=match.pk, by=by, reason=reason)
        return gettext("The match is resumed.")
    if op == "extend":
        changed = services.match_deadline_extend(match_id=match.pk, hours=data["hours"], by=by,
                                                 reason=reason)
        return (gettext("The deadline is extended.") if changed
                else gettext("The deadline was already that far: nothing changed."))
    if op == "force_resolve":
        number = services.phase_force_resolve(match_id=match.pk, by=by, reason=reason)
        return gettext("Phase %(number)s is resolved.") % {"number": number}
    if op == "rollback":
        services.match_rollback(match_id=match.pk, to_phase=data["to_phase"], by=by,
                                reason=reason)
        return (gettext("The match is back at the start of phase %(number)s.")
                % {"number": data["to_phase"]})
    if op == "replace":
        choice = data["replace_with"]
        services.seat_moderate_replace(
            match_id=match.pk, seat_number=data["seat"], by=by, reason=reason,
            user=data.get("user") if choice == "user" else None,
            bot=data["bot"].strip() if choice == "bot" else "", open_seat=choice == "open")
        return gettext("Seat %(number)s is handed over.") % {"number": data["seat"]}
    if op == "kick":
        services.seat_kick(match_id=match.pk, seat_number=data["seat"], by=by, reason=reason)
        return (gettext("The player of seat %(number)s is removed.")
                % {"number": data["seat"]})
    if op == "void":
        services.match_void(match_id=match.pk, by=by, reason=reason)
        return gettext("The match is voided.")
    if op in ("votes_lock", "votes_unlock"):
        locked = op == "votes_lock"
        changed = services.votes_lock(match_id=match.pk, by=by, reason=reason, locked=locked)
        if not changed:
            return (gettext("Nothing changed: voting was already locked.") if locked
                    else gettext("Nothing changed: voting was already open."))
        return gettext("Voting is locked.") if locked else gettext("Voting is unlocked.")
    raise Http404(gettext("Unknown action."))


def moderate_view(model_admin: admin.ModelAdmin, request: HttpRequest, object_id: str
                  ) -> HttpResponse:
    if not request.user.has_perm("games.moderate_match"):
        raise PermissionDenied
    match = Match.objects.defer("state").filter(pk=_whole(object_id)).first()
    if match is None:
        raise Http404(gettext("No such match."))
    bound_op = request.POST.get("op") if request.method == "POST" else None
    if bound_op is not None and bound_op not in OPS:
        return HttpResponse(gettext("Unknown action."), status=400)
    forms_by_op = {}
    for op, (form_class, label) in OPS.items():
        form = form_class(request.POST if op == bound_op else None, prefix=op)
        forms_by_op[op] = {"form": form, "label": label, "op": op}
    status = 200
    if bound_op is not None:
        form = forms_by_op[bound_op]["form"]
        if form.is_valid():
            try:
                message = _run(bound_op, match, form.cleaned_data, request.user)
            except ServiceError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                model_admin.message_user(request, message, messages.SUCCESS)
                return HttpResponseRedirect(
                    reverse("admin:games_match_moderate", args=[match.pk]))
        else:
            status = 400
        match.refresh_from_db()
    game = engine.games().get(match.game)
    seats = list(match.seats.select_related("user"))
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta, "original": match, "match": match,
        "title": gettext("Moderate %(match)s") % {"match": match},
        "forms": forms_by_op, "bound_op": bound_op,
        "seats": [{"seat": seat, "name": game.seat_name(seat.number) if game
                   else gettext("Seat %(number)s") % {"number": seat.number}}
                  for seat in seats],
        "bots": list(game.bots) if game else [],
        "phases": list(Phase.all_objects.filter(match=match).defer("state_before")
                       .order_by("number", "pk").only("number", "name", "status", "deadline",
                                                       "resolved_at", "extended",
                                                       "leave_extended", "match_id")),
        "entries": list(ModerationEntry.objects.filter(match=match).select_related("by")),
        # As a spectator sees them: a secret ballot's tally only, for moderators too.
        "votes": match_votes(match, None, seats=seats),
    }
    return TemplateResponse(request, "admin/games/match/moderate.html", context, status=status)


def _whole(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def moderation_urls(model_admin: admin.ModelAdmin) -> list:
    view = model_admin.admin_site.admin_view(
        lambda request, object_id: moderate_view(model_admin, request, object_id))
    return [path("<path:object_id>/moderate/", view, name="games_match_moderate")]


class ModerationEntryInline(admin.TabularInline):
    """The audit trail on the match's admin page."""

    model = ModerationEntry
    fields = ["at", "kind", "by", "phase_number", "summary", "reason"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    verbose_name_plural = _("audit trail (moderation and leave)")

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
