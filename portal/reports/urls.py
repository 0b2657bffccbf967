from django.urls import path

from portal.reports import views

app_name = "reports"

urlpatterns = [
    path("report/", views.report, name="report"),
    # A message's report button, beside the messages panel it answers (``chat:panel``).
    path("matches/<int:match_id>/messages/<int:message_id>/report/", views.report_message,
         name="message"),
]
