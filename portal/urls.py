from functools import wraps

from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.contrib.admin.options import TO_FIELD_VAR
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from portal import home
from portal.accounts.views import language_set
from portal.api.api import api
from portal.players.views import privacy as player_page_privacy
from portal.signals import views as signals_views

# The admin logs in through the site's log-in page, so it is throttled like every log-in.
admin.site.login = secure_admin_login(admin.site.login)
_admin_view = admin.site.admin_view


def _admin_view_refusing_empty_to_field(view, cacheable=False):
    """The admin's views, but ``?_to_field=`` (empty) is a 400: Django skips its check of the
    field for an empty name and then fails to find a field named "" (a 500)."""
    wrapped = _admin_view(view, cacheable)

    @wraps(wrapped)
    def admin_page(request, *args, **kwargs):
        if "" in (request.GET.get(TO_FIELD_VAR), request.POST.get(TO_FIELD_VAR)):
            raise BadRequest("_to_field names no field.")
        return wrapped(request, *args, **kwargs)

    return admin_page


admin.site.admin_view = _admin_view_refusing_empty_to_field


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico where a page names no icon (the admin, a record's JSON)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("favicon.ico", favicon),
    path("", include("portal.webapp.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("calendar/", include("portal.feeds.urls")),
    path("accounts/tokens/", include("portal.api.web_urls")),
    path("accounts/page-privacy/", player_page_privacy, name="player_page_privacy"),
    path("accounts/relationships/", signals_views.declare, name="relationship_declare"),
    path("accounts/relationships/<int:relationship_id>/withdraw/", signals_views.withdraw,
         name="relationship_withdraw"),
    path("accounts/my-data.json", signals_views.export, name="personal_data_export"),
    path("privacy/", signals_views.privacy, name="privacy"),
    path("accounts/", include("portal.accounts.urls")),
    path("players/", include("portal.players.urls")),
    path("mail/", include("portal.mail.urls")),
    path("push/", include("portal.push.urls")),
    path("webhooks/", include("portal.webhooks.urls")),
    path("", include("portal.reports.urls")),
    path("matches/", include("portal.timeline.urls")),
    path("matches/", include("portal.chat.urls")),
    path("matches/", include("portal.sharing.urls")),
    path("", include("portal.feeds.atom_urls")),
    path("learn/", include("portal.lessons.urls")),
    # The footer's choice also sets a signed-in player's profile language (their mails).
    path("i18n/setlang/", language_set, name="set_language"),
    path("home/", home.home, name="home"),
    path("home/next/", home.next_match, name="next_match"),
    path("", include("analysis.urls")),
    path("", include("competitions.urls")),
    path("", include("games.urls")),
]

handler400 = "portal.errors.bad_request"
handler403 = "portal.errors.permission_denied"
handler404 = "portal.errors.page_not_found"
handler429 = "portal.errors.too_many_requests"
