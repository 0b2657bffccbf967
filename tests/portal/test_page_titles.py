"""A page's title (the browser's tab, a screen reader's first words) is words, never markup: a
title block holding HTML showed it as text in the tab (the clubs page's once held the leagues'
list)."""

import re
from pathlib import Path

from django.conf import settings

TITLE = re.compile(r"{%\s*block title\s*%}(.*?){%\s*endblock", re.S)


def test_no_title_block_holds_markup():
    folder = Path(settings.BASE_DIR) / "templates"
    found = [f"{path.relative_to(folder)}: {title[:80]!r}"
             for path in folder.rglob("*.html")
             for title in TITLE.findall(path.read_text())
             if "<" in title]
    assert not found, found
