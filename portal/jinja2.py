"""The Jinja2 environment for the few hot parts rendered with Jinja2 (``templates_jinja/``):
the lobby's lists, the rows of "my matches" and Final Act's order sheet, each many rows per
page, where Django's template engine cost most of the page (``scripts/profile_pages.py``
measures it). The filters are Django's own (remembered, ``portal.dates``), so that a date or
a number reads the same as on the Django-rendered pages around them."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from jinja2 import ChainableUndefined, Environment

from portal import dates


def environment(**options: Any) -> Environment:
    # A missing name (or an attribute of one) renders as nothing, as in Django's templates.
    options["undefined"] = ChainableUndefined
    env = Environment(**options)
    env.filters.update({"date": dates.date, "floatformat": dates.floatformat})
    env.globals.update({"url": reverse})
    return env
