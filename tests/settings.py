"""The tests' settings: development, asked for explicitly (the site's default is production).
Processes the tests start (Celery workers, `manage.py` runs) inherit it through DEBUG."""

import os

os.environ.setdefault("DEBUG", "true")

from portal.settings import *  # noqa: E402,F403
