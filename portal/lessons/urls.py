from django.urls import path

from portal.lessons import views

app_name = "lessons"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.game_index, name="game"),
    path("<slug:slug>/<slug:lesson>/", views.lesson_page, name="lesson"),
    path("<slug:slug>/<slug:lesson>/try/", views.lesson_try, name="try"),
]
