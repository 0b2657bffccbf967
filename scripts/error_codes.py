"""Print the site's refusal codes as the Markdown table of docs/errors.md, from the code
(``games.services.errors.Code``): each code, the HTTP status pages and the API answer with, and
what it means.

    .venv/bin/python scripts/error_codes.py > docs/errors.table.md   (or compare by eye)

tests/games/test_error_codes.py checks that docs/errors.md holds exactly this table.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def table() -> str:
    from django.utils import translation

    from games.services.errors import Code

    rows = ["| code | HTTP status | meaning |", "|---|---|---|"]
    with translation.override("en"):
        rows += [f"| `{code}` | {code.status} | {code.meaning} |" for code in Code]
    return "\n".join(rows) + "\n"


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    sys.stdout.write(table())


if __name__ == "__main__":
    main()
