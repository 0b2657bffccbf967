"""Tank Game's data words in the reader's language: a tank's status, a Council member's role,
a ballot's decree and status (the engine's view names them by keys such as "grant_life")."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

STATUSES = {"alive": pgettext_lazy("tank status", "alive"),
            "dead": pgettext_lazy("tank status", "dead"),
            "destroyed": pgettext_lazy("tank status", "destroyed")}
ROLES = {"councillor": pgettext_lazy("council role", "councillor"),
         "senator": pgettext_lazy("council role", "senator")}
DECREES = {"stimulus": pgettext_lazy("decree", "Stimulus"),
           "bounty": pgettext_lazy("decree", "Bounty"),
           "grant_life": pgettext_lazy("decree", "Grant Life")}
BALLOT_STATUSES = {"open": pgettext_lazy("ballot status", "open"),
                   "passed": pgettext_lazy("ballot status", "passed"),
                   "closed": pgettext_lazy("ballot status", "closed")}


def word(words: dict, key: object) -> str:
    """The word for ``key`` in ``words`` (the key itself when the engine adds a new one)."""
    found = words.get(key)
    return str(found) if found is not None else str(key)


def status_word(status: object) -> str:
    return word(STATUSES, status)


def role_word(role: object) -> str:
    return word(ROLES, role)


def decree_word(decree: object) -> str:
    return word(DECREES, decree)


def ballot_status_word(status: object) -> str:
    return word(BALLOT_STATUSES, status)
