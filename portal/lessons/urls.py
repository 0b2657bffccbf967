from django.urls import path

from portal.lessons import views

app_name = "lessons"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:game>/", views.game_index, name="game"),
    path("<slug:game>/<slug:lesson>/", views.lesson_page, name="lesson"),
    path("<slug:game>/<slug:lesson>/try/", views.lesson_try, name="try"),
    path("<slug:game>/<slug:lesson>/check/", views.lesson_check, name="check"),
]
