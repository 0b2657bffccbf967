from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from portal import home
from portal.api.api import api

# The admin logs in through the site's log-in page, so it is throttled like every log-in.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("calendar/", include("portal.feeds.urls")),
    path("accounts/tokens/", include("portal.api.web_urls")),
    path("accounts/", include("portal.accounts.urls")),
    path("mail/", include("portal.mail.urls")),
    path("push/", include("portal.push.urls")),
    path("report/", include("portal.reports.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("home/", home.home, name="home"),
    path("home/next/", home.next_match, name="next_match"),
    path("", include("competitions.urls")),
    path("", include("games.urls")),
]

handler400 = "portal.errors.bad_request"
handler403 = "portal.errors.permission_denied"
handler404 = "portal.errors.page_not_found"
handler429 = "portal.errors.too_many_requests"
