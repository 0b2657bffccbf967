"""/mail/: the ESP inbound webhooks (django-anymail), e.g. /mail/anymail/sendgrid/inbound/.

Received messages arrive through anymail's ``inbound`` signal (see receivers.py)."""

from django.urls import include, path

urlpatterns = [
    path("anymail/", include("anymail.urls")),
]
