"""Demo accounts and a match against a bot, ready to play. Safe to run again (idempotent)."""

from __future__ import annotations

import os

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

import engine
from games.models import Match
from games.services import match_create

DEMO_USERS = ("alice", "bob")
DEMO_MODERATOR = "moderator"  # staff, in the Moderator group: the way into /admin/
DEFAULT_PASSWORD = "tank-demo-pass"
LIVE = (Match.Status.OPEN, Match.Status.ACTIVE)


class Command(BaseCommand):
    help = "Create demo accounts (alice, bob) and a match against a bot, ready to play."

    def add_arguments(self, parser):
        parser.add_argument("--password", default=os.environ.get("DEMO_PASSWORD", DEFAULT_PASSWORD),
                            help="Password of the demo accounts (env DEMO_PASSWORD).")
        parser.add_argument("--hours", default="24", help="Hours per phase of the demo matches.")
        parser.add_argument("--force", action="store_true",
                            help="Run even with DEBUG off (demo accounts have a known password).")

    def handle(self, *args, password: str, hours: str, force: bool, **options) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("DEBUG is off: demo accounts with a known password are refused "
                               "(pass --force if you really want them).")
        game = self._game()
        with transaction.atomic():
            users = {name: self._user(name, password) for name in DEMO_USERS}
            self._moderator(self._user(DEMO_MODERATOR, password))
        alice, bob = users["alice"], users["bob"]
        bot_match = self._match(
            title=f"Demo: alice vs the {game.bots[0]} bot" if game.bots else "Demo: alice vs bob",
            game=game, creator=alice, hours=hours,
            seats=[{"kind": "human", "user": alice},
                   {"kind": "bot", "bot": game.bots[0]} if game.bots
                   else {"kind": "human", "user": bob}],
        )
        open_match = self._match(
            title="Demo: bob is waiting for a player", game=game, creator=bob, hours=hours,
            seats=[{"kind": "human", "user": bob}]
            + [{"kind": "human", "user": None}] * (game.min_seats - 1),
        )
        self.stdout.write(self.style.SUCCESS("Demo ready."))
        self.stdout.write(
            f"  Accounts (e-mail verified): {', '.join(DEMO_USERS)} — password: {password}\n"
            f"  Moderator: log in as {DEMO_MODERATOR} (same password) at "
            f"{settings.SITE_URL}{reverse('admin:index')}\n"
            f"  A superuser of your own: DEBUG=true .venv/bin/python manage.py createsuperuser\n"
            f"    (its e-mail address counts as verified; other mails print as one line each)\n"
            f"  Game: {game.name or game.slug}\n"
            f"  Log in at {settings.SITE_URL}{reverse('account_login')} as alice, then open\n"
            f"    {settings.SITE_URL}{reverse('games:match', args=[bot_match.pk])}"
            f"  ({bot_match}) and submit your orders;\n"
            f"    the bot answers through the worker, and the phase resolves when both are in.\n"
            f"  bob's open match for a second player: "
            f"{settings.SITE_URL}{reverse('games:match', args=[open_match.pk])}"
        )

    def _game(self) -> engine.Game:
        games = engine.games()
        if not games:
            raise CommandError("No game is registered; nothing to set up.")
        try:
            return engine.get(settings.DEMO_GAME)
        except KeyError:
            return games[sorted(games)[0]]

    def _user(self, name: str, password: str):
        User = get_user_model()
        email = f"{name}@example.com"
        user, created = User.objects.get_or_create(username=name, defaults={"email": email})
        if created or not user.check_password(password):
            user.set_password(password)
            user.save()
        EmailAddress.objects.update_or_create(
            user=user, email=user.email or email, defaults={"verified": True, "primary": True}
        )
        return user

    def _moderator(self, user) -> None:
        from portal.accounts.roles import moderator_group_sync

        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        group = moderator_group_sync()
        if group is not None:
            user.groups.add(group)

    def _match(self, *, title: str, game: engine.Game, creator, hours: str,
               seats: list[dict]) -> Match:
        existing = Match.objects.filter(
            title=title, created_by=creator, game=game.slug, status__in=LIVE
        ).first()
        if existing is not None:
            return existing
        return match_create(creator=creator, game=game.slug, options=game.default_options(),
                            seats=seats, hours_per_phase=hours, title=title)
