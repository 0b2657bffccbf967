"""A small detector of English left in a French text: ``english_in(text)`` lists the frequent
English words it finds.

The text may be a page (HTML) or plain text. In HTML, what is not prose is left out: ``<code>``,
``<pre>``, ``<kbd>``, ``<samp>``, ``<var>``, scripts and styles, and any element marked
``translate="no"`` (HTML's own way to say "a name, not to be translated"). The text shown to
assistive technologies (``aria-label``, ``title``, ``alt``, ``placeholder``) is read too.

The words are frequent English words that are not also French words ("on", "a", "or", "an",
"plus", "front", "page" ... are left out), so a French text should contain none of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape
from html.parser import HTMLParser

_WORDS = """
    the and your you of to is not with when each unit units turn turns move moves moved fire
    fires fired this that these those from into onto by for if then than there their they
    them its it are be been being was were has have had will would can could may must should
    which who whom what where while after before only also any all one two three five seven
    eight nine ten every other another some such same own out up down over under again round
    rounds squares board player players tank tanks shell shells hit hits enemy side sides
    rules how play playing orders order here back new next first last left right ahead
    behind through until without between both either neither none nothing anyone nobody
    someone something always never once twice more most less least just still even yet
    because so does did done make makes made take takes taken give gives get gets see sees
    seen shown shows show click write written reply wins win lose loses draw ends end start
    starts stays stay holds hold opponent opponents seat seats bots bot contents goal setup
    moving firing damaged damage out of outline north south east west forward reverse
    reversing armour firepower woods clear water wall walls barrier barriers troop troops
    kidnapper kidnappers bomb bombs
"""
ENGLISH = frozenset(_WORDS.split())

SKIPPED = frozenset({"code", "pre", "kbd", "samp", "var", "script", "style"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
READ_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


class _Prose(HTMLParser):
    """The prose of a page: text nodes and the attributes read aloud, without code or names."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[bool] = []  # for each open element: is its text left out?
        self.pieces: list[str] = []

    def _skipping(self) -> bool:
        return any(self.open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        skip = tag in SKIPPED or values.get("translate") == "no"
        if not skip and not self._skipping():
            self.pieces.extend(values[name] or "" for name in READ_ATTRIBUTES if name in values)
        if tag not in VOID:
            self.open.append(skip)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if not self._skipping() and values.get("translate") != "no":
            self.pieces.extend(values[name] or "" for name in READ_ATTRIBUTES if name in values)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        if not self._skipping():
            self.pieces.append(data)


def prose(text: str) -> str:
    """The prose of ``text``: itself if plain, its readable text if HTML."""
    if "<" not in text:
        return text
    parser = _Prose()
    parser.feed(text)
    parser.close()
    return "\n".join(parser.pieces)


def english_in(text: str, names: Iterable[str] = ()) -> list[str]:
    """The frequent English words in ``text`` (each once, in order of appearance), outside
    the proper nouns ``names`` (a game's name, say "Tank Game V4")."""
    readable = prose(text)
    for name in names:
        readable = readable.replace(name, " ")
    found: dict[str, None] = {}
    for word in WORD.findall(readable):
        if word.lower() in ENGLISH:
            found.setdefault(word, None)
    return list(found)


# The pages' and mails' detector (a longer list of words, with what the caller allows taken
# out first): ``text_of`` and ``english_words``.

_PAGE_WORDS = """
    the and of to in with without from by for about into onto than then when where which who
    whom why how what while until since before after again also only every each any some
    this that these those there here is are was were be been being has have had do does did
    will would can cannot could should must may might not no yet it its you your yours we our
    they their them he she his her my at if so up out off over just still
    hello please thank thanks welcome sorry
    matches orders order move moves deadline deadlines player players seat seats round
    rounds reply email mail mails send sheet receipt warning warnings leave leaves
    reminder reminders result results winner winners draw finished started starts
    begins ends ended opened resolved nothing something everything
    yes none new closed day days hour hours week weeks today tomorrow
    now next last first link profile settings ladder ladders tournament tournaments
    invited invites join joined member members standings pairings bye
    game games board lobby home learn lesson lessons analysis
    save saved remove removed turn turned back device devices
"""
PAGE_ENGLISH = frozenset(_PAGE_WORDS.split())

# What is never prose: addresses, links, and the reply tokens in them.
_NOT_PROSE = re.compile(r"https?://\S+|[\w.+-]+@[\w.-]+|<[^>]+>")
_PAGE_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


def text_of(html: str) -> str:
    """The visible text of an HTML mail or page: tags, scripts and styles dropped."""
    html = re.sub(r"(?is)<(script|style|pre|code)\b.*?</\1>", " ", html)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def english_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The frequent English words in ``text`` once every ``allowed`` piece (a proper noun, a
    name, a test game's own text) and every address is taken out."""
    for piece in sorted({p for p in allowed if p}, key=len, reverse=True):
        text = text.replace(piece, " ")
    text = _NOT_PROSE.sub(" ", text)
    return [word for word in _PAGE_WORD.findall(text) if word.lower() in PAGE_ENGLISH]
