"""Print a new VAPID key pair for web push, as environment lines."""

from django.core.management.base import BaseCommand

from portal.push.vapid import new_private_key, public_key_of


class Command(BaseCommand):
    help = ("Make a new VAPID key pair for web push. Put the VAPID_PRIVATE_KEY line in the "
            "environment; the public key is derived from it (shown for reference). Changing "
            "the key invalidates every browser's subscription.")

    def handle(self, *args, **options) -> None:
        key = new_private_key()
        self.stdout.write(f"VAPID_PRIVATE_KEY={key}\n")
        self.stdout.write(f"# public key (application server key): {public_key_of(key)}\n")
