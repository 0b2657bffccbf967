from django.urls import path

from portal.reports import views

app_name = "reports"

urlpatterns = [
    path("", views.report, name="report"),
]
