from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games.models import Leave, LeaveExtension
from games.services import ServiceError, leave_take, vacation_bank
from games.views.access import status_for
from portal.accounts.forms import LeaveForm, ProfileForm
from portal.accounts.services import profile_ensure, profile_update


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
                messages.success(request, "Profile saved.")
                response = redirect("accounts_profile")
                # The profile's language now counts, not an older choice from the footer.
                response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
                return response
        return render(request, "accounts/profile.html", _context(request, form), status=400)
    return render(request, "accounts/profile.html", _context(request, form))


def _context(request: HttpRequest, form: ProfileForm, leave_form: LeaveForm | None = None,
             leave_error: str = "") -> dict:
    """The profile page: the settings form, and the vacation bank with the player's leaves and
    the deadlines each one moved."""
    leaves = list(Leave.objects.filter(user=request.user).prefetch_related(Prefetch(
        "extensions", LeaveExtension.objects.select_related("match").defer("match__state")))[:10])
    return {"form": form, "bank": vacation_bank(user=request.user), "leaves": leaves,
            "leave_form": leave_form or LeaveForm(), "leave_error": leave_error}


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
    messages.success(request, f"You are on leave for {taken.days} day"
                     f"{'s' if taken.days != 1 else ''}; {moved} deadline"
                     f"{'s' if moved != 1 else ''} moved.")
    return redirect("accounts_profile")
