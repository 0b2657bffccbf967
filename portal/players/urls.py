from django.urls import path

from portal.players import views

app_name = "players"

urlpatterns = [
    path("<str:username>/", views.player, name="page"),
]
