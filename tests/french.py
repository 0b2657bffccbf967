"""A small English detector for texts that should be French: the frequent English words left
in them, outside what the caller names as proper nouns or data (user names, match titles, a
test game's own texts) and outside addresses and code.

Only words that are not also French are listed ("on", "or", "a", "an", "as", "page",
"position", "report", "club", "match", "push", "web", "minute" are both), so a hit is English
left untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape

_WORDS = """
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
ENGLISH = frozenset(_WORDS.split())

# What is never prose: addresses, links, and the reply tokens in them.
_NOT_PROSE = re.compile(r"https?://\S+|[\w.+-]+@[\w.-]+|<[^>]+>")
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


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
    return [word for word in _WORD.findall(text) if word.lower() in ENGLISH]
