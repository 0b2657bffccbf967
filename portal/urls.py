from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("portal.accounts.urls")),
    path("mail/", include("portal.mail.urls")),
    path("report/", include("portal.reports.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("competitions.urls")),
    path("", include("games.urls")),
]

handler400 = "portal.errors.bad_request"
handler403 = "portal.errors.permission_denied"
handler404 = "portal.errors.page_not_found"
