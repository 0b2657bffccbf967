"""A saved analysis: a tree of positions of one game, readable by anyone holding its link."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    """The analysis's address: unguessable (128 bits), so the link is the permission to read."""
    return secrets.token_urlsafe(16)


class Analysis(models.Model):
    """A tree of positions. ``nodes`` is a list of {"id", "parent", "state", "at", "label",
    "events", "moves"}: node 0 is the root; each other node is its parent's position after the
    moves in it (``moves``: seat → the orders as text). The root is only ever a position its
    creator was entitled to see (a finished match, a running match's public position, an
    uploaded record), so everything in the tree is fit for anyone with the link."""

    class Source(models.TextChoices):
        MATCH = "match", _("A match")
        RECORD = "record", _("An uploaded record")

    token = models.CharField(_("token"), max_length=32, unique=True, default=new_token)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("owner"),
                              on_delete=models.CASCADE,
                              related_name="analyses")
    game = models.CharField(_("game"), max_length=40)
    seats = models.PositiveSmallIntegerField(_("seats"))
    title = models.CharField(_("title"), max_length=160)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices)
    match = models.ForeignKey("games.Match", verbose_name=_("match"), null=True, blank=True,
                              on_delete=models.SET_NULL,
                              related_name="+")
    nodes = models.JSONField(_("nodes"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")

    def __str__(self) -> str:
        return self.title
