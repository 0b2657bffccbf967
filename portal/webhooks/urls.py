"""/webhooks/: a club's and a match's webhook pages and each target's actions."""

from django.urls import path

from portal.webhooks import views

urlpatterns = [
    path("clubs/<slug:slug>/", views.club_targets, name="webhooks_club"),
    path("matches/<str:match_id>/", views.match_targets, name="webhooks_match"),
    path("<str:target_id>/delete/", views.target_delete, name="webhooks_delete"),
    path("<str:target_id>/enable/", views.target_enable, name="webhooks_enable"),
    path("<str:target_id>/test/", views.target_test, name="webhooks_test"),
    path("<str:target_id>/tests/<str:delivery_id>/", views.test_status,
         name="webhooks_test_status"),
]
