from django.urls import path

from portal.chat import views

app_name = "chat"

urlpatterns = [
    path("<int:match_id>/messages/", views.panel, name="panel"),
    path("<int:match_id>/messages/send/", views.send, name="send"),
    path("<int:match_id>/messages/mute/", views.mute, name="mute"),
    path("<int:match_id>/messages/<int:message_id>/hide/", views.hide, name="hide"),
]
