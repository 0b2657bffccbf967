"""A public match's embed and link preview picture, under the match's address."""

from django.urls import path

from portal.sharing import views

app_name = "sharing"

urlpatterns = [
    path("<int:match_id>/embed/", views.embed, name="embed"),
    path("<int:match_id>/preview.png", views.preview_image, name="preview_image"),
]
