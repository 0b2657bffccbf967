from django.urls import path

from portal.api import views

urlpatterns = [
    path("new/", views.token_create, name="api_token_create"),
    path("<int:token_id>/revoke/", views.token_revoke, name="api_token_revoke"),
]
