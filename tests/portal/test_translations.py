"""Each message is looked up once per language (portal/translations.py): what a translation
object remembers is its own language's answer, never another's."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import trans_real


def test_each_language_remembers_its_own_answers():
    with translation.override("en-gb"):
        english = translation.gettext("Earlier messages")
        assert translation.gettext("Earlier messages") == english == "Earlier messages"
    with translation.override("fr"):
        french = translation.gettext("Earlier messages")
        assert french != english
        assert translation.gettext("Earlier messages") == french
    with translation.override("en-gb"):
        assert translation.gettext("Earlier messages") == english
    # A message no catalogue holds reads as written, in every language.
    with translation.override("fr"):
        assert translation.gettext("No catalogue has this sentence.") == \
            "No catalogue has this sentence."


def test_every_translation_object_django_hands_out_remembers():
    for language in ("en-gb", "fr"):
        made = trans_real.translation(language)
        assert "gettext" in made.__dict__  # (the remembering lookup, on the object itself)
