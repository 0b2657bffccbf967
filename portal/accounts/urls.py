"""Account pages: allauth's (sign-up, e-mail verification, log in/out, password reset) plus the
profile. Every allauth page is wrapped so that a POSTed form with errors answers 400, not 200."""

from functools import wraps

from allauth.account import urls as allauth_account_urls
from django.urls import URLPattern, path

from portal.accounts import views


def invalid_form_is_400(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if (
            request.method == "POST"
            and response.status_code == 200
            and form is not None
            and form.is_bound
            and form.errors
        ):
            response.status_code = 400
        return response

    return wrapped


def _wrapped(pattern: URLPattern) -> URLPattern:
    return URLPattern(
        pattern.pattern, invalid_form_is_400(pattern.callback), pattern.default_args, pattern.name
    )


urlpatterns = [
    path("profile/", views.profile_edit, name="accounts_profile"),
    path("profile/leave/", views.leave, name="accounts_leave"),
    path("profile/notifications/", views.notifications, name="accounts_notifications"),
    *(_wrapped(pattern) for pattern in allauth_account_urls.urlpatterns),
]
