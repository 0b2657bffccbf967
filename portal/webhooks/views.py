"""The webhook pages: a club's (its owner and organisers) and a match's (its creator). Every
view checks who asks before doing anything: 404 for what they may not see, 403 for what they
may see but not manage."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from competitions.selectors import clubs_visible
from games.parsing import id_or_none
from games.services import ServiceError
from games.views.access import match_visible_or_404, status_for
from portal.webhooks import services
from portal.webhooks.forms import TargetForm
from portal.webhooks.models import WebhookDelivery, WebhookTarget


def _error(request: HttpRequest, message: str, status: int) -> HttpResponse:
    template = "partials/error.html" if request.htmx else "error.html"
    return render(request, template, {"status": status, "error": message}, status=status)


def _page(request: HttpRequest, owner: dict, form: TargetForm, status: int = 200,
          secret: str = "", created: WebhookTarget | None = None) -> HttpResponse:
    targets = WebhookTarget.objects.filter(**owner).order_by("created_at", "pk")
    page_url = (reverse("webhooks_club", args=[owner["club"].slug]) if "club" in owner
                else reverse("webhooks_match", args=[owner["match"].pk]))
    context = {**owner, "targets": targets, "form": form, "secret": secret, "created": created,
               "page_url": page_url,
               # development only (the settings refuse it with DEBUG off): a receiver on
               # this machine works, and the page says how to try one
               "local_receiver": settings.OUTBOUND_ALLOW_LOOPBACK}
    template = "webhooks/_targets.html" if request.htmx else "webhooks/targets.html"
    return render(request, template, context, status=status)


def _manage(request: HttpRequest, owner: dict) -> HttpResponse:
    form = TargetForm(request.POST or None)
    if request.method != "POST":
        return _page(request, owner, form)
    if not form.is_valid():
        return _page(request, owner, form, status=400)
    try:
        target, secret = services.target_create(by=request.user, **owner, **form.cleaned_data)
    except ServiceError as error:
        form.add_error("url" if error.code == "invalid" else None, error.message)
        return _page(request, owner, form, status=status_for(error))
    return _page(request, owner, TargetForm(), secret=secret, created=target)


@login_required
@require_http_methods(["GET", "POST"])
def club_targets(request: HttpRequest, slug: str) -> HttpResponse:
    club = clubs_visible(request.user).filter(slug=slug).first()
    if club is None:
        raise Http404(_("No such club."))
    if not services.club_manager(club=club, user=request.user):
        return _error(request, _("Only the club's organisers manage its webhooks."), 403)
    return _manage(request, {"club": club})


@require_http_methods(["GET", "POST"])
def match_targets(request: HttpRequest, match_id: str) -> HttpResponse:
    # The match page's own check first, even before asking to log in: a match one may not
    # see answers as a match that does not exist.
    number = id_or_none(match_id)
    if number is None:
        raise Http404(_("No such match."))
    match = match_visible_or_404(request, number)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not services.match_manager(match=match, user=request.user):
        return _error(request, _("Only the match's creator manages its webhooks."), 403)
    return _manage(request, {"match": match})


def _target_or_404(request: HttpRequest, target_id: str) -> WebhookTarget:
    """The target if the user manages it; a 404 otherwise, the same whether it does not
    exist, its club or match is hidden from them, or they just do not manage it (a target's
    existence is nobody else's: not even a viewer of its match sees the list)."""
    target = WebhookTarget.objects.select_related("club", "match").filter(
        pk=id_or_none(target_id)).first()
    if target is None or not services.target_manageable(target=target, user=request.user):
        raise Http404(_("No such webhook."))
    return target


def _owner(target: WebhookTarget) -> dict:
    return {"club": target.club} if target.club_id else {"match": target.match}


@login_required
@require_POST
def target_delete(request: HttpRequest, target_id: str) -> HttpResponse:
    target = _target_or_404(request, target_id)
    services.target_delete(target=target)
    return _page(request, _owner(target), TargetForm())


@login_required
@require_POST
def target_enable(request: HttpRequest, target_id: str) -> HttpResponse:
    target = _target_or_404(request, target_id)
    services.target_enable(target=target)
    return _page(request, _owner(target), TargetForm())


@login_required
@require_POST
def target_test(request: HttpRequest, target_id: str) -> HttpResponse:
    """Queue a test message (the same path as the events) and answer with its status, which
    the page then polls."""
    target = _target_or_404(request, target_id)
    try:
        delivery = services.target_test(target=target)
    except ServiceError as error:
        return _error(request, error.message, status_for(error))
    if delivery is None:
        return _error(request, _("A test was sent to this webhook less than a minute ago. "
                                 "Wait a minute and try again."), 429)
    return render(request, "webhooks/_test_status.html", {"target": target,
                                                           "delivery": delivery})


@login_required
@require_GET
def test_status(request: HttpRequest, target_id: str, delivery_id: str) -> HttpResponse:
    target = _target_or_404(request, target_id)
    delivery = WebhookDelivery.objects.filter(
        pk=id_or_none(delivery_id), target=target, event="test").first()
    if delivery is None:
        raise Http404(_("No such test."))
    return render(request, "webhooks/_test_status.html", {"target": target,
                                                           "delivery": delivery})
