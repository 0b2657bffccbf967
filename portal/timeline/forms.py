from django import forms
from django.utils.translation import gettext_lazy as _

from portal.timeline.models import COMMENTARY_MAX, NOTE_MAX


class NoteForm(forms.Form):
    text = forms.CharField(label=_("Your private notes"), required=False, max_length=NOTE_MAX,
                           widget=forms.Textarea(attrs={"rows": 6}))


class CommentaryForm(forms.Form):
    text = forms.CharField(label=_("Your commentary"), required=False,
                           max_length=COMMENTARY_MAX, widget=forms.Textarea(attrs={"rows": 6}))
