"""Walking a URLconf for tests that request every URL: the games' plug-ins are includes."""

from django.urls import URLResolver


def url_names(patterns, args=()):
    """(name, argument names) of every pattern, through the includes (games' plug-ins)."""
    for pattern in patterns:
        found = tuple(pattern.pattern.regex.groupindex)
        if isinstance(pattern, URLResolver):
            yield from url_names(pattern.url_patterns, args + found)
        else:
            yield pattern.name, list(args + found)
