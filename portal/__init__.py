"""The Django project: settings, urls, the Celery app, and the site's own apps."""

from portal.celery import app as celery_app

__all__ = ["celery_app"]
