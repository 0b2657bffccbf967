"""The profile page's API-token buttons: create (the token is shown once, on this answer
only) and revoke."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from portal.api.services import api_token_create, api_token_revoke


@never_cache
@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    try:
        created = api_token_create(user=request.user, name=request.POST.get("name", ""))
    except ValidationError as error:
        return render(request, "api/token_created.html", {"error": " ".join(error.messages)},
                      status=400)
    return render(request, "api/token_created.html", {"created": created})


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        row = api_token_revoke(user=request.user, token_id=token_id)
    except ValidationError as error:
        return render(request, "api/token_created.html", {"error": " ".join(error.messages)},
                      status=404)
    messages.success(request, _("Token “%(name)s” revoked.") % {"name": row.name})
    return redirect("accounts_profile")
