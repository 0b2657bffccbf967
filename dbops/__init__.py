"""Database helpers every app's migrations may use: below games, portal and the rest, and
depending on Django alone."""
