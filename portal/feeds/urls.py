from django.urls import path

from portal.feeds import views

urlpatterns = [
    path("regenerate/", views.regenerate, name="calendar_regenerate"),
    path("<str:token>.ics", views.feed, name="calendar_feed"),
]
