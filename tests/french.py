"""English left in a French page or mail: the one detector the tests share.

``english_in(document, names=...)`` returns the sentences of a page (HTML) or a mail's text that
are in English; ``typography_in(document, names=...)`` the places that break French typography.

What a person reads (``visible_text``) is kept: the text of the page, cut in lines where its
blocks end, and what assistive technologies read aloud (``aria-label``, ``title``, ``alt``,
``placeholder``). Left out is what no one reads as language: code (``<code>``, ``<pre>``,
``<kbd>``, ``<samp>``, ``<var>``, what a form field holds, scripts, styles, templates,
comments), any element marked ``translate="no"`` (HTML's own "a name, not to be translated"),
other attributes, link and mail addresses, hashes and receipts, masked secrets, time zone names,
what a player types quoted in a sentence (« B4 ») and the order grammar's own phrases
("give 3 to C5", "paid by 1B"), "match nul" (a French draw), and proper nouns: the games' names
(``PROPER_NOUNS``) and those the caller gives (usernames, match titles).

A sentence holding one of a list of frequent English words that are not French words
(``ENGLISH_WORDS``: "on", "a", "or", "plus", "match", "mail", "show", "no" ... are not among
them), or a date in English abbreviations, is English.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

_WORDS = """
    the and of to in at is are was were be been being your yours you with without this that
    these those has have had do does did not will would should could can cannot can't don't
    doesn't didn't isn't aren't wasn't won't it its it's by from for into onto about after
    before than then there here what which when where who whom whose how why their they them
    he she his her we our my if up out off over under down each any every some more most
    less least only must may might now yet also just please yes again still already very other
    another such same own because while until since once twice never always new see sees seen
    click thank thanks welcome sorry hello
    one two three five seven eight nine ten all both either neither nothing something
    everything anyone nobody someone even through ahead behind back left right last next
    make makes made take takes taken give gives get gets shown shows write written reply
    win wins won lose loses draw ended start starts started begins finished opened
    closed resolved
    unit units turned
    squares board player players tank tanks shell shells hit hits enemy rules play
    playing orders order opponent opponents seat seats bot bots setup damaged damage outline
    forward armour firepower woods clear water barrier barriers
    troop troops
    deadline deadlines matches round rounds submit submitted sheet sheets receipt waiting
    history spectator spectators lobby create clock clocks hour hours day days week weeks
    today tomorrow send warning warnings leave leaves reminder reminders result results
    winner winners link profile settings ladder ladders tournament tournaments invited join
    joined member members standings pairings bye game games home learn lesson lessons
    analysis save saved remove removed device devices
    random greedy
"""
ENGLISH_WORDS = frozenset(_WORDS.split())
# Left out as French words or names: "a", "on", "or", "an", "plus", "front", "page", "phase",
# "match" ("un match nul"), "mail"/"email", "show", "contents", "goal", "invites" ("tu
# invites"), "no" and "so" (nord-ouest, sud-ouest, as a compass writes them); "north",
# "south", "east", "west" (the test games' seats are called North and South); and the order
# grammar's keywords ("fire", "move", "turn", "stay", "hold", "reverse", "first", "end",
# "side", "shoot", "none", "wall", "kidnapper", "bomb"), which the French pages and mails show
# as they are typed.

# Proper nouns: kept in every language (the games' names; a caller adds its own data's names).
PROPER_NOUNS = ["Tank Portal", "Final Act", "Final Strategy", "Panzer Squadron", "Tank Game V4",
                "Tank Game", "Toy Duel"]

# -- what a person reads ------------------------------------------------------------------------

HIDDEN = re.compile(
    r"<(script|style|template|code|pre|kbd|samp|var|textarea)\b.*?</\1\s*>|<!--.*?-->"
    r"""|<([a-zA-Z][\w-]*)\b[^>]*\btranslate\s*=\s*["']?no\b[^>]*>.*?</\2\s*>""",
    re.S | re.I)
TAG = re.compile(r"<(/?)([a-zA-Z][\w:-]*)([^>]*)>")
# Tags that end a line of what a person reads (the others sit inside a sentence).
_BLOCKS = """p div li ul ol br h1 h2 h3 h4 h5 h6 tr td th table section article
    header footer nav main aside form fieldset legend label button option select dt dd dl
    figure figcaption caption summary details hr title svg head body html"""
BLOCKS = frozenset(_BLOCKS.split())
READ_ALOUD = re.compile(r"""\b(?:aria-label|title|alt|placeholder)\s*=\s*("[^"]*"|'[^']*')""",
                        re.I)
ADDRESSES = re.compile(r"\bhttps?://\S+|\bmailto:\S+|\b[\w.+-]+@[\w.-]+\b|(?<!\w)/[\w./?=&%+-]*")
# Codes no one reads as words: hashes and receipts (hex), a secret shown masked ("mY*****",
# the admin's password summary: random letters), a calendar's property names ("LAST-MODIFIED:"),
# a module's dotted path ("games.services.timing"), time zones' names ("America/Port of Spain").
CODES = re.compile(r"\b[0-9a-f]{16,}\b|\S*\*{4,}\S*|(?m:^[A-Z][A-Z-]+(?:;[^:\n]*)?:)|"
                   r"\b[a-z_]+(?:\.[a-z_]+){2,}\b|"
                   r"\b(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|"
                   r"Australia|Europe|Indian|Pacific|Etc)/[A-Za-z_+-]+"
                   r"(?:[ /](?:of|[A-Z][A-Za-z_+-]*))*")
