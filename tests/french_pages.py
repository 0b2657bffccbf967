"""English left in a page or a mail that should read in French.

``english_in(document, names=...)`` returns the frequent English words a French reader would
see, each with the text around it. What a reader does not read as language is left out: code
(``<code>``, ``<kbd>``, ``<samp>``, what a form field holds, scripts, styles, templates,
comments), attributes, link and mail addresses, time zone names, what a player types quoted
in a sentence (« move B4 ») and the proper nouns the caller names (game titles, usernames,
match titles). Small and self-contained, so that any crawl of French pages can use it.
"""

from __future__ import annotations

import html
import re
import zoneinfo
from collections.abc import Iterable

# Frequent English words that no French sentence uses as words. "phase" (the same in French),
# "on", "or", "a" and "at" (a French word, or a unit's name in Final Act) are not among them.
WORDS = [
    "the", "and", "your", "you", "of", "to", "is", "are", "not", "with", "in", "for", "this",
    "that", "these", "it", "has", "have", "was", "will", "be", "from", "by", "which", "what",
    "when", "who", "yet", "here", "there", "been", "only", "each", "every", "all", "any",
    "deadline", "deadlines", "match", "matches", "turn", "turns", "orders", "order", "submit",
    "submitted", "seat", "seats", "round", "rounds", "player", "players", "sheet", "sheets",
    "receipt", "move", "moves", "fire", "shoot", "waiting", "history", "resolved", "spectator",
    "spectators", "lobby", "create", "open", "clock", "clocks", "hours", "days",
    # a bot's kind as the engine keys it ("robot (random)"), a result ("Delta won")
    "random", "greedy", "bot", "bots", "won",
]
ENGLISH = re.compile(r"(?<![\w'’-])(" + "|".join(WORDS) + r")(?![\w'’-])", re.I)

CODE = re.compile(r"<(script|style|template|code|kbd|samp|textarea)\b.*?</\1\s*>|<!--.*?-->",
                  re.S | re.I)
TAGS = re.compile(r"<[^>]*>")
ADDRESSES = re.compile(r"\bhttps?://\S+|\b[\w.+-]+@[\w.-]+\b|(?<!\w)/[\w./?=&%+-]*")
# What a player types, quoted in a sentence (« move B4 »): the game's grammar, not prose.
QUOTED = re.compile(r"«[^»]{1,60}»")
# French that holds an English-looking word: "match nul" is a draw.
FRENCH = re.compile(r"\bmatch nul\b", re.I)
# Time zone names ("America/Port of Spain", as the forms show them) are names in any language.
ZONES = re.compile("|".join(re.escape(zone.replace("_", " ")) for zone in sorted(
    zoneinfo.available_timezones(), key=len, reverse=True) if "/" in zone))


def readable_text(document: str, *, is_html: bool = True,
                  names: Iterable[str] = ()) -> str:
    """The words a person reads, without code, tags, attributes, addresses and ``names``."""
    if is_html:
        document = html.unescape(TAGS.sub(" ", CODE.sub(" ", document)))
    text = QUOTED.sub(" ", FRENCH.sub(" ", ADDRESSES.sub(" ", ZONES.sub(" ", document))))
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", text, flags=re.I)
    return text


def english_in(document: str, *, is_html: bool = True, names: Iterable[str] = ()) -> list[str]:
    """Each English word left in ``document``, with the text around it."""
    text = readable_text(document, is_html=is_html, names=names)
    found = []
    for hit in ENGLISH.finditer(text):
        around = re.sub(r"\s+", " ", text[max(0, hit.start() - 50):hit.end() + 50])
        found.append(f"{hit.group()!r} in …{around.strip()}…")
    return found


# -- French typography: a space before ':' ("Échéance : …"), dates as French writes them -----

# Tags inside a line of text: a colon right after one ("<b>Alpha</b>: …") is still unspaced.
INLINE = re.compile(r"</?(?:a|b|strong|em|i|span|time|abbr|small|label|output|mark|s|u)\b[^>]*>",
                    re.I)
# A colon stuck to the word before it and followed by a space or the end of a line: "Alpha:"
# (times, "14:05", and addresses, "https:", are no such colon).
UNSPACED_COLON = re.compile(r"[^\s:/]+:(?=\s|$)", re.M)
# Django's abbreviations ("D j M"), English or in French letters: "dim 29 Nov", "Sun 29 Nov".
# (A French weekday's abbreviation alone is no sign: "journée de jeu 4".)
SHORT_DATE = re.compile(
    r"\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\.? \d{1,2}\b|"
    r"\d{1,2} (?:Jan|Fév|Feb|Mar|Avr|Apr|Mai|May|Jui|Jun|Jul|Aoû|Aug|Sep|Oct|Nov|Déc|Dec)\b)")


def typography_in(document: str, *, is_html: bool = True, names: Iterable[str] = ()) -> list[str]:
    """Each place where ``document`` breaks French typography: a colon without the space
    before it ("Alpha (alice): en attente"), a date in abbreviations ("dim 29 Nov"); each with
    the text around it. Code, addresses and ``names`` are left out as for ``english_in``."""
    if is_html:
        document = INLINE.sub("", CODE.sub(" ", document))
    text = readable_text(document, is_html=is_html, names=names)
    found = []
    for pattern in (UNSPACED_COLON, SHORT_DATE):
        for hit in pattern.finditer(text):
            around = re.sub(r"\s+", " ", text[max(0, hit.start() - 40):hit.end() + 40])
            found.append(f"{hit.group()!r} in …{around.strip()}…")
    return found
