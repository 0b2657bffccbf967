"""Each message looked up once per language and process.

Django keeps one translation object per language; a message it does not hold is looked for in
a chain of fallback catalogues (one more for every app catalogue whose plural rule differs:
English has five behind it, French six), two dictionary lookups each. An English page asks for
hundreds of messages, nearly all missing from the English catalogue by design (the source text
is English), so the walk cost a match page about a fifth of its time.

A translation object's catalogues never change once it is made, so what it answers for a
message can be kept: ``keep_lookups`` puts a remembering ``gettext`` on every translation
object Django makes (its ``translation()`` is the one door: ``activate``, the default language
and the fallbacks all go through it). A new object (after the settings change in a test, say)
gets its own memory. The memory is bounded: past ``LIMIT`` messages (text built at run time
and translated, which should not happen) it stops remembering new ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import trans_real

LIMIT = 20_000


def _remembering(lookup: Callable[[str], str]) -> Callable[[str], str]:
    kept: dict[str, str] = {}

    def gettext(message: str) -> str:
        try:
            return kept[message]
        except KeyError:
            found = lookup(message)
            if len(kept) < LIMIT:
                kept[message] = found
            return found

    return gettext


def keep_lookups() -> None:
    """Make every translation object Django hands out remember its answers (once per process;
    what was made before is given the memory now)."""
    if getattr(trans_real.translation, "keeps_lookups", False):
        return
    make = trans_real.translation

    def translation(language: str) -> Any:
        made = make(language)
        if "gettext" not in made.__dict__:
            made.gettext = _remembering(made.gettext)
        return made

    translation.keeps_lookups = True  # type: ignore[attr-defined]
    trans_real.translation = translation
    for made in list(trans_real._translations.values()):
        if "gettext" not in made.__dict__:
            made.gettext = _remembering(made.gettext)