# What a player types, quoted in a sentence (« move B4 »): the game's grammar, not prose.
QUOTED = re.compile(r"«[^»]{1,60}»")
# The order grammar's phrases, typed as they are whatever the reader's language.
GRAMMAR = re.compile(
    r"\b(?:give \d+ to|bounty \d+ on|vote \d+(?: \d+)? on|paid by|shoot at)\b", re.I)
# French that an English-looking word: "match nul" is a draw.
FRENCH = re.compile(r"\bmatch nul\b", re.I)


def _tag(match: re.Match, aloud: bool = True) -> str:
    """A tag as a person reads it: a line's end for a block, and what it says aloud."""
    closing, name, attributes = match.groups()
    said = [value[1:-1] for value in READ_ALOUD.findall(attributes)] if aloud and not closing \
        else []
    end = "\n" if name.lower() in BLOCKS else " "
    return end + "".join(f"\n{value}\n" for value in said) if said else end


def text_of(document: str, *, aloud: bool = True) -> str:
    """The text of ``document`` as a person sees it (HTML, or plain text: a mail's text body),
    and, if ``aloud``, hears it read; without the parts no one reads as language; names are
    kept."""
    if "<" in document and re.search(r"</?[a-zA-Z][^>]*>", document):
        tag = _tag if aloud else (lambda match: _tag(match, aloud=False))
        document = html.unescape(TAG.sub(tag, HIDDEN.sub("\n", document)))
    return document


def visible_text(document: str, *, names: Iterable[str] = (), aloud: bool = True) -> str:
    """What a person reads of ``document`` as language: no code, addresses or proper nouns."""
    text = CODES.sub(" ", ADDRESSES.sub(" ", text_of(document, aloud=aloud)))
    text = QUOTED.sub(" ", FRENCH.sub(" ", text))
    for name in sorted({n for n in [*PROPER_NOUNS, *names] if n}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "…", text, flags=re.I)
    return GRAMMAR.sub(" ", text)


# -- English --------------------------------------------------------------------------------

SENTENCES = re.compile(r"(?<=[.!?:;])\s+|\s*\n\s*|\s{3,}|\s+[|•·—]\s+")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")  # (accented letters are letters: "notées")
# A date in Django's abbreviations, English or in French letters ("dim 29 Nov", "Sun 29 Nov"):
# French writes "dimanche 29 novembre" (the site's formats: portal/formats).
SHORT_DATE = re.compile(
    r"\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\.? \d{1,2}\b|"
    r"\d{1,2} (?:Jan|Fév|Feb|Mar|Avr|Apr|Mai|May|Jui|Jun|Jul|Aoû|Aug|Sep|Oct|Nov|Déc|Dec)\b)")


def english_in(document: str, *, names: Iterable[str] = ()) -> list[str]:
    """The sentences of a page or mail that are in English, each once and as it reads (at most
    160 characters of it); none when it reads as French."""
    found: list[str] = []
    for sentence in SENTENCES.split(visible_text(document, names=names)):
        sentence = " ".join(sentence.split())
        # A word in capitals amid lower case is a term of the game ("AT unit") or a code; so is
        # a line of one or two such words ("AT", "AT1 A"), where a heading has more.
        words = WORD.findall(sentence)
        shouting = sentence.isupper() and len(words) > 2
        words = {w.replace("’", "'").lower() for w in words
                 if shouting or not (w.isupper() and len(w) > 1)}
        if (words & ENGLISH_WORDS or SHORT_DATE.search(sentence)) and sentence[:160] not in found:
            found.append(sentence[:160])
    return found


# -- French typography: a space before ':' ("Échéance : …"), dates as French writes them -----

# Tags inside a line of text: a colon right after one ("<b>Alpha</b>: …") is still unspaced.
INLINE = re.compile(r"</?(?:a|b|strong|em|i|span|time|abbr|small|label|output|mark|s|u)\b[^>]*>",
                    re.I)
# A colon stuck to the word before it and followed by a space or the end of a line: "Alpha:"
# (times, "14:05", and addresses, "https:", are no such colon).
UNSPACED_COLON = re.compile(r"[^\s:/]+:(?=\s|$)", re.M)


def typography_in(document: str, *, names: Iterable[str] = ()) -> list[str]:
    """Each place where ``document`` breaks French typography: a colon without the space
    before it ("Alpha (alice): en attente"), a date in abbreviations ("dim 29 Nov"); each with
    the text around it. What is left out is left out as for ``english_in``, and what is only
    read aloud ("a1: vide", a square's label) is no typography."""
    text = visible_text(INLINE.sub("", HIDDEN.sub("\n", document)), names=names, aloud=False)
    found = []
    for pattern in (UNSPACED_COLON, SHORT_DATE):
        for hit in pattern.finditer(text):
            around = re.sub(r"\s+", " ", text[max(0, hit.start() - 40):hit.end() + 40])
            found.append(f"{hit.group()!r} in …{around.strip()}…")
    return found
