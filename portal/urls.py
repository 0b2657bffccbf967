from django.contrib import admin
from django.urls import include, path

from portal.api.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("calendar/", include("portal.feeds.urls")),
    path("accounts/tokens/", include("portal.api.web_urls")),
    path("accounts/", include("portal.accounts.urls")),
    path("mail/", include("portal.mail.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("competitions.urls")),
    path("", include("games.urls")),
]

handler400 = "portal.errors.bad_request"
handler403 = "portal.errors.permission_denied"
handler404 = "portal.errors.page_not_found"
