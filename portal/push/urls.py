"""/push/: the profile's device list actions, the browser's subscribe/unsubscribe calls and
the one-click unsubscribe link every push carries."""

from django.urls import path

from portal.push import views

urlpatterns = [
    path("subscriptions/", views.subscribe, name="push_subscribe"),
    path("subscriptions/remove/", views.unsubscribe_endpoint, name="push_unsubscribe_endpoint"),
    path("subscriptions/<str:subscription_id>/", views.update, name="push_update"),
    path("subscriptions/<str:subscription_id>/delete/", views.delete, name="push_delete"),
    path("subscriptions/<str:subscription_id>/test/", views.test, name="push_test"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="push_unsubscribe"),
]
