"""The committed French catalogue: every message translated, nothing fuzzy, and the compiled
.mo (committed, so that tests and CI need no gettext tools) matching the .po."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

from django.conf import settings

PO = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def _unquote(block: str) -> str:
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', block)
    escapes = {"n": "\n", '"': '"', "\\": "\\", "t": "\t"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(1)), "".join(parts))


def _entries() -> list[tuple[str, str, str]]:
    """(context, msgid, msgstr) of every singular entry ("" for no context)."""
    entries = []
    for entry in PO.read_text(encoding="utf-8").split("\n\n"):
        found = re.search(r'^msgid ((?:".*"\n?)+)^msgstr ((?:".*"\n?)+)', entry + "\n", re.M)
        context = re.search(r'^msgctxt ((?:".*"\n?)+)', entry + "\n", re.M)
        if found and _unquote(found.group(1)):
            entries.append((_unquote(context.group(1)) if context else "",
                            _unquote(found.group(1)), _unquote(found.group(2))))
    return entries


def test_every_french_message_is_translated_and_compiled():
    text = PO.read_text(encoding="utf-8")
    assert "#, fuzzy" not in text
    entries = _entries()
    assert len(entries) > 50
    with open(PO.with_suffix(".mo"), "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    for context, msgid, msgstr in entries:
        assert msgstr, f"untranslated: {msgid!r}"
        found = catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)
        assert found == msgstr, f"the .mo is older than the .po: {msgid!r}"
