"""Finding English left in a French page or mail: ``english_in(html_or_text)``.

What a person reads is kept (tags, attributes, scripts, styles, code and typed orders, addresses
and links are dropped), cut into sentences, and a sentence holding one of a short list of
frequent English words that no French sentence uses (``the``, ``and``, ``your``, ``with``...)
is English. Names are no words: the games' names and what the crawl's own data is called are
dropped first (``PROPER_NOUNS``, extended by a test with its users' and matches' names), and so
are the order grammar's own phrases ("give 3 to C5", "paid by 1B"), which are typed as they are
in every language.
"""

from __future__ import annotations

import html
import re

# Frequent English words that are not French words: one of them in a sentence is English.
ENGLISH_WORDS = frozenset([
    "the", "and", "of", "is", "are", "was", "were", "be", "been", "being", "your", "yours", "you",
    "with", "without", "this", "that", "these", "those", "has", "have", "had", "not", "will",
    "would", "should", "could", "can", "cannot", "can't", "don't", "doesn't", "didn't", "isn't",
    "aren't", "wasn't", "won't", "it", "its", "it's", "by", "from", "for", "to", "at", "in",
    "into", "about", "after", "before", "than", "then", "there", "here", "what", "which", "when",
    "where", "who", "whose", "how", "why", "their", "they", "them", "he", "she", "his", "her",
    "we", "our", "my", "if", "each", "any", "every", "some", "more", "most", "only", "must",
    "may", "might", "now", "yet", "also", "just", "please", "yes", "does", "did", "again",
    "still", "already", "very", "other", "such", "because", "while", "until", "since", "once",
    "never", "always", "new", "see", "click",
    # a bot's kind as the engine keys it ("robot (random)"), a result ("Delta won")
    "random", "greedy", "won",
])
# A date in Django's abbreviations, English or in French letters ("dim 29 Nov", "Sun 29 Nov"):
# French writes "dimanche 29 novembre" (the site's formats: portal/formats).
SHORT_DATE = re.compile(
    r"\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\.? \d{1,2}\b|"
    r"\d{1,2} (?:Jan|Fév|Feb|Mar|Avr|Apr|Mai|May|Jui|Jun|Jul|Aoû|Aug|Sep|Oct|Nov|Déc|Dec)\b)")

# Proper nouns: kept in every language (the games' names; a test adds its own data's names).
PROPER_NOUNS = ["Final Act", "Final Strategy", "Panzer Squadron", "Tank Game V4", "Tank Game",
                "Toy Duel"]

# The order grammar's phrases, typed as they are whatever the reader's language.
GRAMMAR = re.compile(
    r"\b(?:give \d+ to|bounty \d+ on|vote \d+(?: \d+)? on|paid by|shoot at)\b", re.I)

HIDDEN = re.compile(
    r"<(script|style|template|code|pre|kbd|samp|textarea)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
TAGS = re.compile(r"<[^>]*>")
# Tags that end a line of what a person reads (the others sit inside a sentence).
BLOCKS = re.compile(r"</?(?:p|div|li|ul|ol|br|h[1-6]|tr|td|th|table|section|article|header|"
                    r"footer|nav|main|aside|form|fieldset|legend|label|button|option|select|"
                    r"dt|dd|dl|figure|figcaption|caption|summary|details|hr|title|svg)\b[^>]*>",
                    re.I)
ADDRESSES = re.compile(r"\bhttps?://\S+|\bmailto:\S+|\b[\w.+-]+@[\w.-]+\b|(?<!\w)/[\w./?=&%-]*")
# Codes no one reads as words: hashes and receipts (hex), a secret shown masked ("mY*****",
# the admin's password summary: random letters), time zones' names ("America/New York").
CODES = re.compile(r"\b[0-9a-f]{16,}\b|\S*\*{4,}\S*|"
                   r"\b(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|"
                   r"Australia|Europe|Indian|Pacific|Etc)/[A-Za-z_+-]+"
                   r"(?:[ /](?:of|[A-Z][A-Za-z_+-]*))*")
SENTENCES = re.compile(r"(?<=[.!?:;])\s+|\s*\n\s*|\s{3,}|\s+[|•·—]\s+")
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")  # (accented letters are letters: "notées")


def visible_text(document: str) -> str:
    """What a person reads of ``document`` (HTML, or plain text: a mail's text body)."""
    if "<" in document and re.search(r"</?[a-zA-Z][^>]*>", document):
        document = TAGS.sub(" ", BLOCKS.sub("\n", HIDDEN.sub("\n", document)))
        document = html.unescape(document)
    document = CODES.sub(" ", ADDRESSES.sub(" ", document))
    for name in sorted(PROPER_NOUNS, key=len, reverse=True):
        document = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "…", document, flags=re.I)
    return GRAMMAR.sub(" ", document)


def english_in(html_or_text: str) -> list[str]:
    """The sentences of a page or mail that are in English (none: it reads as French)."""
    found = []
    for sentence in SENTENCES.split(visible_text(html_or_text)):
        sentence = " ".join(sentence.split())
        # A word in capitals amid lower case is a term of the game ("AT unit") or a code; so is
        # a line of one or two such words ("AT", "AT1 A"), where a heading has more.
        shouting = sentence.isupper() and len(WORD.findall(sentence)) > 2
        words = {w.lower() for w in WORD.findall(sentence)
                 if shouting or not (w.isupper() and len(w) > 1)}
        if (words & ENGLISH_WORDS or SHORT_DATE.search(sentence)) and sentence not in found:
            found.append(sentence[:160])
    return found
