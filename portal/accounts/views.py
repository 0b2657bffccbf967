from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import check_for_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from games.models import Leave, LeaveExtension
from games.services import ServiceError, leave_take, vacation_bank
from games.views.access import status_for
from portal.accounts.forms import COLUMNS, LeaveForm, NotificationsForm, ProfileForm
from portal.accounts.models import Channel, Profile
from portal.accounts.notifications import has_device
from portal.accounts.services import (
    notifications_update,
    profile_ensure,
    profile_language_set,
    profile_update,
)


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    profile = profile_ensure(user=request.user)
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST":
        if form.is_valid():
            try:
                profile_update(user=request.user, **form.cleaned_data)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Profile saved."))
                response = redirect("accounts_profile")
                # The profile's language now counts, not an older choice from the footer.
                response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
                return response
        return render(request, "accounts/profile.html", _context(request, form), status=400)
    return render(request, "accounts/profile.html", _context(request, form))


def _notifications_form(profile: Profile, data: dict | None = None) -> NotificationsForm:
    """Push is offered to a player with a push device only."""
    has_push = has_device(profile.user_id, Channel.PUSH)
    return NotificationsForm(data, profile=profile, has_push=has_push)


def _context(request: HttpRequest, form: ProfileForm, leave_form: LeaveForm | None = None,
             leave_error: str = "", notifications_form: NotificationsForm | None = None
             ) -> dict:
    """The profile page: the settings form, the notification choices, and the vacation bank
    with the player's leaves and the deadlines each one moved."""
    leaves = list(Leave.objects.filter(user=request.user).prefetch_related(Prefetch(
        "extensions", LeaveExtension.objects.select_related("match").defer("match__state")))[:10])
    return {"form": form, "bank": vacation_bank(user=request.user), "leaves": leaves,
            "leave_form": leave_form or LeaveForm(), "leave_error": leave_error,
            "notifications_form": notifications_form or _notifications_form(form.instance),
            "notification_columns": COLUMNS}


@login_required
@require_POST
def notifications(request: HttpRequest) -> HttpResponse:
    """Save the notification table; a bad choice shows the page again with what is wrong."""
    profile = profile_ensure(user=request.user)
    form = _notifications_form(profile, request.POST)
    if form.is_valid():
        try:
            notifications_update(user=request.user, channels=form.channels(),
                                 mail_delivery=form.cleaned_data["mail_delivery"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Notification choices saved."))
            return redirect(reverse("accounts_profile") + "#notifications")
    return render(request, "accounts/profile.html",
                  _context(request, ProfileForm(instance=profile), notifications_form=form),
                  status=400)


@login_required
@require_POST
def leave(request: HttpRequest) -> HttpResponse:
    """Take leave from the bank: every deadline it concerns moves (games.services.leave_take)."""
    form = LeaveForm(request.POST)
    profile_form = ProfileForm(instance=profile_ensure(user=request.user))
    if not form.is_valid():
        return render(request, "accounts/profile.html",
                      _context(request, profile_form, form), status=400)
    try:
        taken = leave_take(user=request.user, days=form.cleaned_data["days"])
    except ServiceError as error:
        return render(request, "accounts/profile.html",
                      _context(request, profile_form, form, error.message),
                      status=status_for(error))
    moved = taken.extensions.count()
    days = ngettext("You are on leave for %(days)s day;", "You are on leave for %(days)s days;",
                    taken.days) % {"days": taken.days}
    deadlines = ngettext("%(count)s deadline moved.", "%(count)s deadlines moved.",
                         moved) % {"count": moved}
    messages.success(request, f"{days} {deadlines}")
    return redirect("accounts_profile")


def language_set(request: HttpRequest) -> HttpResponse:
    """The footer's language choice: Django's ``set_language`` (a cookie, for everyone), and for
    a signed-in player their profile's language too, so that their mails follow the pages."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.method == "POST" and request.user.is_authenticated and \
            check_for_language(language) and \
            language in dict(settings.LANGUAGES):
        profile_language_set(user=request.user, language=language)
    return response
