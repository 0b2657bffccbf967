from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from portal.accounts.forms import ProfileForm
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
        return render(request, "accounts/profile.html", {"form": form}, status=400)
    return render(request, "accounts/profile.html", {"form": form})
