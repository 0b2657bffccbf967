from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from portal.webhooks.models import WebhookTarget


class TargetForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80,
                           help_text=_("For you: which chat or channel this is."))
    format = forms.ChoiceField(label=_("Kind"), choices=WebhookTarget.Format.choices)
    url = forms.CharField(
        label=_("Webhook address"), max_length=2000,
        help_text=_("The https address the chat service gave you for an incoming webhook. It "
                    "is kept secret: it is not shown again."))
    language = forms.ChoiceField(label=_("Language of the messages"),
                                 choices=settings.LANGUAGES)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = get_language() or ""
        codes = [code for code, _name in settings.LANGUAGES]
        self.fields["language"].initial = next(
            (code for code in codes if code in (current, current.split("-")[0])),
            settings.LANGUAGE_CODE)
