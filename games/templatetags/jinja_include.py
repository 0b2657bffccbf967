"""``{% jinja_include "name.jinja" %}``: a Jinja2 template (``templates_jinja/``, see
portal/jinja2.py) rendered in place inside a Django template, with the same context and
request (its ``csrf_input`` included)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja_include(context: template.Context, name: str) -> SafeString:
    html = render_to_string(name, context.flatten(), request=getattr(context, "request", None),
                            using="jinja2")
    return mark_safe(html)  # noqa: S308 (autoescaped by Jinja2)
