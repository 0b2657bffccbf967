"""Push pages and calls: the browser's subscribe/unsubscribe (JSON, from static/push/push.js
on the profile page), the profile's device forms, and the one-click unsubscribe link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from engine.jsontext import JSONLimitError, read_json
from games.parsing import id_or_none
from games.services import ServiceError
from games.views.access import status_for
from games.words import sentence
from portal.push import services, vapid
from portal.push.models import PushSubscription
from portal.push.services.subscriptions import unsubscribe_target

MAX_BODY = 8 * 1024


def _json(request: HttpRequest) -> dict:
    if len(request.body) > MAX_BODY:
        raise ServiceError("invalid", _("The request is too large."))
    try:
        data = read_json(request.body or b"null", max_bytes=MAX_BODY)
    except JSONLimitError as error:
        raise ServiceError("invalid", sentence(error.text)) from None
    except ValueError as error:
        raise ServiceError("invalid", _("The request is not JSON: %(error)s.") % {
            "error": error}) from error
    if not isinstance(data, dict):
        raise ServiceError("invalid", _("Send a JSON object."))
    return data


@require_POST
def subscribe(request: HttpRequest) -> HttpResponse:
    """The browser subscribed: ``{"subscription": PushSubscription.toJSON(), "label": ...}``."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Log in to turn push on.")}, status=403)
    if not vapid.enabled():
        return JsonResponse({"error": _("Push is not configured on this site.")}, status=409)
    try:
        data = _json(request)
        row = services.subscription_save(user=request.user, data=data.get("subscription"),
                                         label=str(data.get("label") or ""))
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=status_for(error))
    return JsonResponse({"id": row.pk, "label": row.label}, status=201)


@require_POST
def unsubscribe_endpoint(request: HttpRequest) -> HttpResponse:
    """The browser turned push off on this device: ``{"endpoint": ...}``."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": _("Log in first.")}, status=403)
    try:
        endpoint = _json(request).get("endpoint")
        if not isinstance(endpoint, str) or not endpoint:
            raise ServiceError("invalid", _("Send the endpoint to remove."))
    except ServiceError as error:
        return JsonResponse({"error": error.message}, status=status_for(error))
    removed = services.subscription_delete(user=request.user, endpoint=endpoint)
    return JsonResponse({"removed": removed})


def _choice(request: HttpRequest, name: str) -> bool:
    return request.POST.get(name) in ("on", "true", "1")


@login_required
@require_POST
def update(request: HttpRequest, subscription_id: str) -> HttpResponse:
    try:
        services.subscription_update(
            user=request.user, subscription_id=subscription_id,
            your_move=_choice(request, "your_move"), reminders=_choice(request, "reminders"),
            results=_choice(request, "results"), label=request.POST.get("label"))
    except ServiceError as error:
        return _refused(request, error)
    messages.success(request, _("Push settings of the device saved."))
    return redirect("accounts_profile")


@login_required
@require_POST
def delete(request: HttpRequest, subscription_id: str) -> HttpResponse:
    try:
        services.subscription_delete(user=request.user, subscription_id=subscription_id)
    except ServiceError as error:
        return _refused(request, error)
    messages.success(request, _("Push turned off for that device."))
    return redirect("accounts_profile")


@login_required
@require_POST
def test(request: HttpRequest, subscription_id: str) -> HttpResponse:
    subscription = PushSubscription.objects.filter(
        pk=id_or_none(subscription_id), user=request.user).first()
    if subscription is None:
        return _refused(request, ServiceError("not_found", _("You have no such device with push.")))
    if services.push_test(subscription=subscription) is None:
        return render(request, "error.html", {"status": 429, "error": _(
            "A test push went to that device less than a minute ago: wait a minute before "
            "sending another.")}, status=429)
    messages.success(request, _("A test push is on its way to that device."))
    return redirect("accounts_profile")


def _refused(request: HttpRequest, error: ServiceError) -> HttpResponse:
    return render(request, "error.html", {"error": error.message, "status": status_for(error)},
                  status=status_for(error))


@csrf_exempt  # the service worker posts it from a notification's button: the token is the key
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe of one device. A GET only shows the button (link checkers must
    not unsubscribe anybody); a POST removes the device's subscription."""
    target = unsubscribe_target(token)
    if request.method == "POST":
        done = services.subscription_unsubscribe(token=token)
        return render(request, "push/unsubscribe.html", {"done": done, "invalid": not done},
                      status=200 if done else 400)
    if target is None:
        return render(request, "push/unsubscribe.html", {"invalid": True}, status=400)
    return render(request, "push/unsubscribe.html", {"device": target})
