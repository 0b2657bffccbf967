"""``makemessages`` that also reads the Jinja2 templates (``templates_jinja/``).

Django's own command reads ``.html``, ``.txt`` and ``.py`` files, each template through
Django's template lexer, which does not know Jinja2's ``_()`` calls with placeholders or its
``{% trans %}`` blocks. This one adds ``.jinja`` to the extensions read (unless ``-e`` names
them) and hands each ``.jinja`` file to xgettext as a small Python file made by Jinja2's own
extractor (``jinja2.ext.babel_extract``): one gettext call per message, on the line of the
template it comes from. Everything else is Django's command unchanged.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any

from django.core.management.commands import makemessages
from jinja2.ext import GETTEXT_FUNCTIONS, babel_extract

JINJA = ".jinja"
# How many leading string arguments each gettext function takes, and whether a number follows.
SIGNATURES = {"_": (1, False), "gettext": (1, False), "pgettext": (2, False),
              "ngettext": (2, True), "npgettext": (3, True)}


def jinja_as_python(source: str) -> str:
    """The messages of a Jinja2 template as Python gettext calls, each on its own line number."""
    lines: dict[int, list[str]] = {}
    found = babel_extract(io.BytesIO(source.encode()), GETTEXT_FUNCTIONS, [],
                          {"trimmed": "false"})
    for lineno, function, messages, _comments in found:
        strings = messages if isinstance(messages, tuple) else (messages,)
        wanted, counted = SIGNATURES[function]
        strings = strings[:wanted]
        if len(strings) < wanted or None in strings:
            continue  # a call on a variable: nothing to extract
        arguments = [json.dumps(s, ensure_ascii=False) for s in strings] + ["n"] * counted
        lines.setdefault(lineno, []).append(f"{function}({', '.join(arguments)})")
    total = max([source.count("\n") + 1, *lines])
    return "\n".join("; ".join(lines.get(number, [])) for number in range(1, total + 1)) + "\n"


class BuildFile(makemessages.BuildFile):
    def preprocess(self) -> None:
        if os.path.splitext(self.translatable.file)[1] != JINJA:
            return super().preprocess()
        with open(self.path, encoding="utf-8") as source:
            content = jinja_as_python(source.read())
        with open(self.work_path, "w", encoding="utf-8") as work:
            work.write(content)
        return None


class Command(makemessages.Command):
    build_file_class = BuildFile

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("domain", "django") == "django" and not options.get("extensions"):
            options["extensions"] = ["html", "txt", "py", JINJA.lstrip(".")]
        super().handle(*args, **options)
