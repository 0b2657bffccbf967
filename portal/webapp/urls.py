"""The installed app's files: its manifest, its service worker (served from the site's root so
that it may control every page) and the page it shows when the network is gone."""

from django.urls import path

from portal.webapp import views

urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="webapp_manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="webapp_offline"),
]
