"""The Jinja2 environment for the few hot parts rendered with Jinja2 (``templates_jinja/``):
the lobby's lists, the rows of "my matches", a match's messages and Final Act's order sheet,
each many rows per page, where Django's template engine cost most of the page
(``scripts/profile_pages.py`` measures it). The filters are Django's own (remembered,
``games.dates``), so that a date or a number reads the same as on the Django-rendered pages
around them.

Texts are translated as in Django's templates, in the active language: ``{{ _("Lobby") }}``,
``{{ _("%(count)s open seats", count=n) }}`` (new-style gettext: placeholders are filled and
escaped, a literal ``%`` is written ``%%``), ``{% trans count=n %}…{% pluralize %}…{% endtrans %}``
and ``pgettext``. ``manage.py makemessages`` reads them too (games/management/commands/
makemessages.py extracts the ``.jinja`` files with Jinja2's own extractor)."""

from __future__ import annotations

import functools
from typing import Any

from django.http import HttpRequest
from django.template import defaultfilters
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import translation
from jinja2 import ChainableUndefined, Environment, pass_context
from jinja2.runtime import Context

from games import dates


@pass_context
def date(context: Context, value: Any, format_string: str) -> str:
    return dates.date(value, format_string, context.get("locale"))


@pass_context
def floatformat(context: Context, value: Any, arg: str = "-1") -> str:
    return dates.floatformat(value, arg, context.get("locale"))


def linebreaksbr(value: Any) -> str:
    """Django's ``linebreaksbr`` (the text escaped, each line break a ``<br>``)."""
    return defaultfilters.linebreaksbr(value, autoescape=True)


def bot_name(bot: Any, game: str) -> str:
    """A bot's name in the reader's language (games' ``bot_name`` filter)."""
    from games import plugins

    return plugins.bot_name(game, bot) if bot else ""


@functools.lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple, urlconf: Any, prefix: str, language: str | None) -> str:
    return reverse(name, args=args, urlconf=urlconf)


def url(name: str, args: Any = (), kwargs: dict[str, Any] | None = None) -> str:
    """``reverse``, remembered for ids and names: an address is a function of the view's
    name, its arguments, the URLconf, the script's prefix and the language, all in the key
    (the match page reversed a dozen per message panel, a seat, a form, on every view)."""
    if kwargs or not all(type(arg) in (int, str) for arg in args):
        return reverse(name, args=args, kwargs=kwargs)
    return _reversed(name, tuple(args), get_urlconf(), get_script_prefix(),
                     translation.get_language())


def locale(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the time zone and language, looked up once per rendering (the
    filters above read them for every value)."""
    return {"locale": dates.locale()}


def environment(**options: Any) -> Environment:
    # A missing name (or an attribute of one) renders as nothing, as in Django's templates.
    options["undefined"] = ChainableUndefined
    options["extensions"] = [*options.get("extensions", ()), "jinja2.ext.i18n"]
    env = Environment(**options)
    env.install_gettext_callables(  # type: ignore[attr-defined]  (added by the i18n extension)
        translation.gettext, translation.ngettext, newstyle=True,
        pgettext=translation.pgettext, npgettext=translation.npgettext)
    env.filters.update({"date": date, "floatformat": floatformat, "linebreaksbr": linebreaksbr,
                        "bot_name": bot_name})
    env.globals.update({"url": url})
    return env
