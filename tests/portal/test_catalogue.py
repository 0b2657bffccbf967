"""The French catalogue is complete (nothing untranslated, fuzzy or left over, the same
placeholders as the English), and the pages whose texts were marked for translation read in
French: every marked text the English page shows is replaced by its translation."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings

import engine
from competitions.services.clubs import club_create

PO = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdf]|\{\{\s*\w+\s*\}\}")


@pytest.fixture(scope="module")
def catalogue() -> polib.POFile:
    return polib.pofile(str(PO))


def test_every_entry_is_translated_and_checked(catalogue):
    assert not [e.msgid for e in catalogue.untranslated_entries()]
    assert not [e.msgid for e in catalogue.fuzzy_entries()]
    assert not [e.msgid for e in catalogue.obsolete_entries()]


def test_translations_keep_the_placeholders(catalogue):
    for entry in catalogue.translated_entries():
        wanted = set(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            found = set(PLACEHOLDER.findall(form))
            # A singular form may leave out the count ("votre char H1" for one tank).
            assert found <= wanted and (found == wanted or entry.msgid_plural), entry.msgid


class _Texts(HTMLParser):
    """The text pieces of a page, without a label's suffix (" :" in French)."""

    def __init__(self) -> None:
        super().__init__()
        self.skip, self.texts = 0, set()

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.skip -= tag in ("script", "style")

    def handle_data(self, data):
        text = re.sub(r"\s+", " ", data).strip().removesuffix(":").strip()
        if not self.skip and text:
            self.texts.add(text)


def _texts(client, url: str, language: str) -> set[str]:
    client.cookies["django_language"] = language
    response = client.get(url)
    assert response.status_code == 200, url
    page = response.content.decode()
    parser = _Texts()  # the page's own part: the site's menu is not among the marked texts
    parser.feed(page[page.index("<main"):page.index("</main>")])
    return parser.texts


@pytest.mark.django_db
def test_home_and_match_creation_read_in_french(client, make_user, catalogue):
    user = make_user("amelie")
    client.force_login(user)
    translated = {e.msgid: e.msgstr for e in catalogue.translated_entries()
                  if not e.msgid_plural and e.msgstr != e.msgid and not PLACEHOLDER.search(e.msgid)}
    for url in ["/home/"] + [f"/matches/new/?game={slug}" for slug in engine.games()]:
        english = _texts(client, url, "en-gb")
        french = _texts(client, url, "fr")
        shown = {msgid for msgid in translated if msgid in english}
        assert shown, url
        assert not shown & french, (url, shown & french)
        assert {translated[msgid] for msgid in shown} <= french, url


@pytest.mark.django_db
def test_club_page_reads_in_french(client, make_user):
    user = make_user("amelie")
    club = club_create(by=user, name="Les Chars du Jeudi")
    client.force_login(user)
    french = _texts(client, f"/clubs/{club.slug}/", "fr")
    assert {"Échelles et tournois", "Renouveler le lien d'invitation"} <= french
