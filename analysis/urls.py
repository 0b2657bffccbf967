from django.urls import path

from analysis import views

app_name = "analysis"

urlpatterns = [
    path("analysis/", views.mine, name="mine"),
    path("analysis/upload/", views.upload, name="upload"),
    path("analysis/<str:analysis_token>/", views.detail, name="detail"),
    path("analysis/<str:analysis_token>/play/", views.play, name="play"),
    path("analysis/<str:analysis_token>/check/", views.check, name="check"),
    path("analysis/<str:analysis_token>/suggest/", views.suggest, name="suggest"),
    path("analysis/<str:analysis_token>/delete/", views.delete, name="delete"),
    path("matches/<int:match_id>/analysis/", views.start, name="start"),
]
