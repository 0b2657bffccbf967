"""/mail/: the ESP webhooks (django-anymail: inbound, and tracking for bounces and complaints),
one-click unsubscribe links, and the failing-address banner's button.

Received messages arrive through anymail's ``inbound`` signal (see receivers.py)."""

from django.urls import include, path

from portal.mail import bounces, unsubscribe

urlpatterns = [
    path("anymail/", include("portal.mail.webhooks")),
    path("unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="mail_unsubscribe"),
    path("address/resume/", bounces.resume, name="mail_address_resume"),
    path("resubscribe/<str:kind>/", unsubscribe.resubscribe, name="mail_resubscribe"),
]
